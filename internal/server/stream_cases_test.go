package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// A change imported through another handle on the database file (another process) reaches
// an open stream, as the record the v2 lookup writes; a client that reconnects with the id
// of the last event it read gets every later change once, and nothing it had.
func TestStreamDeliversAndResumes(t *testing.T) {
	e := newLiveEnv(t, nil)
	other := e.secondHandle(t)
	c := openStream(t, e.base, "/api/v2/json/stream/changes?kinds=team", e.premium)
	importTeams(t, other, "1", "One", "2", "Two", "3", "Three")
	var got []sseEvent
	for range 3 {
		got = append(got, c.nextEvent(t))
	}
	for i, ev := range got {
		if ev.name != "team" || teamID(t, ev) != strconv.Itoa(i+1) || ev.id == "" {
			t.Fatalf("event %d: %+v, want team %d with an id", i, ev, i+1)
		}
		if !strings.HasPrefix(ev.data, `{"idTeam":"`+strconv.Itoa(i+1)+`","idESPN":null,`) {
			t.Errorf("event %d data %q: not the v2 lookup view", i, ev.data)
		}
	}
	c.close()

	importTeams(t, other, "3", "Three changed", "4", "Four")
	importTeams(t, other, "4", "Four") // identical: no change, no event
	resumed := openStream(t, e.base, "/api/v2/json/stream/changes?kinds=team&since=0", e.premium, "Last-Event-ID", got[1].id)
	// Team 3 changed twice after the second event: two changes, each sent as the record is now.
	for _, want := range []string{"3", "3", "4"} {
		if ev := resumed.nextEvent(t); teamID(t, ev) != want {
			t.Fatalf("after resuming: team %s (%+v), want %s", teamID(t, ev), ev, want)
		}
	}
	importTeams(t, other, "5", "Five")
	if ev := resumed.nextEvent(t); teamID(t, ev) != "5" {
		t.Fatalf("after resuming and a new import: team %s, want 5 (4 only once)", teamID(t, ev))
	}
}

// Live scores stream per sport, named livescore, in the v2 live score view.
func TestStreamLivescoreOfASport(t *testing.T) {
	e := newLiveEnv(t, nil)
	soccer := openStream(t, e.base, "/api/v2/json/"+e.premium+"/stream/livescore/soccer", "")
	every := openStream(t, e.base, "/api/v2/json/stream/livescore", e.premium)
	upsert(t, e.secondHandle(t), liveScore("10", "Basketball", "Lakers", "88"), liveScore("11", "Soccer", "Arsenal", "1"))
	if ev := soccer.nextEvent(t); ev.name != "livescore" || !strings.HasPrefix(ev.data, `{"idLiveScore":"11",`) {
		t.Fatalf("soccer stream: %+v, want live score 11", ev)
	}
	for _, want := range []string{"10", "11"} {
		if ev := every.nextEvent(t); !strings.HasPrefix(ev.data, `{"idLiveScore":"`+want+`",`) {
			t.Fatalf("every sport: %+v, want live score %s", ev, want)
		}
	}
	upsert(t, e.store, liveScore("11", "Soccer", "Arsenal", "2"))
	if ev := soccer.nextEvent(t); !strings.Contains(ev.data, `"intHomeScore":"2"`) {
		t.Fatalf("soccer stream after a goal: %+v", ev)
	}
}

// A cursor the feed does not cover starts the stream with a reset; idle streams get pings.
func TestStreamResetAndPing(t *testing.T) {
	e := newLiveEnv(t, nil)
	e.srv.SetStreamPing(20 * time.Millisecond)
	c := openStream(t, e.base, "/api/v2/json/stream/changes?since=99", e.premium)
	if ev := c.next(t); ev.name != "reset" || ev.id != "0" {
		t.Fatalf("first event %+v, want a reset to cursor 0", ev)
	}
	for ev := c.next(t); ev.comment != "ping"; ev = c.next(t) {
		t.Logf("before the ping: %+v", ev)
	}
}

