package media_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/media"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// The image tree through the real router, on SQLite or, with SPORTSDB_TEST_API_DB=postgres,
// on PostgreSQL.

const badge = "/images/media/team/badge/riverside.png"

type env struct {
	*apitest.Env
	editor string
}

func newEnv(t *testing.T, o apitest.Options) *env {
	t.Helper()
	e := apitest.New(t, o)
	return &env{Env: e, editor: e.AddKey(t, store.Free, store.Editor)}
}

func (e *env) put(t *testing.T, path, key string, data []byte) *apitest.Response {
	t.Helper()
	return e.Send(t, http.MethodPut, path, bytes.NewReader(data), "X-API-KEY", key, "Content-Type", "image/png")
}

func wantJSON(t *testing.T, what string, r *apitest.Response, status int, body string) {
	t.Helper()
	if r.Status != status || body != "" && string(r.Body) != body || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s: %d %q %s; want %d %s", what, r.Status, r.Header.Get("Content-Type"), r.Body, status, body)
	}
}

func TestUploadAndServe(t *testing.T) {
	e := newEnv(t, apitest.Options{})
	data := media.PNGOf(t, 800, 400)
	r := e.put(t, badge, e.editor, data)
	wantJSON(t, "upload", r, http.StatusCreated, "")
	var info struct {
		Path, Type, Hash string
		Width, Height    int
		Size             int64
	}
	if err := json.Unmarshal(r.Body, &info); err != nil || info.Path != badge || info.Type != "image/png" ||
		info.Width != 800 || info.Height != 400 || info.Size != int64(len(data)) || len(info.Hash) != 64 {
		t.Fatalf("upload answer %s, %v", r.Body, err)
	}
	wantJSON(t, "the same upload again", e.put(t, badge, e.editor, data), http.StatusOK, "")

	g := e.Get(t, badge)
	h := g.Header
	if g.Status != 200 || !bytes.Equal(g.Body, data) || h.Get("Content-Type") != "image/png" ||
		h.Get("ETag") != `"`+info.Hash+`"` || h.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		h.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET: %d %v (%d bytes)", g.Status, h, len(g.Body))
	}
	// The whole image is written by the handler itself (in one write): the headers are those
	// http.ServeContent sends, and its conditions still hold.
	if h.Get("Content-Length") != strconv.Itoa(len(data)) || h.Get("Accept-Ranges") != "bytes" || h.Get("Last-Modified") == "" {
		t.Fatalf("GET's length, ranges and date: %v", h)
	}
	if r := e.Get(t, badge, "If-Modified-Since", h.Get("Last-Modified")); r.Status != http.StatusNotModified || len(r.Body) != 0 {
		t.Fatalf("If-Modified-Since its own date: %d, %d bytes", r.Status, len(r.Body))
	}
	if r := e.Do(t, http.MethodHead, badge); r.Status != 200 || len(r.Body) != 0 || r.Header.Get("Content-Length") != h.Get("Content-Length") {
		t.Fatalf("HEAD: %d %v, %d bytes", r.Status, r.Header, len(r.Body))
	}
	if r := e.Get(t, badge, "If-None-Match", h.Get("ETag")); r.Status != http.StatusNotModified || len(r.Body) != 0 {
		t.Fatalf("If-None-Match: %d", r.Status)
	}
	if r := e.Get(t, badge, "Range", "bytes=0-9"); r.Status != http.StatusPartialContent || !bytes.Equal(r.Body, data[:10]) {
		t.Fatalf("Range: %d, %d bytes", r.Status, len(r.Body))
	}
	c := e.Get(t, badge+"/small")
	got, err := media.Inspect(c.Body)
	if c.Status != 200 || err != nil || got != (media.Info{Type: media.PNG, Width: 250, Height: 125}) ||
		c.Header.Get("Cache-Control") == "" || c.Header.Get("ETag") == h.Get("ETag") {
		t.Fatalf("copy: %d %+v %v %v", c.Status, got, err, c.Header)
	}
	// Each route is counted under its own name.
	m := string(e.Get(t, "/metrics").Body)
	for _, want := range []string{`{code="200",route="image"}`, `{code="200",route="image_copy"}`, `{code="200",route="image_upload"}`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics have no %s", want)
		}
	}
	wantJSON(t, "missing", e.Get(t, "/images/media/team/badge/none.png"), 404, `{"Message":"Not found"}`)
	wantJSON(t, "a copy of a missing image", e.Get(t, "/images/media/team/badge/none.png/tiny"), 404, `{"Message":"Not found"}`)
}

