package media

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// DefaultPixelsInFlight bounds the pixels being decoded at once: four 12-megapixel photos,
// or one original at the limit, about 200 MB of decoded pictures at the most.
const DefaultPixelsInFlight = 48_000_000

// FlightTimeout bounds the making of a copy or the fetch of a missing original, which go
// on when the request that started them leaves: long enough to wait for a turn in the
// decode budget and decode a large original, short enough that a database that stopped
// answering frees the flight.
const FlightTimeout = 2 * time.Minute

// Options tune a Library.
type Options struct {
	Clock clock.Clock
	// PixelsInFlight bounds the pixels of the originals being decoded at once (checked or
	// scaled); at least MaxPixels, so that any original fits. 0: DefaultPixelsInFlight.
	PixelsInFlight int64
	// Missing, when set, is asked for an original that is not held, before it or a copy of
	// it is answered as not found: a read-through fetches and stores it there (Library.Put),
	// or returns store.ErrNotFound. Concurrent requests for one original ask once.
	Missing func(ctx context.Context, path string) error
	// CacheBytes bounds the images kept in memory (0: DefaultCacheBytes; negative: none).
	CacheBytes int64
	// Now is the time an image kept in memory is rechecked on (RecheckAfter); time.Now
	// unless set. Not the data clock, which a demo may pin.
	Now func() time.Time
}

// Library keeps originals and makes their copies: a copy is made once, on its first
// request, however many ask for it at once, and kept in the store; the decodes in flight
// are bounded by their pixels, so that many first requests for copies of large pictures
// wait their turn instead of exhausting memory.
type Library struct {
	st      store.Images
	clock   clock.Clock
	missing func(ctx context.Context, path string) error
	budget  int64
	decodes *semaphore.Weighted
	flight  singleflight.Group
	cache   *imageCache // nil: none

	// decoding, set by tests, is called as a decode starts, with the budget taken.
	decoding func(path string)
}

// New returns a library over st.
func New(st store.Images, o Options) *Library {
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.PixelsInFlight == 0 {
		o.PixelsInFlight = DefaultPixelsInFlight
	}
	o.PixelsInFlight = max(o.PixelsInFlight, MaxPixels)
	if o.CacheBytes == 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	l := &Library{st: st, clock: o.Clock, missing: o.Missing, budget: o.PixelsInFlight,
		decodes: semaphore.NewWeighted(o.PixelsInFlight)}
	if o.CacheBytes > 0 {
		l.cache = newImageCache(o.CacheBytes, o.Now)
	}
	return l
}

// Put checks an original (its header, then the whole picture) and stores it at path;
// source is the URL it was fetched from, "" for an upload. The same bytes already held
// there are not stored again, nor decoded. The errors are ErrBadPath, ErrUnsupported,
// ErrTooLarge, ErrMalformed, or the store's.
func (l *Library) Put(ctx context.Context, path string, data []byte, source string) (store.Image, error) {
	p, err := ParsePath(path)
	if err != nil {
		return store.Image{}, err
	}
	if p.Copy != "" {
		return store.Image{}, fmt.Errorf("%w: %q is the path of a copy, made from its original", ErrBadPath, p.Copy)
	}
	info, err := Inspect(data)
	if err != nil {
		return store.Image{}, err
	}
	sum := sha256.Sum256(data)
	img := store.Image{Path: path, Type: info.Type, Hash: hex.EncodeToString(sum[:]), Width: info.Width,
		Height: info.Height, Size: int64(len(data)), Source: source, Created: l.clock.Now(), Data: data}
	if held, err := l.st.ImageInfo(ctx, path); err == nil && held.Hash == img.Hash {
		held.Data = data
		return held, nil
	}
	// Bytes held under another path were checked when they came in.
	if _, err := l.st.ImageByHash(ctx, img.Hash); errors.Is(err, store.ErrNotFound) {
		check := func() error { _, err := decode(data, info); return err }
		if err := l.withBudget(ctx, path, info, check); err != nil {
			return store.Image{}, err
		}
	} else if err != nil {
		return store.Image{}, err
	}
	if err := l.st.PutImage(ctx, img); err != nil {
		return store.Image{}, err
	}
	l.forget(path)
	return img, nil
}

// forget drops what the library kept in memory of path and its copies, which the store
// has replaced or removed.
func (l *Library) forget(path string) {
	if l.cache != nil {
		l.cache.drop(path)
	}
}

// Info returns the image at path without its bytes: from memory when the library keeps
// it (as Get would answer it), else from the store.
func (l *Library) Info(ctx context.Context, path string) (store.Image, error) {
	if l.cache != nil {
		if img, _, ok := l.cachedImage(ctx, path); ok {
			img.Data = nil
			return img, nil
		}
	}
	return l.st.ImageInfo(ctx, path)
}

