package media_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

// No path, method, body or header a client sends gets a 5xx, or an error that is not JSON.
func FuzzImages(f *testing.F) {
	png := media.PNGOf(f, 300, 200)
	for _, seed := range []struct {
		method, path, rangeHeader string
		body                      []byte
	}{
		{"GET", "/images/media/team/badge/a.png", "", nil},
		{"GET", "/images/media/team/badge/a.png/small", "bytes=0-3", nil},
		{"HEAD", "/images/media/team/badge/a.png/tiny", "bytes=-5", nil},
		{"GET", "/images/media/team/badge/a.png", "bytes=99999-", nil},
		{"PUT", "/images/media/team/badge/b.png", "", png},
		{"PUT", "/images/media/team/badge/c.png", "", png[:100]},
		{"PUT", "/images/media/team/badge/d.gif", "", []byte("GIF89a\xff\xff\xff\xff")},
		{"PUT", "/images/media/x/%2e%2e/y.png", "", png},
		{"GET", "/images/%00/%ff/..", "", nil},
		{"DELETE", "/images/media/team/badge/a.png", "", nil},
		{"OPTIONS", "/images/media/a.png", "", nil},
	} {
		f.Add(seed.method, seed.path, seed.rangeHeader, seed.body)
	}
	e := apitest.New(f, apitest.Options{})
	editor := e.AddKey(f, store.Free, store.Editor)
	if r := e.Send(f, http.MethodPut, "/images/media/team/badge/a.png", bytes.NewReader(png), "X-API-KEY", editor); r.Status != 201 {
		f.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	f.Fuzz(func(t *testing.T, method, path, rangeHeader string, body []byte) {
		switch method {
		case "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS":
		default:
			method = "GET"
		}
		if !strings.HasPrefix(path, "/images/") {
			path = "/images/" + path
		}
		r := e.Send(t, method, path, bytes.NewReader(body), "X-API-KEY", editor, "Range", rangeHeader)
		if r.Status >= 500 {
			t.Fatalf("%s %q: %d %s", method, path, r.Status, r.Body)
		}
		ct := r.Header.Get("Content-Type")
		if r.Status >= 400 && r.Status != http.StatusRequestedRangeNotSatisfiable && method != "HEAD" &&
			(ct != "application/json" || len(r.Body) == 0 || r.Body[0] != '{') {
			t.Fatalf("%s %q: %d %q %s, not JSON", method, path, r.Status, ct, r.Body)
		}
	})
}

// Any bytes: Inspect refuses or reads them, never panics, and what it reads is within the
// limits.
func FuzzInspect(f *testing.F) {
	f.Add(media.PNGOf(f, 3, 2))
	f.Add(media.JPEGOf(f, 3, 2))
	f.Add(media.PNGClaiming(f, 9000, 9000))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8X"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := media.Inspect(data)
		if err == nil && (info.Width <= 0 || info.Height <= 0 || int64(info.Width)*int64(info.Height) > media.MaxPixels) {
			t.Fatalf("%+v is not within the limits", info)
		}
	})
}