// Uploads need a key that may write, as the records API does; bad bytes say why.
func TestUploadRefused(t *testing.T) {
	e := newEnv(t, apitest.Options{})
	png := media.PNGOf(t, 64, 64)
	wantJSON(t, "no key", e.Send(t, http.MethodPut, badge, bytes.NewReader(png)), 400, `{"Message":"Invalid API key"}`)
	wantJSON(t, "unknown key", e.put(t, badge, "nope", png), 400, `{"Message":"Invalid API key"}`)
	wantJSON(t, "reader key", e.put(t, badge, e.PremiumKey, png), 403, `{"Message":"This key cannot write"}`)
	wantJSON(t, "svg", e.put(t, badge, e.editor, []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)), 415, "")
	wantJSON(t, "truncated", e.put(t, badge, e.editor, png[:len(png)/2]), 400, "")
	wantJSON(t, "over 40 megapixels", e.put(t, badge, e.editor, media.PNGClaiming(t, 9000, 9000)), 413, "")
	wantJSON(t, "outside /images/media/", e.put(t, "/images/icons/x.png", e.editor, png), 405, "")
	wantJSON(t, "a copy's path", e.put(t, badge+"/small", e.editor, png), 400, "")
	wantJSON(t, "POST", e.Send(t, http.MethodPost, badge, bytes.NewReader(png), "X-API-KEY", e.editor), 405, "")
	// Over 50 MB by its length: refused before the body is read.
	req := httptest.NewRequest(http.MethodPut, badge, io.LimitReader(zeros{}, media.MaxBytes+1))
	req.ContentLength = media.MaxBytes + 1
	req.Header.Set("X-API-KEY", e.editor)
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	if rec.Code != 413 || !strings.HasPrefix(rec.Body.String(), `{"Message":"Image too large`) {
		t.Fatalf("over 50 MB: %d %s", rec.Code, rec.Body)
	}
	wantJSON(t, "nothing stored", e.Get(t, badge), 404, `{"Message":"Not found"}`)
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// Paths no image can have are a clear 400, never a 500, and never leave the tree.
func TestBadPaths(t *testing.T) {
	e := newEnv(t, apitest.Options{})
	for _, p := range []string{
		"/images/media/../../etc/passwd", "/images/media/%2e%2e/x.png", "/images/x%00.png", "/images//x.png",
		"/images/" + strings.Repeat("a", 600) + ".png", "/images/x.png/small/tiny", "/images/%ff.png",
	} {
		r := e.Get(t, p)
		if r.Status != 400 || r.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(string(r.Body), `{"Message":"Bad image path`) {
			t.Errorf("%q: %d %s", p, r.Status, r.Body)
		}
	}
}

// No key is asked for an image, and none of its quota spent: every API call of this server
// is refused by its limiter, its images are served.
func TestImagesOutsideRateLimits(t *testing.T) {
	e := newEnv(t, apitest.Options{Limiter: refuseAll{}})
	if r := e.V2(t, "lookup/team/133604"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("an API call: %d, want 429 from the limiter", r.Status)
	}
	lib := media.New(e.Store.(store.Images), media.Options{})
	if _, err := lib.Put(context.Background(), badge, media.JPEGOf(t, 40, 40), ""); err != nil {
		t.Fatal(err)
	}
	if r := e.Get(t, badge); r.Status != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("image: %d %s", r.Status, r.Body)
	}
}

type refuseAll struct{}

func (refuseAll) Allow(context.Context, string, int) (ratelimit.Decision, error) {
	return ratelimit.Decision{Allowed: false, Limit: 1}, nil
}
func (refuseAll) Healthy() (bool, string) { return true, "refuses all (tests)" }

// Every replica serves every image: an upload through one is served by another at once.
func TestReplicasServeEveryImage(t *testing.T) {
	e := newEnv(t, apitest.Options{})
	other := e.Replica(t)
	data := media.PNGOf(t, 300, 300)
	wantJSON(t, "upload", e.put(t, badge, e.editor, data), 201, "")
	if r := other.Get(t, badge); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Fatalf("the other replica: %d", r.Status)
	}
	// A copy made by one replica is kept for all.
	first := other.Get(t, badge+"/tiny")
	if r := e.Get(t, badge+"/tiny"); r.Status != 200 || !bytes.Equal(r.Body, first.Body) {
		t.Fatalf("the copy on the first replica: %d", r.Status)
	}
}

// Replacing an original takes its copies with it: the next request makes them from the new
// bytes.
func TestReplaceRemakesCopies(t *testing.T) {
	e := newEnv(t, apitest.Options{})
	wantJSON(t, "upload", e.put(t, badge, e.editor, media.PNGOf(t, 800, 400)), 201, "")
	if info, err := media.Inspect(e.Get(t, badge+"/small").Body); err != nil || info.Height != 125 {
		t.Fatalf("the first copy: %+v, %v", info, err)
	}
	wantJSON(t, "replace", e.put(t, badge, e.editor, media.JPEGOf(t, 400, 400)), 200, "")
	c := e.Get(t, badge+"/small")
	if info, err := media.Inspect(c.Body); err != nil || info != (media.Info{Type: media.JPEG, Width: 250, Height: 250}) {
		t.Fatalf("the copy after a replace: %d %+v, %v", c.Status, info, err)
	}
}
