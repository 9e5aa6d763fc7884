package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
	"sportsdb/internal/store/storetest"
)

var t0 = time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)

func newLibrary(t *testing.T, o Options) (*Library, *sqlite.Store) {
	t.Helper()
	st := storetest.Opened(t, func(ctx context.Context) (*sqlite.Store, error) {
		return sqlite.Open(ctx, filepath.Join(t.TempDir(), "media.db"))
	})
	o.Clock = clock.Fixed(t0)
	return New(st, o), st
}

const badge = "/images/media/team/badge/abc.png"

func TestPutAndGet(t *testing.T) {
	ctx := context.Background()
	l, _ := newLibrary(t, Options{})
	data := pngOf(t, 40, 30)
	img, err := l.Put(ctx, badge, data, "https://r2.thesportsdb.com"+badge)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Get(ctx, badge)
	if err != nil || !bytes.Equal(got.Data, data) || got.Type != PNG || got.Width != 40 || got.Height != 30 ||
		got.Hash != img.Hash || !got.Created.Equal(t0) || got.Source != "https://r2.thesportsdb.com"+badge {
		t.Fatalf("got %+v, %v", got, err)
	}
	if _, err := l.Get(ctx, "/images/media/team/badge/none.png"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing image: %v, want ErrNotFound", err)
	}
	for name, tc := range map[string]struct {
		path string
		data []byte
		want error
	}{
		"truncated":   {badge, data[:len(data)/2], ErrMalformed},
		"svg":         {badge, []byte("<svg/>"), ErrUnsupported},
		"too many px": {badge, pngClaiming(t, 10000, 10000), ErrTooLarge},
		"a copy path": {badge + "/small", data, ErrBadPath},
		"outside":     {"/media/x.png", data, ErrBadPath},
	} {
		if _, err := l.Put(ctx, tc.path, tc.data, ""); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if got, err := l.Get(ctx, badge); err != nil || !bytes.Equal(got.Data, data) {
		t.Fatalf("a refused put changed the image: %v", err)
	}
}

func TestCopies(t *testing.T) {
	ctx := context.Background()
	l, _ := newLibrary(t, Options{})
	for _, tc := range []struct {
		name, typ string
		data      []byte
	}{
		{"a.png", PNG, pngOf(t, 600, 360)},
		{"a.jpg", JPEG, jpegOf(t, 600, 360)},
		{"a.gif", GIF, gifOf(t, 600, 360)},
	} {
		path := "/images/media/team/badge/" + tc.name
		if _, err := l.Put(ctx, path, tc.data, ""); err != nil {
			t.Fatal(err)
		}
		for name, w := range Copies {
			cp, err := l.Get(ctx, path+"/"+name)
			if err != nil {
				t.Fatalf("%s/%s: %v", path, name, err)
			}
			info, err := Inspect(cp.Data)
			want := Info{Type: tc.typ, Width: w, Height: w * 360 / 600}
			if err != nil || info != want || cp.Type != tc.typ || cp.Width != w || cp.Original != path {
				t.Errorf("%s/%s: %+v of %+v, %v; want %+v", path, name, info, cp, err, want)
			}
			if _, err := decode(cp.Data, info); err != nil {
				t.Errorf("%s/%s: %v", path, name, err)
			}
		}
	}
}

// A copy is never larger than its original: the original's bytes stand for it.
func TestCopyNeverEnlarged(t *testing.T) {
	ctx := context.Background()
	l, _ := newLibrary(t, Options{})
	data := pngOf(t, 120, 80)
	if _, err := l.Put(ctx, badge, data, ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"medium", "small", "preview"} {
		cp, err := l.Get(ctx, badge+"/"+c)
		if err != nil || !bytes.Equal(cp.Data, data) || cp.Width != 120 || cp.Height != 80 {
			t.Fatalf("%s: %dx%d, %v; want the original's bytes", c, cp.Width, cp.Height, err)
		}
	}
	cp, err := l.Get(ctx, badge+"/tiny")
	if err != nil || cp.Width != 50 || cp.Height != 33 {
		t.Fatalf("tiny: %dx%d, %v; want 50x33", cp.Width, cp.Height, err)
	}
}

// One-pixel stripes scaled down by four average to grey with a real filter; nearest-
// neighbour would keep one stripe of each four, all black or all white.
func TestCopyFilter(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 400, 40))
	for x := 0; x < 400; x += 2 {
		for y := 0; y < 40; y++ {
			src.Pix[y*src.Stride+x] = 255
		}
	}
	data, typ, w, h, err := scale(src, PNG, 100)
	if err != nil || typ != PNG || w != 100 || h != 10 {
		t.Fatalf("%s %dx%d, %v", typ, w, h, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for x := 2; x < 98; x++ {
		r, _, _, _ := img.At(x, 5).RGBA()
		if v := r >> 8; v < 96 || v > 160 {
			t.Fatalf("pixel %d is %d, want grey: the stripes were not averaged", x, v)
		}
	}
}

// WebP has no encoder at hand: a WebP's copy is a PNG.
func TestWebPCopyIsWebP(t *testing.T) {
	data, typ, w, h, err := scale(picture(600, 300), WebP, 250)
	if err != nil || typ != WebP || w != 250 || h != 125 {
		t.Fatalf("%s %dx%d, %v", typ, w, h, err)
	}
	if info, err := Inspect(data); err != nil || info.Type != WebP || info.Width != 250 || info.Height != 125 {
		t.Fatalf("%+v, %v", info, err)
	}
	if _, err := webp.Decode(bytes.NewReader(data)); err != nil {
		t.Fatalf("the copy does not decode: %v", err)
	}
}

// Concurrent first requests for one copy make it once; the others wait for it.
func TestCopyMadeOnce(t *testing.T) {
	ctx := context.Background()
	l, st := newLibrary(t, Options{})
	if _, err := l.Put(ctx, badge, pngOf(t, 800, 800), ""); err != nil {
		t.Fatal(err)
	}
	const n = 8
	// Each request misses the copy once; the one flight that makes it misses it once more.
	counting := &countingImages{Images: st, path: badge + "/small", all: make(chan struct{}), want: n + 1}
	l.st = counting
	var decodes atomic.Int32
	l.decoding = func(string) {
		decodes.Add(1)
		<-counting.all // every request has missed the copy before the first makes it
	}
	var wg sync.WaitGroup
	hashes := make([]string, n)
	for i := range n {
		wg.Go(func() {
			cp, err := l.Get(ctx, badge+"/small")
			if err != nil {
				t.Error(err)
			}
			hashes[i] = cp.Hash
		})
	}
	wg.Wait()
	if d := decodes.Load(); d != 1 {
		t.Fatalf("%d decodes for one copy, want 1", d)
	}
	for _, h := range hashes {
		if h != hashes[0] || h == "" {
			t.Fatalf("the requests got different copies: %q", hashes)
		}
	}
}

// countingImages closes all once the path has been missed want times.
type countingImages struct {
	store.Images
	path   string
	want   int
	missed atomic.Int32
	all    chan struct{}
}

func (c *countingImages) Image(ctx context.Context, path string) (store.Image, error) {
	img, err := c.Images.Image(ctx, path)
	if path == c.path && errors.Is(err, store.ErrNotFound) && c.missed.Add(1) == int32(c.want) {
		close(c.all)
	}
	return img, err
}

// First requests for copies of many large originals at once decode within the budget:
// the ones over it wait, holding no picture.
func TestDecodesBounded(t *testing.T) {
	ctx := context.Background()
	l, _ := newLibrary(t, Options{})
	// The budget, at its least the pixels of one original at the limit, is scaled down
	// with the pictures, so that the test stays small: it fits three of them.
	const n, fit, side = 10, 3, 300
	l.budget = fit*side*side + side
	l.decodes = semaphore.NewWeighted(l.budget)
	for i := range n {
		path := fmt.Sprintf("/images/media/player/thumb/p%d.png", i)
		if _, err := l.Put(ctx, path, pngOf(t, side, side), ""); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	inside, most := 0, 0
	release, entered := make(chan struct{}), make(chan struct{}, n)
	l.decoding = func(string) {
		mu.Lock()
		inside++
		most = max(most, inside)
		mu.Unlock()
		entered <- struct{}{}
		<-release
		mu.Lock()
		inside--
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := l.Get(ctx, fmt.Sprintf("/images/media/player/thumb/p%d.png/small", i)); err != nil {
				t.Error(err)
			}
		})
	}
	for range fit {
		<-entered
	}
	// The budget is all but full: the next decode starts only when one ends.
	if l.decodes.TryAcquire(side * side) {
		t.Fatal("room in the budget for a fourth decode")
	}
	close(release)
	wg.Wait()
	if most > fit {
		t.Fatalf("%d decodes at once, want at most %d", most, fit)
	}
}

