package media

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"sportsdb/internal/store"
)

// DefaultCacheBytes bounds the images a library keeps in memory, its most asked first.
const DefaultCacheBytes = 64 << 20

// RecheckAfter is how long the count of image writes (store.Images.ImageWrites) is taken
// as it was last read. While it stays the same, every image kept in memory is answered
// without asking the store; once it moves, each is checked on its next request (its hash
// alone, no bytes) and kept while the hash is the same. A path's bytes change only when an
// editor replaces them: this server's own writes drop what it kept at once, and another
// replica's are seen within RecheckAfter; clients are told to keep an image a year anyway
// (CacheControl).
const RecheckAfter = 250 * time.Millisecond

// imageCache keeps recently served images with their bytes, bounded in bytes, so that a
// page of badges is answered from memory rather than from two queries and a copy of the
// bytes per request (docs/PICTURES.md, "Speed").
type imageCache struct {
	now   func() time.Time
	limit int64

	mu    sync.Mutex
	size  int64
	order *list.List // of *cached, the most recently served first
	byKey map[string]*list.Element
	// writes is the count of image writes as read at writesAt.
	writes   int64
	writesAt time.Time
	read     singleflight.Group
}

// cached is a kept image and the count of image writes it is known to be current at.
type cached struct {
	img    store.Image
	writes int64
}

func newImageCache(limit int64, now func() time.Time) *imageCache {
	return &imageCache{now: now, limit: limit, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the image kept for path and the count of image writes it is current at.
func (c *imageCache) get(path string) (img store.Image, writes int64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[path]
	if !ok {
		return store.Image{}, 0, false
	}
	c.order.MoveToFront(e)
	it := e.Value.(*cached)
	return it.img, it.writes, true
}

// current marks the image kept for path as current at writes, if it still has hash.
func (c *imageCache) current(path, hash string, writes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[path]; ok && e.Value.(*cached).img.Hash == hash {
		e.Value.(*cached).writes = writes
	}
}

// imageWrites is the count of image writes, read again when the last read is older than
// RecheckAfter (by one request; the others at that moment wait for its answer).
func (c *imageCache) imageWrites(ctx context.Context, read func(context.Context) (int64, error)) (int64, error) {
	c.mu.Lock()
	n, fresh := c.writes, !c.writesAt.IsZero() && c.now().Sub(c.writesAt) < RecheckAfter
	c.mu.Unlock()
	if fresh {
		return n, nil
	}
	v, err, _ := c.read.Do("", func() (any, error) {
		at := c.now()
		n, err := read(ctx)
		if err != nil {
			return int64(0), err
		}
		c.mu.Lock()
		c.writes, c.writesAt = n, at
		c.mu.Unlock()
		return n, nil
	})
	return v.(int64), err
}

// put keeps img (with its bytes), current at writes, evicting the least recently served
// beyond the limit. An image larger than an eighth of the limit is not kept: it would push
// out many small ones.
func (c *imageCache) put(img store.Image, writes int64) {
	n := int64(len(img.Data))
	if img.Data == nil || n > c.limit/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(img.Path)
	c.byKey[img.Path] = c.order.PushFront(&cached{img: img, writes: writes})
	c.size += n
	for c.size > c.limit {
		c.removeLocked(c.order.Back().Value.(*cached).img.Path)
	}
}

// drop forgets path and, for an original, its copies (this server replaced or removed it),
// and has the count of image writes read again.
func (c *imageCache) drop(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writesAt = time.Time{}
	c.removeLocked(path)
	for _, cp := range copyNames {
		c.removeLocked(path + "/" + cp)
	}
}

func (c *imageCache) removeLocked(path string) {
	if e, ok := c.byKey[path]; ok {
		c.size -= int64(len(e.Value.(*cached).img.Data))
		c.order.Remove(e)
		delete(c.byKey, path)
	}
}

// copyNames are the suffixes of the copies (Copies' keys).
var copyNames = func() []string {
	out := make([]string, 0, len(Copies))
	for name := range Copies {
		out = append(out, name)
	}
	return out
}()

// cachedImage answers path from memory when it can: at once while no image was written
// since it was known current, else after the store says its hash is unchanged. ok is false
// when the caller must read the store (not kept, changed, gone, or a read failed); writes is
// then the count of image writes to keep what it reads at (-1: unknown, keep nothing).
func (l *Library) cachedImage(ctx context.Context, path string) (img store.Image, writes int64, ok bool) {
	writes, err := l.cache.imageWrites(ctx, l.st.ImageWrites)
	if err != nil {
		return store.Image{}, -1, false
	}
	img, at, ok := l.cache.get(path)
	if !ok {
		return store.Image{}, writes, false
	}
	if at == writes {
		return img, writes, true
	}
	info, err := l.st.ImageInfo(ctx, path)
	if err != nil || info.Hash != img.Hash {
		if err == nil || errors.Is(err, store.ErrNotFound) {
			l.cache.drop(path)
		}
		return store.Image{}, writes, false
	}
	l.cache.current(path, img.Hash, writes)
	return img, writes, true
}
