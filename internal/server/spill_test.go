package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"sportsdb/internal/store"
)

// largeAnswer is an answer of n bytes or a little more, different for each id.
func largeAnswer(id string, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"events":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"idEvent":"` + id + "-" + strconv.Itoa(i) + `","strEvent":"Home vs Away"}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// spillFiles lists the files of the cache's own directory inside base.
func spillFiles(t *testing.T, base string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(base, "sportsdb-cache-*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// A large answer is kept in a file and sent from it through a real connection, whole, with
// its length, ETag and gzip form; Close removes the file.
func TestCacheKeepsLargeAnswersInFiles(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillDir(base, 64<<20))
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		w.Write(largeAnswer(r.URL.Query().Get("d"), 200<<10))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		c.serve(rec, r, tg, store.Premium, next)
	}))
	defer hs.Close()
	get := func(header ...string) (*http.Response, []byte) {
		req, _ := http.NewRequest(http.MethodGet, hs.URL+"/api/v1/json/k/eventsday.php?d=2026-10-05", nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	want := largeAnswer("2026-10-05", 200<<10)
	first, body := get()
	if !bytes.Equal(body, want) {
		t.Fatalf("first answer: %d bytes, want %d", len(body), len(want))
	}
	if files := spillFiles(t, base); len(files) != 1 {
		t.Fatalf("spill files: %v, want one", files)
	}
	resp, body := get()
	if !bytes.Equal(body, want) || resp.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Fatalf("answer from the file: %d bytes, Content-Length %s, want %d", len(body), resp.Header.Get("Content-Length"), len(want))
	}
	if resp.Header.Get("Etag") == "" || resp.Header.Get("Etag") != first.Header.Get("Etag") {
		t.Fatalf("ETag %q, first %q", resp.Header.Get("Etag"), first.Header.Get("Etag"))
	}
	resp, body = get("Accept-Encoding", "gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, want) {
		t.Fatalf("gzip answer unpacks to %d bytes, want %d", len(plain), len(want))
	}
	if resp, _ = get("If-None-Match", first.Header.Get("Etag")); resp.StatusCode != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", resp.StatusCode)
	}
	if n := computed.Load(); n != 1 {
		t.Fatalf("computed %d times, want 1", n)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if dirs, _ := filepath.Glob(filepath.Join(base, "sportsdb-cache-*")); len(dirs) != 0 {
		t.Fatalf("after Close: %v", dirs)
	}
}

// The files stay within their budget, least recently used out first; an answer whose file
// has gone is computed again.
func TestCacheSpillBudgetAndLostFiles(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillDir(base, 1<<20))
	defer c.Close()
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		w.Write(largeAnswer(r.URL.Query().Get("d"), 100<<10))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	get := func(d string) string {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d="+d, nil)
		rec := httptest.NewRecorder()
		c.serve(rec, req, tg, store.Premium, next)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), largeAnswer(d, 100<<10)) {
			t.Fatalf("%s: status %d, %d bytes", d, rec.Code, rec.Body.Len())
		}
		return rec.Body.String()
	}
	for i := range 12 {
		get("day" + strconv.Itoa(i))
	}
	files := spillFiles(t, base)
	var total int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		total += fi.Size()
	}
	if len(files) < 8 || total > 1<<20 {
		t.Fatalf("%d spill files of %d bytes in all for a budget of 1 MiB", len(files), total)
	}
	before := computed.Load()
	get("day11") // the newest is kept
	if computed.Load() != before {
		t.Fatal("the most recent answer was not kept")
	}
	get("day0") // the oldest was dropped
	if computed.Load() != before+1 {
		t.Fatal("the oldest answer was still kept")
	}
	for _, f := range spillFiles(t, base) {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	before = computed.Load()
	if got := get("day11"); !strings.HasPrefix(got, `{"events":[`) || computed.Load() != before+1 {
		t.Fatalf("a lost file: computed %d more times", computed.Load()-before)
	}
}
