package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// Images checks a store's kept pictures (store.Images): put, read with and without their
// bytes, bytes kept once per content, copies removed with their original or when it is
// replaced by other bytes, and the data version advanced by every write, as other seen
// through replica (a second store on the same database).
func Images(t *testing.T, st, replica store.Store) {
	ctx := context.Background()
	is, ok := st.(store.Images)
	if !ok {
		t.Fatal("the store keeps no images")
	}
	t0 := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	x, y, small := imageOf("x", "/images/media/team/badge/a.png", t0), imageOf("y", "", t0), imageOf("s", "", t0)
	y.Path = x.Path
	small.Path, small.Original = x.Path+"/small", x.Path
	other := x
	other.Path, other.Source = "/images/media/team/badge/b.png", "https://r2.thesportsdb.com/images/media/team/badge/b.png"

	advanced, unchanged := watchVersion(t, st, replica)
	written := watchImageWrites(t, replica.(store.Images))
	putImage(t, is, x)
	advanced("a put")
	written("a put", true)
	got, err := is.Image(ctx, x.Path)
	if err != nil || !reflect.DeepEqual(got, x) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, x)
	}
	info, err := is.ImageInfo(ctx, x.Path)
	want := x
	want.Data = nil
	if err != nil || !reflect.DeepEqual(info, want) {
		t.Fatalf("info %+v, %v; want %+v", info, err, want)
	}
	putImage(t, is, small)
	unchanged("a copy's put")
	written("a copy's put", true)
	putImage(t, is, other)
	advanced("puts")
	written("puts", true)
	if _, err := is.Image(ctx, "/images/media/team/badge/none.png"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing image: %v, want ErrNotFound", err)
	}
	orphan := imageOf("o", "/images/media/team/badge/none.png/small", t0)
	orphan.Original = "/images/media/team/badge/none.png"
	if err := is.PutImage(ctx, orphan); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a copy of an image not held: %v, want ErrNotFound", err)
	}
	bad := x
	bad.Size++
	if err := is.PutImage(ctx, bad); !errors.Is(err, store.ErrBadQuery) {
		t.Fatalf("an image whose size is not its bytes': %v, want ErrBadQuery", err)
	}
	written("refused puts", false)
	// a.png and b.png hold the same bytes: kept once.
	checkImageStats(t, is, store.ImageStats{Images: 3, Bytes: x.Size + small.Size})
	if h, err := is.ImageByHash(ctx, x.Hash); err != nil || h.Path != x.Path {
		t.Fatalf("by hash: %+v, %v; want the first path holding it, %s", h, err, x.Path)
	}
	checkImagePaths(t, is, x.Path, other.Path)

	// The same bytes again keep the copies; other bytes remove them.
	putImage(t, is, x)
	if _, err := is.ImageInfo(ctx, small.Path); err != nil {
		t.Fatalf("the copy after its original was put again, unchanged: %v", err)
	}
	putImage(t, is, y)
	advanced("a replace")
	if _, err := is.ImageInfo(ctx, small.Path); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the copy of a replaced original: %v, want ErrNotFound", err)
	}
	checkImageStats(t, is, store.ImageStats{Images: 2, Bytes: x.Size + y.Size})

	putImage(t, is, small)
	if err := is.DeleteImage(ctx, y.Path); err != nil {
		t.Fatal(err)
	}
	advanced("a delete")
	written("a delete", true)
	for _, p := range []string{y.Path, small.Path} {
		if _, err := is.Image(ctx, p); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s after its original was deleted: %v, want ErrNotFound", p, err)
		}
	}
	if err := is.DeleteImage(ctx, y.Path); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a second delete: %v, want ErrNotFound", err)
	}
	checkImageStats(t, is, store.ImageStats{Images: 1, Bytes: x.Size})
	if got, err := is.Image(ctx, other.Path); err != nil || !reflect.DeepEqual(got, other) {
		t.Fatalf("the other path holding the same bytes: %+v, %v; want %+v", got, err, other)
	}
	if err := is.DeleteImage(ctx, other.Path); err != nil {
		t.Fatal(err)
	}
	checkImageStats(t, is, store.ImageStats{})
	checkImagePaths(t, is)
}

// imageOf is an image at path whose bytes are content (not a picture: the store keeps
// bytes, and what they are is the media package's).
func imageOf(content, path string, created time.Time) store.Image {
	sum := sha256.Sum256([]byte(content))
	return store.Image{Path: path, Type: "image/png", Hash: hex.EncodeToString(sum[:]), Width: 10, Height: 5,
		Size: int64(len(content)), Created: created, Data: []byte(content)}
}

func putImage(t *testing.T, is store.Images, img store.Image) {
	t.Helper()
	if err := is.PutImage(context.Background(), img); err != nil {
		t.Fatal(err)
	}
}

// watchVersion returns checks that the stores' data versions changed, or did not, since
// the last check.
func watchVersion(t *testing.T, stores ...store.Store) (advanced, unchanged func(after string)) {
	last := make([]int64, len(stores))
	read := func(i int) int64 {
		v, err := stores[i].DataVersion(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i := range stores {
		last[i] = read(i)
	}
	check := func(after string, changed bool) {
		t.Helper()
		for i := range stores {
			v := read(i)
			if changed && v == last[i] {
				t.Errorf("store %d: the data version after %s is still %d", i, after, v)
			}
			if !changed && v != last[i] {
				t.Errorf("store %d: %s moved the data version from %d to %d", i, after, last[i], v)
			}
			last[i] = v
		}
	}
	return func(after string) { t.Helper(); check(after, true) }, func(after string) { t.Helper(); check(after, false) }
}

// watchImageWrites returns a check that the image writes is counts moved, or did not,
// since the last check.
func watchImageWrites(t *testing.T, is store.Images) func(after string, moved bool) {
	read := func() int64 {
		n, err := is.ImageWrites(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	last := read()
	return func(after string, moved bool) {
		t.Helper()
		n := read()
		if moved && n <= last || !moved && n != last {
			t.Errorf("image writes %d after %s, was %d; moved want %v", n, after, last, moved)
		}
		last = n
	}
}

func checkImageStats(t *testing.T, is store.Images, want store.ImageStats) {
	t.Helper()
	if got, err := is.ImageStats(context.Background()); err != nil || got != want {
		t.Fatalf("stats %+v, %v; want %+v", got, err, want)
	}
}

func checkImagePaths(t *testing.T, is store.Images, want ...string) {
	t.Helper()
	var got []string
	if err := is.ImagePaths(context.Background(), func(p string) error { got = append(got, p); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("paths %q, want %q", got, want)
	}
}
