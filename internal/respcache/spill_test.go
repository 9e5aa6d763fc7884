package respcache

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
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

// inFile is the number of answers the cache keeps in its spill file. The file itself has
// no name in base: it is unlinked as soon as it is made.
func inFile(t *testing.T, c *responseCache, base string) int {
	t.Helper()
	if names, _ := filepath.Glob(filepath.Join(base, "*")); len(names) != 0 {
		t.Fatalf("the spill file is left in %s: %v", base, names)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spilled.Len()
}

// spillServer serves c through real connections, so that bodies in the spill file leave
// through them.
func spillServer(t *testing.T, c *responseCache, next http.HandlerFunc) *httptest.Server {
	t.Helper()
	tg, _ := parseTarget("/api/v1/json/k/eventsday.php")
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.Serve(w, r, keyOf(r, tg), next)
	}))
	hs.Start()
	t.Cleanup(hs.Close)
	return hs
}

// A large answer is kept in memory when first computed and moves to the file when asked
// again; it is sent from there through a real connection, whole, with its length, ETag and
// gzip form, never computed again; Close closes the file, and later answers stay in memory.
func TestCacheKeepsLargeAnswersInFiles(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillFile(base, 64<<20))
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		w.Write(largeAnswer(r.URL.Query().Get("d"), 200<<10))
	}
	hs := spillServer(t, c, next)
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
	if n := inFile(t, c, base); n != 0 {
		t.Fatalf("%d answers in the file after the first request, want none", n)
	}
	for _, from := range []string{"memory", "the file", "the file again"} {
		resp, body := get()
		if !bytes.Equal(body, want) || resp.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Fatalf("answer from %s: %d bytes, Content-Length %s, want %d", from, len(body), resp.Header.Get("Content-Length"), len(want))
		}
		if resp.Header.Get("Etag") == "" || resp.Header.Get("Etag") != first.Header.Get("Etag") {
			t.Fatalf("answer from %s: ETag %q, first %q", from, resp.Header.Get("Etag"), first.Header.Get("Etag"))
		}
		if n := inFile(t, c, base); n != 1 {
			t.Fatalf("%d answers in the file after the answer from %s, want one", n, from)
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
	c.mu.Lock()
	for _, e := range c.entries {
		c.remove(e) // as a new data version would
	}
	c.mu.Unlock()
	for range 2 { // computed again, and kept in memory: the file is closed
		if _, body := get(); !bytes.Equal(body, want) {
			t.Fatalf("after Close: %d bytes, want %d", len(body), len(want))
		}
	}
	if n := inFile(t, c, base); n != 0 || computed.Load() != 2 {
		t.Fatalf("after Close: %d answers in the file, computed %d times; want 0 and 2", n, computed.Load())
	}
}

