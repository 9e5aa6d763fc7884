package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
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

// A large answer is kept in memory when first computed and moves to a file when asked again;
// it is sent from there through a real connection, whole, with its length, ETag and gzip
// form, never computed again; Close removes the file.
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
	if files := spillFiles(t, base); len(files) != 0 {
		t.Fatalf("spill files after the first request: %v, want none", files)
	}
	for _, from := range []string{"memory", "the file"} {
		resp, body := get()
		if !bytes.Equal(body, want) || resp.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Fatalf("answer from %s: %d bytes, Content-Length %s, want %d", from, len(body), resp.Header.Get("Content-Length"), len(want))
		}
		if resp.Header.Get("Etag") == "" || resp.Header.Get("Etag") != first.Header.Get("Etag") {
			t.Fatalf("answer from %s: ETag %q, first %q", from, resp.Header.Get("Etag"), first.Header.Get("Etag"))
		}
		if files := spillFiles(t, base); len(files) != 1 {
			t.Fatalf("spill files after the answer from %s: %v, want one", from, files)
		}
	}
	resp, body := get("Accept-Encoding", "gzip")
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
	if files := spillFiles(t, base); len(files) != 0 {
		t.Fatalf("%d spill files for answers asked once, want none", len(files))
	}
	before := computed.Load()
	for i := range 12 {
		get("day" + strconv.Itoa(i)) // asked again: from memory to its file
	}
	if computed.Load() != before {
		t.Fatalf("answers asked again computed %d more times", computed.Load()-before)
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
	before = computed.Load()
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

// Requests asking again at once for a large answer in memory all get it whole while it
// moves to its file, which is made once.
func TestCacheMovesAnswerToFileOnceUnderConcurrentRequests(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillDir(base, 64<<20))
	defer c.Close()
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		w.Write(largeAnswer("x", 64<<10))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	want := largeAnswer("x", 64<<10)
	get := func() error {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d=x", nil)
		rec := httptest.NewRecorder()
		c.serve(rec, req, tg, store.Premium, next)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
			return fmt.Errorf("status %d, %d bytes, want %d", rec.Code, rec.Body.Len(), len(want))
		}
		return nil
	}
	if err := get(); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 16)
	for range 16 {
		go func() { errs <- get() }()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if files := spillFiles(t, base); len(files) != 1 || computed.Load() != 1 {
		t.Fatalf("%d spill files, computed %d times; want 1 and 1", len(files), computed.Load())
	}
}

// An answer too large for the memory budget goes to its file when first computed, and is
// then served from it.
func TestCacheSpillsAnswerTooLargeForMemoryAtOnce(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, 512<<10, newSpillDir(base, 64<<20))
	defer c.Close()
	var computed atomic.Int64
	want := largeAnswer("big", 100<<10)
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		w.Write(want)
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	for i := range 2 {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d=big", nil)
		rec := httptest.NewRecorder()
		c.serve(rec, req, tg, store.Premium, next)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Fatalf("request %d: status %d, %d bytes", i+1, rec.Code, rec.Body.Len())
		}
		if files := spillFiles(t, base); len(files) != 1 {
			t.Fatalf("request %d: spill files %v, want one", i+1, files)
		}
	}
	if computed.Load() != 1 {
		t.Fatalf("computed %d times, want 1", computed.Load())
	}
}

// A large answer asked once makes no file; one that left memory before it was asked again
// goes to its file when it is computed the second time, and is served from there after that.
func TestCacheLargeAnswerEvictedThenAskedAgainGoesToFile(t *testing.T) {
	base := t.TempDir()
	const budget = 1 << 20
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, budget, newSpillDir(base, 64<<20))
	defer c.Close()
	computed := map[string]int{}
	next := func(w http.ResponseWriter, r *http.Request) {
		d := r.URL.Query().Get("d")
		computed[d]++
		if strings.HasPrefix(d, "small") {
			w.Write([]byte(`{"events":[{"idEvent":"` + d + `"}]}`))
			return
		}
		w.Write(largeAnswer(d, 40<<10))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	get := func(d string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d="+d, nil)
		rec := httptest.NewRecorder()
		c.serve(rec, req, tg, store.Premium, next)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), d) {
			t.Fatalf("%s: status %d, %d bytes", d, rec.Code, rec.Body.Len())
		}
	}
	for i := range 50 {
		get(fmt.Sprint("small", i))
	}
	// 60 large answers of 40 KiB, 2.4 MiB in all, against a budget of 1 MiB.
	for i := range 60 {
		get(fmt.Sprint("large", i))
	}
	if c.used > budget {
		t.Fatalf("the answers hold %d bytes; budget %d", c.used, budget)
	}
	if files := spillFiles(t, base); len(files) != 0 {
		t.Fatalf("spill files for answers asked once: %d, want none", len(files))
	}
	// large0 left memory long ago: computed again, it goes to a file; then it is a hit.
	for range 3 {
		get("large0")
	}
	if n := computed["large0"]; n != 2 {
		t.Fatalf("large0 computed %d times, want 2", n)
	}
	if files := spillFiles(t, base); len(files) != 1 {
		t.Fatalf("spill files after large0 was asked again: %d, want one", len(files))
	}
	// The last large answer is still in memory: asked again, it moves to its file.
	get("large59")
	if n := computed["large59"]; n != 1 {
		t.Fatalf("large59 computed %d times, want once", n)
	}
	if files := spillFiles(t, base); len(files) != 2 {
		t.Fatalf("spill files after large59 was asked again: %d, want two", len(files))
	}
}

// The ring of evicted keys is bounded and forgets the oldest first; a key taken is gone, and
// a key added again after it was taken is remembered in its new place only.
func TestKeyRing(t *testing.T) {
	k := newKeyRing(3)
	for _, h := range []uint64{1, 2, 3} {
		k.add(h)
	}
	if !k.take(2) || k.take(2) {
		t.Fatal("take 2: want true once")
	}
	k.add(4) // replaces 1, the oldest
	k.add(2) // takes the slot 2 had before it was taken: 3 stays
	if k.take(1) {
		t.Error("1 still remembered after two more adds to a full ring of 3")
	}
	for _, h := range []uint64{3, 4, 2} {
		if !k.take(h) {
			t.Errorf("%d forgotten", h)
		}
	}
	if len(k.at) != 0 || len(k.ring) != 3 {
		t.Errorf("after taking all: %d remembered, ring of %d", len(k.at), len(k.ring))
	}
	none := newKeyRing(0)
	none.add(1)
	if none.take(1) {
		t.Error("a ring of no keys remembered one")
	}
}
