package respcache

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
)

// start is the manual clock's first instant in these tests.
var start = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

// clockCache is a cache on a manual clock in front of an answer that reads the clock
// without declaring how long it stands, and says how many times it was computed; get asks
// for it.
func clockCache() (c *responseCache, m *clock.Manual, get func() string, computed *atomic.Int64) {
	return watchedCache(func(context.Context) {})
}

// watchedCache is clockCache with the answer's declaration made by declare, after it read the
// clock.
func watchedCache(declare func(context.Context)) (c *responseCache, m *clock.Manual, get func() string, computed *atomic.Int64) {
	m = clock.NewManual(start)
	c = newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, nil)
	c.now = m.Now
	computed = new(atomic.Int64)
	next := func(w http.ResponseWriter, r *http.Request) {
		clock.Read(r.Context(), m)
		declare(r.Context())
		n := computed.Add(1)
		w.Write([]byte(`{"events":"answer ` + strconv.FormatInt(n, 10) + `"}`))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsnext.php")
	get = func() string {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsnext.php?id=1", nil)
		rec := httptest.NewRecorder()
		c.Serve(rec, req, keyOf(req, tg), next)
		return rec.Body.String()
	}
	return c, m, get, computed
}

// refreshed waits for the background refreshes started to end, and checks how many times
// the answer was computed by then.
func refreshed(t *testing.T, c *responseCache, computed *atomic.Int64, want int64, msg string) {
	t.Helper()
	c.refreshRuns.Wait()
	if n := computed.Load(); n != want {
		t.Fatalf("%s: computed %d times, want %d", msg, n, want)
	}
}

// An expired clock-dependent answer is served while one background recomputation runs; the
// next request gets the new answer; an entry past the stale limit is recomputed inline.
func TestCacheRefreshesClockDependentAnswersAhead(t *testing.T) {
	c, m, get, computed := clockCache()
	c.ttl, c.stale = time.Minute, time.Minute
	if got := get(); got != `{"events":"answer 1"}` {
		t.Fatalf("first: %s", got)
	}
	m.Advance(time.Minute - time.Nanosecond)
	if got := get(); got != `{"events":"answer 1"}` || computed.Load() != 1 {
		t.Fatalf("within the TTL: %s (computed %d times)", got, computed.Load())
	}
	m.Advance(time.Nanosecond)
	if got := get(); got != `{"events":"answer 1"}` {
		t.Fatalf("expired: the old answer is served while refreshing, got %s", got)
	}
	refreshed(t, c, computed, 2, "expired")
	if got := get(); got != `{"events":"answer 2"}` {
		t.Fatalf("after the refresh: %s", got)
	}
	m.Advance(2 * time.Minute) // past the TTL and the stale limit
	if got := get(); got != `{"events":"answer 3"}` {
		t.Fatalf("too old to serve: want an inline recomputation, got %s", got)
	}
	refreshed(t, c, computed, 3, "recomputed inline")
}

// An answer that declared how long it stands is served from the cache until then, however
// long that is, and refreshed from then on; the instant is read on the cache's clock.
func TestCacheKeepsAnswersUntilTheirDeclaredInstant(t *testing.T) {
	until := start.Add(time.Hour)
	c, m, get, computed := watchedCache(func(ctx context.Context) { clock.Until(ctx, until) })
	get()
	m.Advance(time.Hour - time.Second)
	if got := get(); got != `{"events":"answer 1"}` || computed.Load() != 1 {
		t.Fatalf("a second before its instant: %s (computed %d times)", got, computed.Load())
	}
	m.Advance(time.Second)
	if got := get(); got != `{"events":"answer 1"}` {
		t.Fatalf("at its instant: the old answer is served while refreshing, got %s", got)
	}
	refreshed(t, c, computed, 2, "at the declared instant")
}

// An answer that declared it stands while the data does not change, and one that never read
// the clock, are not recomputed as time passes.
func TestCacheKeepsClockFreeAnswers(t *testing.T) {
	_, m, get, steady := watchedCache(func(ctx context.Context) { clock.Until(ctx, time.Time{}) })
	get()
	m.Advance(30 * 24 * time.Hour)
	if got := get(); got != `{"events":"answer 1"}` || steady.Load() != 1 {
		t.Fatalf("declared steady, a month later: %s (computed %d times)", got, steady.Load())
	}
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, nil)
	c.now = m.Now
	var computed atomic.Int64
	tg, _ := parseTarget("/api/v1/json/k/lookupteam.php")
	for range 2 {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/lookupteam.php?id=1", nil)
		c.Serve(httptest.NewRecorder(), req, keyOf(req, tg), func(w http.ResponseWriter, r *http.Request) {
			computed.Add(1)
			w.Write([]byte(`{"teams":null}`))
		})
		m.Advance(30 * 24 * time.Hour)
	}
	if n := computed.Load(); n != 1 {
		t.Fatalf("an answer that never read the clock was computed %d times", n)
	}
}