// The file stays within its budget, least recently used out first; an answer that left the
// file between its lookup and its sending is computed again.
func TestCacheSpillBudgetAndLostBodies(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillFile(base, 1<<20))
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
		c.Serve(rec, req, keyOf(req, tg), next)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), largeAnswer(d, 100<<10)) {
			t.Fatalf("%s: status %d, %d bytes", d, rec.Code, rec.Body.Len())
		}
		return rec.Body.String()
	}
	for i := range 12 {
		get("day" + strconv.Itoa(i))
	}
	if n := inFile(t, c, base); n != 0 {
		t.Fatalf("%d answers asked once in the file, want none", n)
	}
	before := computed.Load()
	for i := range 12 {
		get("day" + strconv.Itoa(i)) // asked again: from memory to the file
	}
	if computed.Load() != before {
		t.Fatalf("answers asked again computed %d more times", computed.Load()-before)
	}
	n := inFile(t, c, base)
	live, end := c.spill.usage()
	fi, err := c.spill.f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 || live > 1<<20 || end > 1<<20 || fi.Size() > 1<<20 {
		t.Fatalf("%d answers in the file, %d bytes in use, %d used, file of %d bytes, for a budget of 1 MiB", n, live, end, fi.Size())
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
	// day11's entry leaves the cache (a newer answer, a new data version) after a request
	// found it and before that request sent it: the request sends nothing from it, and
	// serve computes the answer afresh.
	c.mu.Lock()
	e := c.entries[keyOf(httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d=day11", nil), tg)]
	c.remove(e)
	c.mu.Unlock()
	rec := httptest.NewRecorder()
	if c.write(rec, httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsday.php?d=day11", nil), e, nil) || rec.Body.Len() != 0 || rec.Header().Get("Etag") != "" {
		t.Fatalf("sent from an entry that left the file: %d bytes, ETag %q", rec.Body.Len(), rec.Header().Get("Etag"))
	}
	before = computed.Load()
	if got := get("day11"); !strings.HasPrefix(got, `{"events":[`) || computed.Load() != before+1 {
		t.Fatalf("an answer that left the file: computed %d more times", computed.Load()-before)
	}
}

// Requests asking again at once for a large answer in memory all get it whole while it
// moves to the file, where it is written once.
func TestCacheMovesAnswerToFileOnceUnderConcurrentRequests(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, newSpillFile(base, 64<<20))
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
		c.Serve(rec, req, keyOf(req, tg), next)
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
	if n := inFile(t, c, base); n != 1 || computed.Load() != 1 {
		t.Fatalf("%d answers in the file, computed %d times; want 1 and 1", n, computed.Load())
	}
	if live, _ := c.spill.usage(); live != (int64(len(want))+spillPage-1)/spillPage*spillPage {
		t.Fatalf("%d bytes of the file in use for one answer of %d bytes", live, len(want))
	}
}

// An answer too large for the memory budget goes to the file when first computed, and is
// then served from it.
func TestCacheSpillsAnswerTooLargeForMemoryAtOnce(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, 512<<10, newSpillFile(base, 64<<20))
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
		c.Serve(rec, req, keyOf(req, tg), next)
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Fatalf("request %d: status %d, %d bytes", i+1, rec.Code, rec.Body.Len())
		}
		if n := inFile(t, c, base); n != 1 {
			t.Fatalf("request %d: %d answers in the file, want one", i+1, n)
		}
	}
	if computed.Load() != 1 {
		t.Fatalf("computed %d times, want 1", computed.Load())
	}
}

// A large answer asked once is not written to the file; one that left memory before it was
// asked again goes to the file when it is computed the second time, and is served from there
// after that.
func TestCacheLargeAnswerEvictedThenAskedAgainGoesToFile(t *testing.T) {
	base := t.TempDir()
	const budget = 1 << 20
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, budget, newSpillFile(base, 64<<20))
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
		c.Serve(rec, req, keyOf(req, tg), next)
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
	if n := inFile(t, c, base); n != 0 {
		t.Fatalf("answers asked once in the file: %d, want none", n)
	}
	// large0 left memory long ago: computed again, it goes to the file; then it is a hit.
	for range 3 {
		get("large0")
	}
	if n := computed["large0"]; n != 2 {
		t.Fatalf("large0 computed %d times, want 2", n)
	}
	if n := inFile(t, c, base); n != 1 {
		t.Fatalf("answers in the file after large0 was asked again: %d, want one", n)
	}
	// The last large answer is still in memory: asked again, it moves to the file.
	get("large59")
	if n := computed["large59"]; n != 1 {
		t.Fatalf("large59 computed %d times, want once", n)
	}
	if n := inFile(t, c, base); n != 2 {
		t.Fatalf("answers in the file after large59 was asked again: %d, want two", n)
	}
}

