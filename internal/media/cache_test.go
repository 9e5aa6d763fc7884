package media

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// readCounting counts the reads of an image's bytes and of its hash alone.
type readCounting struct {
	store.Images
	images, infos, counts atomic.Int32
}

func (c *readCounting) ImageWrites(ctx context.Context) (int64, error) {
	c.counts.Add(1)
	return c.Images.ImageWrites(ctx)
}

func (c *readCounting) Image(ctx context.Context, path string) (store.Image, error) {
	c.images.Add(1)
	return c.Images.Image(ctx, path)
}

func (c *readCounting) ImageInfo(ctx context.Context, path string) (store.Image, error) {
	c.infos.Add(1)
	return c.Images.ImageInfo(ctx, path)
}

// manualNow is a clock the test moves.
type manualNow struct{ at time.Time }

func (m *manualNow) now() time.Time { return m.at }

func cachedLibrary(t *testing.T, limit int64) (*Library, *readCounting, *manualNow) {
	t.Helper()
	clk := &manualNow{at: t0}
	l, st := newLibrary(t, Options{CacheBytes: limit, Now: clk.now})
	reads := &readCounting{Images: st}
	l.st = reads
	return l, reads, clk
}

func mustGet(t *testing.T, l *Library, path string, want []byte) {
	t.Helper()
	img, err := l.Get(context.Background(), path)
	if err != nil || !bytes.Equal(img.Data, want) {
		t.Fatalf("%s: %d bytes, %v; want the %d bytes put", path, len(img.Data), err, len(want))
	}
}

// A served image is answered from memory: no read of the store while no image is written,
// the count of image writes read again after RecheckAfter, and once it moved, one read of
// the image's hash alone while its bytes are the same.
func TestImagesServedFromMemory(t *testing.T) {
	ctx := context.Background()
	l, reads, clk := cachedLibrary(t, DefaultCacheBytes)
	data := pngOf(t, 40, 30)
	if _, err := l.Put(ctx, badge, data, ""); err != nil {
		t.Fatal(err)
	}
	reads.images.Store(0)
	reads.infos.Store(0)
	want := func(when string, images, infos, counts int32) {
		t.Helper()
		if i, n, c := reads.images.Load(), reads.infos.Load(), reads.counts.Load(); i != images || n != infos || c != counts {
			t.Fatalf("%s: %d reads of the bytes, %d of the hash, %d of the count; want %d, %d, %d", when, i, n, c, images, infos, counts)
		}
	}
	for range 5 {
		mustGet(t, l, badge, data)
	}
	want("5 requests", 1, 0, 1)
	clk.at = clk.at.Add(RecheckAfter)
	for range 3 {
		mustGet(t, l, badge, data)
	}
	want("3 more after RecheckAfter, nothing written", 1, 0, 2)
	other := New(reads.Images, Options{CacheBytes: -1}) // another replica
	if _, err := other.Put(ctx, "/images/media/team/badge/other.png", pngOf(t, 10, 10), ""); err != nil {
		t.Fatal(err)
	}
	clk.at = clk.at.Add(RecheckAfter)
	for range 3 {
		mustGet(t, l, badge, data)
	}
	want("3 more after another image was written", 1, 1, 3)
}

// Another replica's replacement is answered within RecheckAfter; this library's own put and
// a removal are seen at once (a removal after the recheck).
func TestMemoryFollowsTheStore(t *testing.T) {
	ctx := context.Background()
	l, reads, clk := cachedLibrary(t, DefaultCacheBytes)
	old, replaced := pngOf(t, 40, 30), pngOf(t, 41, 30)
	if _, err := l.Put(ctx, badge, old, ""); err != nil {
		t.Fatal(err)
	}
	mustGet(t, l, badge, old)
	mustGet(t, l, badge+"/tiny", old) // never enlarged: the original's bytes
	// Written past this library, as another replica writes.
	other := New(reads.Images, Options{CacheBytes: -1})
	if _, err := other.Put(ctx, badge, replaced, ""); err != nil {
		t.Fatal(err)
	}
	mustGet(t, l, badge, old)
	clk.at = clk.at.Add(RecheckAfter)
	mustGet(t, l, badge, replaced)
	mustGet(t, l, badge+"/tiny", replaced)

	if _, err := l.Put(ctx, badge, old, ""); err != nil {
		t.Fatal(err)
	}
	mustGet(t, l, badge, old)
	mustGet(t, l, badge+"/tiny", old)

	if err := reads.DeleteImage(ctx, badge); err != nil {
		t.Fatal(err)
	}
	clk.at = clk.at.Add(RecheckAfter)
	if _, err := l.Get(ctx, badge); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a removed image: %v, want ErrNotFound", err)
	}
}

// The memory kept is bounded: the least recently served go first, and an image over an
// eighth of the bound is never kept.
func TestMemoryBounded(t *testing.T) {
	c := newImageCache(800, time.Now)
	img := func(name string, n int) store.Image {
		return store.Image{Path: "/images/media/team/badge/" + name, Hash: name, Data: make([]byte, n)}
	}
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		c.put(img(name, 100), 0)
	}
	if _, _, ok := c.get("/images/media/team/badge/a"); !ok { // a is now the most recent
		t.Fatal("a, put within the bound, is not kept")
	}
	c.put(img("i", 100), 0)
	if _, _, ok := c.get("/images/media/team/badge/b"); ok {
		t.Error("b, the least recently served, was kept past the bound")
	}
	for _, name := range []string{"a", "c", "i"} {
		if _, _, ok := c.get("/images/media/team/badge/" + name); !ok {
			t.Errorf("%s was evicted before the least recently served", name)
		}
	}
	c.put(img("big", 101), 0)
	if _, _, ok := c.get("/images/media/team/badge/big"); ok {
		t.Error("an image over an eighth of the bound was kept")
	}
	if c.size != 800 || c.order.Len() != 8 {
		t.Fatalf("%d bytes in %d images kept, want 800 in 8", c.size, c.order.Len())
	}
}
