package mirror

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

func imageFetcher(t *testing.T, from string, hc *http.Client, rate int) (*Fetcher, store.Images) {
	t.Helper()
	env := apitest.New(t, apitest.Options{})
	f, err := NewFetcher(FetcherOptions{From: from, Key: "k", Store: env.Store, Clock: newFakeClock(), HTTP: hc, MediaRate: rate})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, env.Store.(store.Images)
}

// Concurrent first requests for an image make one request of the upstream's own host; the
// image is kept and served from the store after.
func TestImageReadThroughFetchesOnce(t *testing.T) {
	var asked atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if asked.Add(1) == 1 {
			close(entered)
		}
		<-release
		w.Write(pngOf(t, r.URL.Path))
	}))
	defer up.Close()
	f, images := imageFetcher(t, up.URL, nil, 0)
	const path = "/images/media/team/badge/x.png"
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	ask := func() {
		defer wg.Done()
		errs <- f.Image(context.Background(), path)
	}
	wg.Add(1)
	go ask()
	<-entered // the first fetch is at the upstream: the others find it in flight
	for range 7 {
		wg.Add(1)
		go ask()
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the upstream was asked %d times", n)
	}
	img, err := images.Image(context.Background(), path)
	if err != nil || img.Type != "image/png" || img.Source != up.URL+path || string(img.Data) != string(pngOf(t, path)) {
		t.Errorf("stored %+v, %v", img.Path, err)
	}
	if err := f.Image(context.Background(), path); err != nil || asked.Load() != 1 {
		t.Errorf("held: %v, %d requests", err, asked.Load())
	}
}

// What is no picture sportsdb keeps is not stored, and not asked for again for a while; a
// path no image can have is not asked for at all; the image budget holds.
func TestImageReadThroughRefuses(t *testing.T) {
	var asked atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		switch {
		case strings.HasSuffix(r.URL.Path, "missing.png"):
			http.NotFound(w, r)
		case strings.HasSuffix(r.URL.Path, "huge.png"):
			w.Write(pngClaiming(t, 100_000, 100_000))
		case strings.HasSuffix(r.URL.Path, "page.png"):
			w.Write([]byte("<html>not a picture</html>"))
		default:
			w.Write(pngOf(t, r.URL.Path))
		}
	}))
	defer up.Close()
	f, images := imageFetcher(t, up.URL, nil, 4)
	ctx := context.Background()
	for _, p := range []string{"/images/a/missing.png", "/images/a/huge.png", "/images/a/page.png"} {
		for range 2 {
			if err := f.Image(ctx, p); !errors.Is(err, ErrNoImage) {
				t.Errorf("%s: %v", p, err)
			}
		}
		if _, err := images.ImageInfo(ctx, p); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s stored: %v", p, err)
		}
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the upstream was asked %d times for 3 refused images", n)
	}
	for _, p := range []string{"/images/../api/v1/json/k/x", "/api/x.png", "/images/a b.png", "/images//x.png", "/images/x.png?y"} {
		if err := f.Image(ctx, p); !errors.Is(err, ErrNoImage) {
			t.Errorf("%s: %v", p, err)
		}
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("bad paths were asked for: %d requests", n)
	}
	if err := f.Image(ctx, "/images/a/fourth.png"); err != nil {
		t.Fatal(err)
	}
	if err := f.Image(ctx, "/images/a/fifth.png"); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("a fifth image in a minute with a budget of 4: %v", err)
	}
}

// Reading through to the public service, an image is fetched from the host its records
// name it on: r2.thesportsdb.com for /images/media/, www.thesportsdb.com for the rest.
func TestImageReadThroughPublicHosts(t *testing.T) {
	pics := newPictures(t, newFakeClock())
	f, _ := imageFetcher(t, "https://www.thesportsdb.com", pics.client(), 0)
	for _, p := range []string{"/images/media/team/badge/x.png", "/images/icons/sports/soccer.png"} {
		if err := f.Image(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	hits, _, dialed := pics.counts()
	if hits["r2.thesportsdb.com/images/media/team/badge/x.png"] != 1 || hits["www.thesportsdb.com/images/icons/sports/soccer.png"] != 1 || len(dialed) != 2 {
		t.Errorf("asked %v, dialed %v", hits, dialed)
	}
}