// A read-through is asked once for an original not held, by concurrent requests for it and
// for its copies alike; what it stores is served.
func TestMissingFetchedOnce(t *testing.T) {
	ctx := context.Background()
	var asked atomic.Int32
	data := pngOf(t, 600, 300)
	var l *Library
	release := make(chan struct{})
	l, _ = newLibrary(t, Options{Missing: func(ctx context.Context, path string) error {
		asked.Add(1)
		<-release
		if path != badge {
			return store.ErrNotFound
		}
		_, err := l.Put(ctx, path, data, "https://r2.thesportsdb.com"+path)
		return err
	}})
	var wg sync.WaitGroup
	paths := []string{badge, badge + "/small", badge + "/tiny", badge}
	for _, p := range paths {
		wg.Go(func() {
			img, err := l.Get(ctx, p)
			if err != nil || img.Original == "" && !bytes.Equal(img.Data, data) {
				t.Errorf("%s: %v", p, err)
			}
		})
	}
	// Every request has joined a flight once the fetch is asked for; a request that
	// comes later finds the original kept.
	for asked.Load() == 0 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := asked.Load(); n != 1 {
		t.Fatalf("the read-through was asked %d times, want 1", n)
	}
	if _, err := l.Get(ctx, "/images/media/team/badge/none.png/small"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an original the read-through does not find: %v, want ErrNotFound", err)
	}
}
