package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"log/slog"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/apitest"
	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ingest"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// wait is how long a test waits for something that should come at once.
const wait = 15 * time.Second

// sseEvent is one event or comment read from a stream.
type sseEvent struct {
	id, name, data, comment string
}

// sseClient reads a stream in the background.
type sseClient struct {
	resp   *http.Response
	events chan sseEvent
	done   chan struct{} // closed when the stream ended
}

// openStream opens path on base with the key in X-API-KEY (unless empty) and headers in
// name, value pairs; it fails the test unless the answer is a 200 event stream.
func openStream(t *testing.T, base, path, key string, headers ...string) *sseClient {
	t.Helper()
	resp := streamRequest(t, base, path, key, headers...)
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	for h, want := range map[string]string{"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	c := &sseClient{resp: resp, events: make(chan sseEvent, 1000), done: make(chan struct{})}
	go c.read()
	t.Cleanup(c.close)
	c.next(t) // the retry line: the stream is open
	return c
}

func streamRequest(t *testing.T, base, path, key string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func (c *sseClient) read() {
	defer close(c.done)
	r := bufio.NewReader(c.resp.Body)
	var ev sseEvent
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			c.events <- ev
			ev = sseEvent{}
		case strings.HasPrefix(line, ":"):
			ev.comment = strings.TrimSpace(line[1:])
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				ev.id = value
			case "event":
				ev.name = value
			case "data":
				ev.data = value
			}
		}
	}
}

func (c *sseClient) close() { c.resp.Body.Close() }

// next returns the next event or comment block.
func (c *sseClient) next(t *testing.T) sseEvent {
	t.Helper()
	select {
	case ev := <-c.events:
		return ev
	case <-c.done:
		t.Fatal("the stream ended")
	case <-time.After(wait):
		t.Fatal("no event came")
	}
	return sseEvent{}
}

// nextEvent skips comments and returns the next named event.
func (c *sseClient) nextEvent(t *testing.T) sseEvent {
	t.Helper()
	for {
		if ev := c.next(t); ev.name != "" {
			return ev
		}
	}
}

// streamEnds reports each stream of srv that has ended on the server and given its slot back.
func streamEnds(srv *server.Server) <-chan struct{} {
	ended := make(chan struct{}, 64)
	srv.OnStreamEnd(func() {
		select {
		case ended <- struct{}{}:
		default: // streams the test does not wait for, ending with it
		}
	})
	return ended
}

// awaitStreamEnd waits for a stream to end on the server, as reported by streamEnds.
func awaitStreamEnd(t *testing.T, ended <-chan struct{}) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(wait):
		t.Fatal("the closed stream never ended on the server")
	}
}

// liveEnv is a server on its own database (SQLite, or PostgreSQL with
// SPORTSDB_TEST_API_DB=postgres, as internal/apitest chooses), served over real HTTP, with a
// premium and a business key.
type liveEnv struct {
	srv           *server.Server
	store         store.Store
	env           *apitest.Env
	base          string
	premium, busi string
}

// newLiveEnv builds a liveEnv with the requests per minute of each tier (nil: the public
// service's) counted in memory.
func newLiveEnv(t *testing.T, limits map[store.Tier]int) *liveEnv {
	t.Helper()
	return newLiveEnvWith(t, apitest.Options{Limits: limits, Limiter: ratelimit.NewMemory(clock.System{})})
}

// newLiveEnvWith builds a liveEnv from opts, on the system's clock.
func newLiveEnvWith(t *testing.T, opts apitest.Options) *liveEnv {
	t.Helper()
	opts.Clock = clock.System{}
	env := apitest.New(t, opts)
	e := &liveEnv{srv: env.Server, store: env.Store, env: env, premium: env.PremiumKey, busi: env.BusinessKey}
	e.srv.SetStreamPing(time.Hour)
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	e.base = hs.URL
	return e
}

// serveStore builds a server on st with a new premium and business key.
func serveStore(t *testing.T, st store.Store, limits map[store.Tier]int) (*server.Server, string, string) {
	t.Helper()
	return serveStoreWith(t, st, limits, ratelimit.NewMemory(clock.System{}))
}

// serveStoreWith is serveStore with requests counted by limiter.
func serveStoreWith(t *testing.T, st store.Store, limits map[store.Tier]int, limiter server.Limiter) (*server.Server, string, string) {
	t.Helper()
	return serveStoreKeys(t, st, limits, limiter, clock.System{})
}

// serveStoreKeys is serveStoreWith with keys looked up on keyClock.
func serveStoreKeys(t *testing.T, st store.Store, limits map[store.Tier]int, limiter server.Limiter, keyClock clock.Clock) (*server.Server, string, string) {
	t.Helper()
	ctx := context.Background()
	if err := auth.EnsurePublished(ctx, st); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, tier := range []store.Tier{store.Premium, store.Business} {
		k := auth.NewKey()
		if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(k), Tier: tier, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	srv := server.New(server.Config{
		Store: st, Clock: clock.System{}, Mounts: app.Mounts(api.Deps{Store: st, Clock: clock.System{}, Caps: caps.New()}), Limits: limits,
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Auth:     auth.New(st, keyClock, auth.Options{}),
		Guard:    auth.NewFailGuard(auth.FailGuardOptions{Limit: 20, Window: time.Minute}),
		Limiter:  limiter,
		CacheDir: t.TempDir(),
	})
	t.Cleanup(func() { srv.Close() })
	return srv, keys[0], keys[1]
}

// secondHandle opens the server's database again, as an import by another process does.
func (e *liveEnv) secondHandle(t *testing.T) store.Store {
	t.Helper()
	return e.env.Reopen(t)
}

// importTeams imports a v1 teams body through ingest, as `sportsdb import` does.
func importTeams(t *testing.T, st store.Store, teams ...string) {
	t.Helper()
	var recs []map[string]string
	for i := 0; i+1 < len(teams); i += 2 {
		recs = append(recs, map[string]string{"idTeam": teams[i], "strTeam": teams[i+1], "strSport": "Soccer"})
	}
	b, _ := json.Marshal(map[string]any{"teams": recs})
	file := filepath.Join(t.TempDir(), "teams.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(context.Background(), st, []string{file}, ingest.Options{}); err != nil {
		t.Fatalf("import: %v", err)
	}
}

func upsert(t *testing.T, st store.Store, recs ...record.Record) {
	t.Helper()
	ctx := context.Background()
	err := st.Write(ctx, func(tx store.Tx) error {
		for _, r := range recs {
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func liveScore(id, sport, home string, score string) record.Record {
	r := record.LiveScore.NewRecord()
	r.Set("idLiveScore", record.Str(id))
	r.Set("strSport", record.Str(sport))
	r.Set("strHomeTeam", record.Str(home))
	r.Set("intHomeScore", record.Str(score))
	return r
}

// teamID is the idTeam of a team event's data.
func teamID(t *testing.T, ev sseEvent) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(ev.data), &v); err != nil {
		t.Fatalf("event data %q: %v", ev.data, err)
	}
	id, _ := v["idTeam"].(string)
	return id
}