// Get returns the image at path with its bytes: an original, or a copy, made now if it
// is the first request for it. A copy whose original is not held (nor brought by
// Options.Missing) is store.ErrNotFound, as is any image not held; a bad path ErrBadPath.
func (l *Library) Get(ctx context.Context, path string) (store.Image, error) {
	p, err := ParsePath(path)
	if err != nil {
		return store.Image{}, err
	}
	if l.cache == nil {
		return l.get(ctx, p)
	}
	img, writes, ok := l.cachedImage(ctx, path)
	if ok {
		return img, nil
	}
	// Kept as current at the count read before it was read: a write between the two makes
	// it checked again at its next request.
	img, err = l.get(ctx, p)
	if err == nil && writes >= 0 {
		l.cache.put(img, writes)
	}
	return img, err
}

// get reads the image p names from the store, making a copy or fetching an original that
// is not held.
func (l *Library) get(ctx context.Context, p Path) (store.Image, error) {
	path := p.String()
	img, err := l.st.Image(ctx, path)
	if !errors.Is(err, store.ErrNotFound) || p.Copy == "" && l.missing == nil {
		return img, err
	}
	// The work goes on when the caller leaves: others may wait for the same image, and an
	// image made or fetched is kept.
	ch := l.flight.DoChan(path, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FlightTimeout)
		defer cancel()
		if p.Copy == "" {
			return l.fetch(ctx, path)
		}
		return l.makeCopy(ctx, p)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return store.Image{}, r.Err
		}
		return r.Val.(store.Image), nil
	case <-ctx.Done():
		return store.Image{}, ctx.Err()
	}
}

// fetch asks Options.Missing for an original not held, and reads what it stored.
func (l *Library) fetch(ctx context.Context, path string) (store.Image, error) {
	if img, err := l.st.Image(ctx, path); !errors.Is(err, store.ErrNotFound) {
		return img, err
	}
	if err := l.missing(ctx, path); err != nil {
		return store.Image{}, err
	}
	return l.st.Image(ctx, path)
}

// makeCopy makes the copy p names from its original and keeps it.
func (l *Library) makeCopy(ctx context.Context, p Path) (store.Image, error) {
	// Made meanwhile by a flight that ended between our read and this one.
	if img, err := l.st.Image(ctx, p.String()); !errors.Is(err, store.ErrNotFound) {
		return img, err
	}
	orig, err := l.st.ImageInfo(ctx, p.Original)
	if errors.Is(err, store.ErrNotFound) && l.missing != nil {
		// Through the original's flight: a request for it, or for another of its copies,
		// fetches it once with this one.
		ch := l.flight.DoChan(p.Original, func() (any, error) { return l.fetch(ctx, p.Original) })
		if r := <-ch; r.Err != nil {
			return store.Image{}, r.Err
		}
		orig, err = l.st.ImageInfo(ctx, p.Original)
	}
	if err != nil {
		return store.Image{}, err
	}
	var cp store.Image
	if orig.Width <= p.Width() {
		// Never enlarged: the copy is the original's bytes, which the store keeps once.
		full, err := l.st.Image(ctx, p.Original)
		if err != nil {
			return store.Image{}, err
		}
		cp = full
	} else if cp, err = l.scaled(ctx, p, orig); err != nil {
		return store.Image{}, err
	}
	cp.Path, cp.Original, cp.Source, cp.Created = p.String(), p.Original, "", l.clock.Now()
	if err := l.st.PutImage(ctx, cp); err != nil {
		return store.Image{}, err
	}
	// An original replaced while its copy was made took the copies it had; this one is of
	// the bytes it replaced, so it goes too. The caller still gets it: it asked before.
	if now, err := l.st.ImageInfo(ctx, p.Original); err != nil || now.Hash != orig.Hash {
		if err := l.st.DeleteImage(ctx, cp.Path); err != nil && !errors.Is(err, store.ErrNotFound) {
			return store.Image{}, err
		}
	}
	return cp, nil
}

// scaled decodes the original, within the decode budget, and makes the copy's bytes.
func (l *Library) scaled(ctx context.Context, p Path, orig store.Image) (store.Image, error) {
	info := Info{Type: orig.Type, Width: orig.Width, Height: orig.Height}
	var cp store.Image
	// The original's bytes are read once the budget is taken: first requests waiting
	// their turn hold no pictures.
	err := l.withBudget(ctx, p.String(), info, func() error {
		full, err := l.st.Image(ctx, p.Original)
		if err != nil {
			return err
		}
		if full.Hash != orig.Hash {
			return fmt.Errorf("media: %s changed while its copy was made; ask again", p.Original)
		}
		src, err := decode(full.Data, info)
		if err != nil {
			return err
		}
		data, typ, w, h, err := scale(src, info.Type, p.Width())
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		cp = store.Image{Type: typ, Hash: hex.EncodeToString(sum[:]), Width: w, Height: h,
			Size: int64(len(data)), Data: data}
		return nil
	})
	return cp, err
}

// withBudget runs fn with the pixels of info taken from the decode budget.
func (l *Library) withBudget(ctx context.Context, path string, info Info, fn func() error) error {
	weight := min(int64(info.Width)*int64(info.Height), l.budget)
	if err := l.decodes.Acquire(ctx, weight); err != nil {
		return err
	}
	defer l.decodes.Release(weight)
	if l.decoding != nil {
		l.decoding(path)
	}
	return fn()
}
