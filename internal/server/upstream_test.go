package server_test

import (
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/mirror"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// countingProxy passes requests to an upstream server and counts them by path and query,
// the key segment masked. hold, when set, makes each request wait for it to close.
type countingProxy struct {
	srv  *httptest.Server
	key  string
	mu   sync.Mutex
	hits map[string]int
	hold chan struct{}
}

func newCountingProxy(t *testing.T, up http.Handler, key string) *countingProxy {
	p := &countingProxy{key: key, hits: map[string]int{}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := strings.Replace(r.URL.RequestURI(), "/"+key+"/", "/{key}/", 1)
		p.mu.Lock()
		p.hits[u]++
		hold := p.hold
		p.mu.Unlock()
		if hold != nil {
			<-hold
		}
		up.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *countingProxy) count(u string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits[u]
}

func (p *countingProxy) total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.hits {
		n += c
	}
	return n
}

// readThroughTo is a server on an empty store that reads through to the base URL with key;
// its logs, at debug level, go to logs.
func readThroughTo(t *testing.T, base, key string, logs *testsupport.LogBuffer) *apitest.Env {
	return readThroughToWith(t, base, key, logs, nil)
}

// readThroughToWith is readThroughTo on a clock of the test's (nil: pinned). Its answers
// keep the image addresses as stored (--media-urls stored), to compare with the upstream's.
func readThroughToWith(t *testing.T, base, key string, logs *testsupport.LogBuffer, clk clock.Clock) *apitest.Env {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	stored := func(c *config.Config) { c.MediaURLs = "stored" }
	return apitest.New(t, apitest.Options{Logger: logger, Clock: clk, Configure: stored, Upstream: func(st store.Store) server.Upstream {
		f, err := mirror.NewFetcher(mirror.FetcherOptions{From: base, Key: key, Store: st, Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}})
}

// noRecords says whether a body is v1's "no result" ({"teams":null}) for the lookups these
// tests ask.
func noRecords(body []byte) bool {
	return bytes.HasSuffix(body, []byte(`":null}`)) && bytes.Count(body, []byte(`":`)) == 1
}

// ask requests a v1 file or a v2 path of env with its premium key.
func ask(t *testing.T, env *apitest.Env, version, path string) *apitest.Response {
	if version == "v1" {
		return env.V1(t, env.PremiumKey, path)
	}
	return env.V2(t, path)
}

// A request the empty store cannot answer is answered with the upstream's answer, which
// the store then keeps: the same request again asks the upstream nothing.
func TestReadThroughAnswersWhatTheStoreNeverSaw(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	p := newCountingProxy(t, up.Server, up.PremiumKey)
	var logs testsupport.LogBuffer
	local := readThroughTo(t, p.srv.URL, up.PremiumKey, &logs)
	for _, c := range []struct{ version, path, upstream string }{
		{"v1", "lookupteam.php?id=133604", "/api/v1/json/{key}/lookupteam.php?id=133604"},
		{"v1", "searchteams.php?t=Liverpool", "/api/v1/json/{key}/searchteams.php?t=Liverpool"},
		{"v2", "lookup/player/34161934", "/api/v2/json/lookup/player/34161934"},
	} {
		want := ask(t, up, c.version, c.path)
		if want.Status != http.StatusOK || noRecords(want.Body) {
			t.Fatalf("%s: the upstream answers %d %.200s", c.path, want.Status, want.Body)
		}
		for try := 1; try <= 2; try++ {
			got := ask(t, local, c.version, c.path)
			if got.Status != http.StatusOK || !bytes.Equal(got.Body, want.Body) {
				t.Errorf("%s, request %d: %d %.200s\nwant the upstream's %.200s", c.path, try, got.Status, got.Body, want.Body)
			}
			if n := p.count(c.upstream); n != 1 {
				t.Errorf("%s, request %d: the upstream was asked %d times, want once", c.path, try, n)
			}
		}
	}
	assertNoKey(t, up.PremiumKey, logs.String())
}

// Concurrent requests for one URL make one upstream request, and every one of them gets
// the upstream's answer, also when the upstream takes longer than the store's deadline. The
// requests' deadlines are on a clock of the test's, which it moves past the store's deadline
// while the upstream is held.
func TestReadThroughOneUpstreamRequestForConcurrentClients(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	p := newCountingProxy(t, up.Server, up.PremiumKey)
	p.hold = make(chan struct{})
	release := sync.OnceFunc(func() { close(p.hold) })
	defer release() // also when the test fails before the upstream may answer
	var logs testsupport.LogBuffer
	local := readThroughTo(t, p.srv.URL, up.PremiumKey, &logs)
	deadlines := server.NewDeadlineClock()
	local.Server.SetDeadlineClock(deadlines)
	const path = "lookupleague.php?id=4328"
	want := ask(t, up, "v1", path)
	const clients = 20
	answers := make(chan *apitest.Response, clients)
	storeDeadline := deadlines.Now().Add(server.DefaultRequestTimeout)
	for range clients {
		go func() { answers <- ask(t, local, "v1", path) }()
	}
	// Every client comes to wait for the answer (its own computation's or another's) with a
	// deadline past the store's, which bounds the work of a request on the store but not its
	// wait for the upstream; then the store's deadline passes, and the upstream answers.
	for waiting := 0; waiting < clients; {
		select {
		case at := <-deadlines.Armed():
			if at.After(storeDeadline) {
				waiting++
			}
		case <-time.After(wait):
			t.Fatalf("%d of %d clients came to wait for the upstream with a deadline past the store's", waiting, clients)
		}
	}
	deadlines.Advance(server.DefaultRequestTimeout + time.Second)
	release()
	for range clients {
		got := <-answers
		if got.Status != http.StatusOK || !bytes.Equal(got.Body, want.Body) {
			t.Errorf("%d %.200s\nwant the upstream's %.200s", got.Status, got.Body, want.Body)
		}
	}
	if n := p.total(); n != 1 {
		t.Errorf("the upstream was asked %d times, want once", n)
	}
}

// With the upstream down, the local answer is served as it is, and the upstream's key shows
// nowhere.
func TestReadThroughUpstreamDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	const key = "UPSTREAMSECRET42"
	var logs testsupport.LogBuffer
	local := readThroughTo(t, closed, key, &logs)
	plain := apitest.New(t, apitest.Options{})
	for _, c := range []struct{ version, path string }{
		{"v1", "lookupteam.php?id=133604"},
		{"v1", "searchteams.php?t=Liverpool"},
		{"v1", "eventsnextleague.php?id=4328"},
		{"v2", "lookup/player/34161934"},
		{"v2", "livescore/soccer"},
	} {
		got, want := ask(t, local, c.version, c.path), ask(t, plain, c.version, c.path)
		if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) {
			t.Errorf("%s: %d %.200s\nwant the local answer %d %.200s", c.path, got.Status, got.Body, want.Status, want.Body)
		}
		if got.Status >= 500 {
			t.Errorf("%s: %d", c.path, got.Status)
		}
		assertNoKey(t, key, string(got.Body))
	}
	if !strings.Contains(logs.String(), "upstream") {
		t.Errorf("the failures were not logged:\n%s", logs.String())
	}
	assertNoKey(t, key, logs.String())
}

// An empty answer cached while the upstream failed is asked again once it expires, and one
// the upstream also answers empty is not asked again while that answer is fresh.
func TestReadThroughEmptyAnswersInTheCache(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	var down atomic.Bool
	p := newCountingProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		up.Server.ServeHTTP(w, r)
	}), up.PremiumKey)
	clk := clock.NewManual(apitest.FixtureNow)
	var logs testsupport.LogBuffer
	local := readThroughToWith(t, p.srv.URL, up.PremiumKey, &logs, clk)

	const unknown = "lookupteam.php?id=999999999"
	for range 3 {
		if got := ask(t, local, "v1", unknown); got.Status != http.StatusOK || !noRecords(got.Body) {
			t.Fatalf("%s: %d %s", unknown, got.Status, got.Body)
		}
	}
	if n := p.count("/api/v1/json/{key}/" + unknown); n != 1 {
		t.Errorf("an id the upstream does not know either was asked %d times, want once", n)
	}

	const path = "lookupteam.php?id=133604"
	want := ask(t, up, "v1", path)
	down.Store(true)
	for range 2 {
		if got := ask(t, local, "v1", path); got.Status != http.StatusOK || !noRecords(got.Body) {
			t.Fatalf("upstream down: %d %s, want the local empty answer", got.Status, got.Body)
		}
	}
	down.Store(false)
	clk.Advance(time.Minute)
	// The expired entry is served while one refresh asks the upstream in the background.
	ask(t, local, "v1", path)
	local.Server.WaitRefreshes()
	if got := ask(t, local, "v1", path); got.Status != http.StatusOK || !bytes.Equal(got.Body, want.Body) {
		t.Fatalf("once the upstream was back: %d %.200s\nwant the upstream's %.200s", got.Status, got.Body, want.Body)
	}
}

func assertNoKey(t *testing.T, key, text string) {
	t.Helper()
	if strings.Contains(text, key) {
		t.Errorf("the upstream's key shows in:\n%s", text)
	}
}

// An endpoint of sportsdb's own (v2 match/event) is no upstream's: an empty answer to it is
// answered from the store, and the upstream is never asked for it.
func TestReadThroughNeverAsksForOurOwnEndpoints(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	p := newCountingProxy(t, up.Server, up.PremiumKey)
	var logs testsupport.LogBuffer
	local := readThroughTo(t, p.srv.URL, up.PremiumKey, &logs)
	got := local.V2(t, "match/event?q=Arsenal.vs.Chelsea.2024.09.15.1080p")
	if got.Status != http.StatusOK || string(got.Body) != `{"Message":"No data found"}` {
		t.Errorf("match/event on an empty store: %d %s, want no data", got.Status, got.Body)
	}
	if n := p.total(); n != 0 {
		t.Errorf("the upstream was asked %d times for an endpoint only sportsdb has", n)
	}
}