// At most 5 open streams per premium key and 10 per business key; a closed one frees its
// slot. Opening counts against the rate limit.
func TestStreamLimits(t *testing.T) {
	e := newLiveEnv(t, map[store.Tier]int{store.Free: 30, store.Premium: 7, store.Business: 120})
	ended := streamEnds(e.srv)
	var open []*sseClient
	for range 5 {
		open = append(open, openStream(t, e.base, "/api/v2/json/stream/livescore", e.premium))
	}
	resp := streamRequest(t, e.base, "/api/v2/json/stream/livescore", e.premium)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || string(body) != `{"Message":"Too many open streams for this key"}` {
		t.Fatalf("sixth stream: %d %s, want 429", resp.StatusCode, body)
	}
	for range 10 {
		openStream(t, e.base, "/api/v2/json/stream/changes", e.busi)
	}
	if resp := streamRequest(t, e.base, "/api/v2/json/stream/changes", e.busi); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("eleventh business stream: %d, want 429", resp.StatusCode)
	}

	open[0].close()
	awaitStreamEnd(t, ended)
	resp = streamRequest(t, e.base, "/api/v2/json/stream/livescore", e.premium)
	status, remaining := resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining")
	resp.Body.Close()
	if status != http.StatusOK {
		t.Fatalf("a stream once one was closed: %d, want the closed stream's slot back", status)
	}
	// 5 streams and this one opened; the refused sixth was not counted.
	if remaining != "1" {
		t.Errorf("X-RateLimit-Remaining %q after six opened, want 1", remaining)
	}
	// The seventh request of the minute is the last; the eighth is over the limit.
	e.srv.ServeHTTP(httptest.NewRecorder(), mustRequest(t, "/api/v2/json/changes", e.premium))
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, mustRequest(t, "/api/v2/json/changes", e.premium))
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("request over the limit: %d, want 429", rec.Code)
	}
}

// A draining server ends its streams, so shutdown is not held up by them.
func TestStreamEndsOnDrain(t *testing.T) {
	e := newLiveEnv(t, nil)
	c := openStream(t, e.base, "/api/v2/json/stream/changes", e.premium)
	e.srv.StartDrain()
	select {
	case <-c.done:
	case <-time.After(wait):
		t.Fatal("the stream is still open after the drain began")
	}
}

func mustRequest(t *testing.T, path, key string) *http.Request {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://sportsdb.test"+path, nil)
	r.Header.Set("X-API-KEY", key)
	return r
}

// A server shutting down with streams open (ServeUntil, as serve does on SIGTERM) ends them
// and shuts down cleanly, with the server's own read and write timeouts set: shutdown is not
// held to its grace period by the streams.
func TestShutdownWithOpenStreams(t *testing.T) {
	e := newLiveEnv(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: e.srv, ConnContext: server.ConnContext, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- server.ServeUntil(ctx, hs, server.Listener(ln), e.srv, 0) }()
	base := "http://" + ln.Addr().String()
	streams := []*sseClient{
		openStream(t, base, "/api/v2/json/stream/changes", e.premium),
		openStream(t, base, "/api/v2/json/"+e.premium+"/stream/livescore", ""),
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("ServeUntil: %v, want a clean shutdown", err)
		}
	case <-time.After(2 * server.ShutdownGrace):
		t.Fatal("ServeUntil did not return")
	}
	for i, c := range streams {
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Errorf("stream %d still open after shutdown", i)
		}
	}
}

// A stream outlives the server's read and write timeouts (serve's), also when opening it took
// longer than the write timeout (a slow key lookup or database). The connections' deadlines
// follow a manual clock, which the test moves past both: no sleep decides the outcome.
func TestStreamOutlivesServerTimeouts(t *testing.T) {
	const readTimeout, writeTimeout = 10 * time.Second, 30 * time.Second
	for _, opening := range []time.Duration{0, writeTimeout + time.Second} {
		t.Run("opening took "+opening.String(), func(t *testing.T) {
			limiter := &slowLimiter{Limiter: ratelimit.NewMemory(clock.System{})}
			e := newLiveEnvWith(t, apitest.Options{Limiter: limiter})
			hs := httptest.NewUnstartedServer(e.srv)
			ln := newClockedListener(hs.Listener)
			hs.Listener = server.Listener(ln)
			hs.Config.ConnContext = server.ConnContext
			hs.Config.ReadTimeout, hs.Config.WriteTimeout = readTimeout, writeTimeout
			hs.Start()
			t.Cleanup(hs.Close) // after the stream's client has closed (cleanups run last first)
			limiter.took = func() { ln.advance(opening) }
			c := openStream(t, hs.URL, "/api/v2/json/stream/changes", e.premium)
			ln.advance(time.Minute) // past both timeouts
			upsert(t, e.store, team("1", "One"))
			if ev := c.nextEvent(t); ev.name != "team" {
				t.Fatalf("after the timeouts: %+v, want the team", ev)
			}
		})
	}
}

// slowLimiter is a limiter whose decisions take a while: took, if set, runs in each.
type slowLimiter struct {
	server.Limiter
	took func()
}

func (l *slowLimiter) Allow(ctx context.Context, id string, limit int) (ratelimit.Decision, error) {
	if l.took != nil {
		l.took()
	}
	return l.Limiter.Allow(ctx, id, limit)
}
