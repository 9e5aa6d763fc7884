package mirror

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

// Read-through of images (serve --upstream): an image the store does not hold is fetched
// from where the upstream's records name it, checked, kept and then served. The upstream's
// own host is asked, or, for the public service, r2.thesportsdb.com (its /images/media/
// tree) or www.thesportsdb.com (the rest): no other host. Each fetch takes a slot of the
// image budget without waiting, like the API's read-through, and concurrent requests for
// one image make one fetch.

// ErrNoImage: the upstream has no image at the path, or it is no picture sportsdb keeps
// (the server answers 404). It is remembered for missRecheck, so asking again costs
// nothing upstream.
var ErrNoImage = errors.New("the upstream has no such image")

// missRecheck is how long an image the upstream refused is not asked for again.
const missRecheck = time.Hour

// imageTimeout bounds one image fetch: an original may be 50 MB.
const imageTimeout = 30 * time.Second

// imageSide is the Fetcher's image read-through.
type imageSide struct {
	*images
	// public: the upstream is the public service, whose records name its image hosts.
	public bool
}

func newImageSide(o FetcherOptions, mo Options) *imageSide {
	st, ok := o.Store.(store.Images)
	if !ok {
		return nil
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: imageTimeout}
	}
	rate := o.MediaRate
	if rate <= 0 {
		rate = DefaultMediaRate
	}
	u, _ := url.Parse(mo.From) // checked by mo.defaults
	host := strings.ToLower(u.Hostname())
	return &imageSide{
		images: &images{store: st, lib: media.New(st, media.Options{Clock: mo.Clock}), hosts: ImageHosts(mo.From), http: hc, limiter: mo.Limiter, rate: rate,
			clock: mo.Clock, log: mo.Logger, noWait: true},
		public: host == "www.thesportsdb.com" || host == "thesportsdb.com" || host == "r2.thesportsdb.com",
	}
}

// Image makes the store hold the image at path (what follows the host in its address,
// "/images/media/team/badge/x.png"), fetching it from the upstream unless it is held.
// ErrNoImage: the upstream has none there (or it is refused); ErrBudgetSpent: the image
// budget has no slot now. A caller that gives up leaves the fetch running: the others wait
// for it, and the image is kept.
func (f *Fetcher) Image(ctx context.Context, path string) error {
	if f.img == nil {
		return ErrNoImage
	}
	if !imagePathOK(path) {
		return fmt.Errorf("%w: %q is no image path", ErrNoImage, path)
	}
	u := imagePrefix + path
	f.mu.Lock()
	if until, ok := f.fresh[u]; ok && f.clock.Now().Before(until) {
		f.mu.Unlock()
		return ErrNoImage
	}
	if fl, ok := f.inflight[u]; ok {
		f.mu.Unlock()
		select {
		case <-fl.done:
			return fl.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	fl := &flight{done: make(chan struct{})}
	f.inflight[u] = fl
	f.mu.Unlock()
	go func() {
		fl.err = f.fetchImage(context.WithoutCancel(ctx), path)
		f.mu.Lock()
		delete(f.inflight, u)
		f.mu.Unlock()
		close(fl.done)
	}()
	select {
	case <-fl.done:
		return fl.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *Fetcher) fetchImage(ctx context.Context, path string) error {
	if _, err := f.img.store.ImageInfo(ctx, path); err == nil {
		return nil // stored meanwhile
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("mirror: image %s: %w", path, err)
	}
	address := f.img.address(f.c.base, path)
	status, note, err := f.img.copy(ctx, address, path)
	switch {
	case errors.Is(err, ErrBudgetSpent):
		f.m.count("image", "budget_spent", 0)
		return err
	case err != nil:
		f.m.count("image", "failed", 0)
		f.log.Warn("mirror: image read-through failed", "image", address, "error", err)
		return fmt.Errorf("mirror: image %s: %w", address, err)
	case status != "ok":
		f.m.count("image", "refused", 0)
		f.log.Info("mirror: image read-through refused", "image", address, "reason", note)
		f.remember(imagePrefix+path, f.clock.Now().Add(missRecheck))
		return fmt.Errorf("%w: %s: %s", ErrNoImage, address, note)
	}
	f.m.count("image", "ok", 1)
	return nil
}

// address is where the image at path is fetched from.
func (s *imageSide) address(base, path string) string {
	if !s.public {
		return base + path
	}
	if strings.HasPrefix(path, "/images/media/") {
		return "https://r2.thesportsdb.com" + path
	}
	return "https://www.thesportsdb.com" + path
}

// imagePathOK admits a path an image can have: under /images/, plain segments, printable.
func imagePathOK(p string) bool {
	if len(p) > 512 || !strings.HasPrefix(p, "/images/") || strings.Contains(p, "//") || strings.HasSuffix(p, "/") {
		return false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return !strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' || r == '?' || r == '#' })
}