// Concurrent requests for an answer not yet cached wait for one computation of it.
func TestCacheComputesConcurrentMissesOnce(t *testing.T) {
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, nil)
	const n = 16
	joined := make(chan struct{}, n)
	c.joined = func() { joined <- struct{}{} }
	var computed atomic.Int64
	release := make(chan struct{})
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		<-release
		w.Write([]byte(`{"teams":[{"idTeam":"1"}]}`))
	}
	tg, _ := parseTarget("/api/v1/json/k/lookupteam.php")
	bodies := make(chan string, n)
	for range n {
		go func() {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/lookupteam.php?id=1", nil)
			rec := httptest.NewRecorder()
			c.Serve(rec, req, keyOf(req, tg), next)
			bodies <- strconv.Itoa(rec.Code) + " " + rec.Body.String()
		}()
	}
	for range n - 1 { // every request but the first waits for the first one's computation
		<-joined
	}
	close(release)
	for range n {
		if got := <-bodies; got != `200 {"teams":[{"idTeam":"1"}]}` {
			t.Fatalf("answer: %s", got)
		}
	}
	if got := computed.Load(); got != 1 {
		t.Fatalf("computed %d times, want 1", got)
	}
}

// A waiting request whose first computation did not give a 200 computes its own answer.
func TestCacheWaiterRecomputesAfterFailedAnswer(t *testing.T) {
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, nil)
	joined := make(chan struct{}, 1)
	c.joined = func() { joined <- struct{}{} }
	var computed atomic.Int64
	started := make(chan struct{})
	release := make(chan struct{})
	next := func(w http.ResponseWriter, r *http.Request) {
		if computed.Add(1) == 1 {
			close(started)
			<-release
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"busy"}`))
			return
		}
		w.Write([]byte(`{"teams":null}`))
	}
	tg, _ := parseTarget("/api/v1/json/k/lookupteam.php")
	get := func() string {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/lookupteam.php?id=2", nil)
		rec := httptest.NewRecorder()
		c.Serve(rec, req, keyOf(req, tg), next)
		return strconv.Itoa(rec.Code) + " " + rec.Body.String()
	}
	first := make(chan string, 1)
	go func() { first <- get() }()
	<-started
	second := make(chan string, 1)
	go func() { second <- get() }()
	<-joined // the second request waits on the first computation
	close(release)
	if got := <-first; got != `503 {"error":"busy"}` {
		t.Fatalf("first: %s", got)
	}
	if got := <-second; got != `200 {"teams":null}` {
		t.Fatalf("second: %s", got)
	}
}

// With every refresh slot taken, an expired answer is still served and its refresh waits for
// a later request.
func TestCacheRefreshesWaitForAFreeSlot(t *testing.T) {
	c, m, get, computed := clockCache()
	c.refreshSlots = make(chan struct{}, 1)
	get()
	m.Advance(c.ttl)
	c.refreshSlots <- struct{}{} // the only slot is busy
	for range 3 {
		if got := get(); got != `{"events":"answer 1"}` {
			t.Fatalf("expired, no slot: %s", got)
		}
	}
	refreshed(t, c, computed, 1, "no free slot")
	<-c.refreshSlots
	get() // starts the refresh now
	refreshed(t, c, computed, 2, "once a slot was free")
}

// An answer written whole by respond.JSON, which hands its body to the cache rather than
// copying it, is sent the same on its first computation and from the cache, with the same
// ETag; one written in pieces after it keeps them all.
func TestCacheAnswersTakenWholeAndInPieces(t *testing.T) {
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes, nil)
	tg, _ := parseTarget("/api/v1/json/k/lookupteam.php")
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		computed.Add(1)
		respond.JSON(w, []byte(`{"teams":[`))
		if r.URL.Query().Get("id") == "2" {
			w.Write([]byte(`{"idTeam":"2"}`))
		}
		w.Write([]byte(`]}`))
	}
	for _, id := range []string{"1", "2"} {
		want := `{"teams":[]}`
		if id == "2" {
			want = `{"teams":[{"idTeam":"2"}]}`
		}
		var etag string
		for i := range 2 {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/lookupteam.php?id="+id, nil)
			rec := httptest.NewRecorder()
			c.Serve(rec, req, keyOf(req, tg), next)
			if rec.Code != http.StatusOK || rec.Body.String() != want || rec.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
				t.Fatalf("id %s, request %d: %d %q (Content-Length %s), want %q", id, i+1, rec.Code, rec.Body.String(), rec.Header().Get("Content-Length"), want)
			}
			if i == 0 {
				etag = rec.Header().Get("Etag")
			} else if rec.Header().Get("Etag") != etag || etag == "" {
				t.Fatalf("id %s: ETag %q from the cache, %q first", id, rec.Header().Get("Etag"), etag)
			}
		}
	}
	if computed.Load() != 2 {
		t.Fatalf("computed %d times, want 2", computed.Load())
	}
}

func TestETagAndGzipNegotiation(t *testing.T) {
	e := etagOf([]byte(`{"a":1}`))
	if !etagMatches(e, e) || !etagMatches(`W/`+e, e) || !etagMatches(`"x", `+e, e) || !etagMatches("*", e) || etagMatches(`"x"`, e) {
		t.Fatal("If-None-Match matching is wrong")
	}
	for h, want := range map[string]bool{"gzip": true, "gzip, deflate, br": true, "br": false, "": false, "gzip;q=0": false, "gzip;q=0.5": true} {
		if acceptsGzip(h) != want {
			t.Errorf("acceptsGzip(%q) = %v", h, !want)
		}
	}
}