// The gzip form of an answer kept in the file is kept in the file as well, sent from there
// and freed with its entry: held in memory, the gzip forms of many large answers asked by
// clients that accept gzip (most do) filled the memory budget, and since the entries of the
// file are evicted only when no answer is left in memory, each small answer was evicted
// soon after it was put, and computed again at nearly every request.
func TestCacheKeepsGzipOfFileAnswersInTheFile(t *testing.T) {
	base := t.TempDir()
	const budget = 128 << 10
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, budget, newSpillFile(base, 64<<20))
	defer c.Close()
	var mu sync.Mutex
	computed := map[string]int{}
	next := func(w http.ResponseWriter, r *http.Request) {
		d := r.URL.Query().Get("d")
		mu.Lock()
		computed[d]++
		mu.Unlock()
		if d == "small" {
			w.Write([]byte(`{"events":[{"idEvent":"small"}]}`))
			return
		}
		w.Write(largeAnswer(d, 100<<10))
	}
	hs := spillServer(t, c, next)
	get := func(method, d string, gzipped bool) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, hs.URL+"/api/v1/json/k/eventsday.php?d="+d, nil)
		if gzipped {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: status %d, %v", method, d, resp.StatusCode, err)
		}
		return resp, body
	}
	unzip := func(b []byte) []byte {
		t.Helper()
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return plain
	}
	// 40 answers of 100 KiB, too large for the memory budget of 128 KiB (they go to the
	// file at once), whose gzip forms (about 5 KiB each) outweigh it; each asked with gzip
	// (its computation), without, and with gzip again (from the file); the small answer is
	// asked between them.
	for i := range 40 {
		d := fmt.Sprint("large", i)
		want := largeAnswer(d, 100<<10)
		for _, gzipped := range []bool{true, false, true} {
			resp, body := get(http.MethodGet, d, gzipped)
			if resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Fatalf("%s: Content-Length %s for %d bytes", d, resp.Header.Get("Content-Length"), len(body))
			}
			if enc := resp.Header.Get("Content-Encoding"); gzipped != (enc == "gzip") {
				t.Fatalf("%s, gzip accepted %v: Content-Encoding %q", d, gzipped, enc)
			}
			if gzipped {
				body = unzip(body)
			}
			if !bytes.Equal(body, want) {
				t.Fatalf("%s, gzip accepted %v: %d bytes, want %d", d, gzipped, len(body), len(want))
			}
		}
		get(http.MethodGet, "small", true)
	}
	mu.Lock()
	if n := computed["small"]; n != 1 {
		t.Errorf("the small answer was computed %d times, want once", n)
	}
	for i := range 40 {
		if n := computed[fmt.Sprint("large", i)]; n != 1 {
			t.Errorf("large%d computed %d times, want once", i, n)
		}
	}
	mu.Unlock()
	resp, body := get(http.MethodHead, "large39", true)
	if len(body) != 0 || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("HEAD: %d bytes of body, Content-Encoding %q", len(body), resp.Header.Get("Content-Encoding"))
	}
	_, zipped := get(http.MethodGet, "large39", true)
	if resp.Header.Get("Content-Length") != strconv.Itoa(len(zipped)) {
		t.Fatalf("HEAD: Content-Length %s, the gzip answer has %d bytes", resp.Header.Get("Content-Length"), len(zipped))
	}
	if n := inFile(t, c, base); n != 40 {
		t.Fatalf("%d answers in the file, want 40", n)
	}
	// A new data version removes the entries; their extents, both forms, are freed.
	c.mu.Lock()
	for _, e := range c.entries {
		c.remove(e)
	}
	c.mu.Unlock()
	if live, _ := c.spill.usage(); live != 0 {
		t.Fatalf("%d bytes of the file still in use after every entry left", live)
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

// Extents are whole pages, taken best-fit from the freed ones or cut from the end, never past
// the budget; one still read is not reused; freed neighbours merge, and a freed tail moves
// the end back.
func TestSpillFileExtents(t *testing.T) {
	base := t.TempDir()
	s := newSpillFile(base, 16*spillPage)
	defer s.Close()
	body := func(pages int, b byte) []byte { return bytes.Repeat([]byte{b}, pages*spillPage-100) }
	write := func(pages int, b byte) *spillSlot {
		t.Helper()
		sl, err := s.write(body(pages, b))
		if err != nil {
			t.Fatalf("write %d pages: %v", pages, err)
		}
		return sl
	}
	check := func(sl *spillSlot, pages int, b byte) {
		t.Helper()
		got, ok := sl.bytes()
		if !ok || !bytes.Equal(got, body(pages, b)) {
			t.Fatalf("body %q of %d pages at %d reads back wrong (ok %v)", b, pages, sl.ext.off, ok)
		}
	}
	a, b, c := write(4, 'a'), write(2, 'b'), write(4, 'c')
	if a.ext != (extent{0, 4 * spillPage}) || b.ext.off != 4*spillPage || c.ext.off != 6*spillPage {
		t.Fatalf("extents %v %v %v, want pages 0, 4 and 6", a.ext, b.ext, c.ext)
	}
	b.release()
	d := write(1, 'd') // best fit: the hole b left, not the end
	if d.ext.off != 4*spillPage {
		t.Fatalf("one page went to %d, want b's hole at %d", d.ext.off, 4*spillPage)
	}
	if !a.acquire() { // a reader of a
		t.Fatal("acquire of a live extent failed")
	}
	a.release() // the cache lets a go; the reader still holds it
	if _, err := s.write(body(7, 'x')); err != errSpillFull {
		t.Fatalf("7 pages with 6 free at the end, 1 after d and a's 4 held: %v, want full", err)
	}
	e := write(5, 'e') // the end: pages 10 to 14
	check(a, 4, 'a')
	a.release() // the reader is done: a's pages are free
	if a.acquire() {
		t.Fatal("acquire of a freed extent succeeded")
	}
	f := write(4, 'f')
	if f.ext.off != 0 {
		t.Fatalf("four pages went to %d, want a's freed pages at 0", f.ext.off)
	}
	check(c, 4, 'c')
	check(d, 1, 'd')
	check(e, 5, 'e')
	check(f, 4, 'f')
	c.release()
	d.release() // merges with c's pages and the page after d
	g := write(6, 'g')
	if g.ext.off != 4*spillPage {
		t.Fatalf("six pages went to %d, want the merged hole at %d", g.ext.off, 4*spillPage)
	}
	e.release() // the tail: the end moves back
	if live, end := s.usage(); live != 10*spillPage || end != 10*spillPage {
		t.Fatalf("in use %d, end %d; want both %d", live, end, 10*spillPage)
	}
	if _, err := s.write(make([]byte, 7*spillPage)); err != errSpillFull {
		t.Fatalf("7 pages with 6 left before the budget: %v, want full", err)
	}
	if names, _ := filepath.Glob(filepath.Join(base, "*")); len(names) != 0 {
		t.Fatalf("the file has a name: %v", names)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write(body(1, 'h')); err == nil || err == errSpillFull {
		t.Fatalf("write after Close: %v", err)
	}
}

// Many clients asking at once for large answers, through the server's own connections, with
// a file far smaller than the answers: bodies and their gzip forms (half the clients accept
// gzip) are written, sent, evicted and their extents reused all the while, and every client
// gets exactly its answer. Sent with sendfile, which queues the file's pages rather than
// their bytes, answers here were now and then changed by the next answer written to their
// extent before the client had them (under load: four of these tests at once).
func TestCacheSpillFileUnderChurn(t *testing.T) {
	base := t.TempDir()
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, 256<<10, newSpillFile(base, 768<<10))
	defer c.Close()
	size := func(d string) int { n, _ := strconv.Atoi(d); return 16<<10 + n%7*9000 }
	hs := spillServer(t, c, func(w http.ResponseWriter, r *http.Request) {
		d := r.URL.Query().Get("d")
		w.Write(largeAnswer(d, size(d)))
	})
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			for i := range 150 {
				d := strconv.Itoa((i*7 + g*13) % 40)
				req, _ := http.NewRequest(http.MethodGet, hs.URL+"/api/v1/json/k/eventsday.php?d="+d, nil)
				if g%2 == 1 {
					req.Header.Set("Accept-Encoding", "gzip")
				}
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				var body []byte
				if resp.Header.Get("Content-Encoding") == "gzip" {
					var zr *gzip.Reader
					if zr, err = gzip.NewReader(resp.Body); err == nil {
						body, err = io.ReadAll(zr)
					}
				} else {
					body, err = io.ReadAll(resp.Body)
				}
				resp.Body.Close()
				if want := largeAnswer(d, size(d)); err != nil || !bytes.Equal(body, want) {
					at := 0 // where the body first differs from its answer
					for at < min(len(body), len(want)) && body[at] == want[at] {
						at++
					}
					errs <- fmt.Errorf("client %d, request %d (%s, Content-Encoding %q): %d bytes of %d, differing from byte %d (%q), err %v",
						g, i, d, resp.Header.Get("Content-Encoding"), len(body), len(want), at, body[at:min(len(body), at+60)], err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	n := inFile(t, c, base)
	live, end := c.spill.usage()
	if n == 0 || end > 768<<10 {
		t.Fatalf("%d answers in the file, %d bytes used of a budget of %d", n, end, 768<<10)
	}
	// With no request in flight, the extents in use are exactly those of the entries.
	var want int64
	zipped := 0
	c.mu.Lock()
	for el := c.spilled.Front(); el != nil; el = el.Next() {
		e := el.Value.(*cacheEntry)
		want += e.slot.ext.n
		if e.gzSlot != nil {
			want += e.gzSlot.ext.n
			zipped++
		}
		if e.gz != nil {
			t.Errorf("%s: a gzip form in memory for a body in the file", e.key)
		}
	}
	c.mu.Unlock()
	if zipped == 0 {
		t.Errorf("no gzip form in the file")
	}
	if live != want {
		t.Fatalf("%d bytes of extents in use, the entries hold %d", live, want)
	}
}

// Random writes and releases keep the file's books straight: live extents never overlap
// and lie below the end, which stays within the budget; the free extents are in order,
// apart from each other and from the end; the bytes in use are those of the live extents;
// and every body reads back as written.
func TestSpillFileExtentsRandom(t *testing.T) {
	s := newSpillFile(t.TempDir(), 64*spillPage)
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var live []heldBody
	for step := range 4000 {
		if len(live) > 0 && (rng.IntN(2) == 0 || len(live) > 40) {
			i := rng.IntN(len(live))
			live[i].sl.release()
			live = slices.Delete(live, i, i+1)
		} else {
			body := bytes.Repeat([]byte{byte('a' + step%26)}, 1+rng.IntN(9*spillPage))
			sl, err := s.write(body)
			switch {
			case err == errSpillFull:
			case err != nil:
				t.Fatal(err)
			default:
				live = append(live, heldBody{sl, body})
			}
		}
		if err := s.check(live); err != "" {
			t.Fatalf("step %d: %s", step, err)
		}
	}
	for _, h := range live {
		if got, ok := h.sl.bytes(); !ok || !bytes.Equal(got, h.body) {
			t.Fatalf("a body of %d bytes at %d reads back wrong", len(h.body), h.sl.ext.off)
		}
		h.sl.release()
	}
	if live, end := s.usage(); live != 0 || end != 0 {
		t.Fatalf("all released: %d in use, end %d", live, end)
	}
}

// heldBody is a body written to a spill file and the reference to it the writer holds.
type heldBody struct {
	sl   *spillSlot
	body []byte
}

// check says what is wrong with the file's books, given the bodies held, or "".
func (s *spillFile) check(held []heldBody) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var inUse int64
	exts := make([]extent, 0, len(held))
	for _, h := range held {
		inUse += h.sl.ext.n
		exts = append(exts, h.sl.ext)
	}
	slices.SortFunc(exts, func(a, b extent) int { return int(a.off - b.off) })
	for i, e := range exts {
		if e.n%spillPage != 0 || e.off+e.n > s.end || i > 0 && exts[i-1].off+exts[i-1].n > e.off {
			return fmt.Sprintf("live extent %v (end %d, the one before %v)", e, s.end, exts[max(i-1, 0)])
		}
	}
	for i, f := range s.free {
		if f.off+f.n >= s.end || i > 0 && s.free[i-1].off+s.free[i-1].n >= f.off {
			return fmt.Sprintf("free extents %v with end %d", s.free, s.end)
		}
		for _, e := range exts {
			if f.off < e.off+e.n && e.off < f.off+f.n {
				return fmt.Sprintf("free extent %v overlaps live %v", f, e)
			}
		}
	}
	if live, _ := s.usageLocked(); live != inUse || s.end > s.budget {
		return fmt.Sprintf("%d bytes in use by the books, %d held; end %d of %d", live, inUse, s.end, s.budget)
	}
	return ""
}

// usage is the bytes of the extents in use (the used length less the free extents) and the
// used length.
func (s *spillFile) usage() (live, end int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usageLocked()
}

func (s *spillFile) usageLocked() (live, end int64) {
	live = s.end
	for _, f := range s.free {
		live -= f.n
	}
	return live, s.end
}
