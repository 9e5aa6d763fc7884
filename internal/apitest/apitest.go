// Package apitest runs API requests through the real server (routing, keys, rate limits,
// cache) on a real database, for the tests of the v1 and v2 packages.
//
// The database is a fresh SQLite file per test. With SPORTSDB_TEST_API_DB=postgres the same
// tests run on PostgreSQL instead (at SPORTSDB_TEST_POSTGRES, in a schema of their own).
package apitest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/gen"
	"sportsdb/internal/ingest"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// FixtureNow is when the recorded responses were taken; tests pin the clock to it.
var FixtureNow = time.Date(2026, 10, 5, 20, 5, 0, 0, time.UTC)

// Import is a file to load, with the request it answered ("" when none).
type Import struct {
	Path string
	URL  string
}

// Options shape a test environment.
type Options struct {
	Imports []Import
	// Demo fills the demo dataset (seed 1) before the imports.
	Demo bool
	// Now pins the clock; zero means FixtureNow.
	Now time.Time
	// Clock, if set, is the server's clock instead of one pinned at Now (a clock.Manual, to
	// move time in a test); the data is generated at its time.
	Clock clock.Clock
	// CapsFile overrides caps as an operator's caps file would.
	CapsFile string
	// Limiter counts requests; nil admits every request, so API tests are not shaped by limits.
	Limiter server.Limiter
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
	// AccessLog, if set, writes the request lines instead of Logger.
	AccessLog *server.AccessLog
	// Limits are the requests per minute of each tier (nil: the public service's).
	Limits map[store.Tier]int
	// KeyFails is the number of failed key checks per address and minute (default 1000).
	KeyFails int
	// Upstream, if set, makes the server's read-through on the environment's store.
	Upstream func(store.Store) server.Upstream
	// Compat is serve's --compat ("" is its default, strict).
	Compat string
	// Configure, if set, changes serve's settings before the server is built.
	Configure func(*config.Config)
}

// Env is a running server on its own database.
type Env struct {
	Server      *server.Server
	Store       store.Store
	Clock       clock.Clock
	FreeKey     string
	PremiumKey  string
	BusinessKey string
	dsn         string // of the database, to open it again
	// cfg and deps are what the server was built from, to build a replica.
	cfg  *config.Config
	deps app.Deps
}

// New builds an environment; everything is closed when the test ends.
func New(t testing.TB, opts Options) *Env {
	t.Helper()
	ctx := context.Background()
	now := opts.Now
	if now.IsZero() {
		now = FixtureNow
	}
	var clk clock.Clock = clock.Fixed(now)
	if opts.Clock != nil {
		clk, now = opts.Clock, opts.Clock.Now()
	}
	st, dsn := openStore(t)
	if err := auth.EnsurePublished(ctx, st); err != nil {
		t.Fatalf("published keys: %v", err)
	}
	if opts.Demo {
		if _, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: now}); err != nil {
			t.Fatalf("demo data: %v", err)
		}
	}
	for _, im := range opts.Imports {
		// A recorded "No data found" holds no records: nothing to load, and no failure.
		_, err := ingest.Import(ctx, st, []string{im.Path}, ingest.Options{SourceURL: im.URL})
		if err != nil && !errors.Is(err, ingest.ErrNoRecords) {
			t.Fatalf("import %s: %v", im.Path, err)
		}
	}
	env := &Env{Store: st, Clock: clk, FreeKey: "123", dsn: dsn}
	env.PremiumKey = addKey(t, st, store.Premium, now)
	env.BusinessKey = addKey(t, st, store.Business, now)
	if opts.Limiter == nil {
		opts.Limiter = unlimited{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.KeyFails == 0 {
		opts.KeyFails = 1000
	}
	cfg := config.Defaults()
	cfg.KeyFails, cfg.Limits, cfg.Caps, cfg.CacheDir = opts.KeyFails, opts.Limits, opts.CapsFile, t.TempDir()
	if opts.Compat != "" {
		cfg.Compat = opts.Compat
	}
	if opts.Configure != nil {
		opts.Configure(cfg)
	}
	prepared, err := app.Prepare(cfg)
	if err != nil {
		t.Fatalf("configuration: %v", err)
	}
	deps := app.Deps{Store: st, Clock: clk, Limiter: opts.Limiter, Logger: opts.Logger, AccessLog: opts.AccessLog}
	if opts.Upstream != nil {
		deps.Upstream = opts.Upstream(st)
	}
	env.Server = prepared.Server(deps)
	env.cfg, env.deps = cfg, deps
	t.Cleanup(func() { env.Server.Close() })
	return env
}

// Replica is another server on the environment's database, with a connection of its own,
// as a second replica behind a load balancer: same keys, same clock.
func (e *Env) Replica(t testing.TB) *Env {
	t.Helper()
	prepared, err := app.Prepare(e.cfg)
	if err != nil {
		t.Fatalf("configuration: %v", err)
	}
	r := *e
	r.Store = reopen(t, e.dsn)
	r.deps.Store = r.Store
	r.Server = prepared.Server(r.deps)
	t.Cleanup(func() { r.Server.Close() })
	return &r
}

func addKey(t testing.TB, st store.Store, tier store.Tier, now time.Time) string {
	t.Helper()
	return addRoleKey(t, st, tier, store.NoRole, now)
}

func addRoleKey(t testing.TB, st store.Store, tier store.Tier, role store.Role, now time.Time) string {
	t.Helper()
	key := auth.NewKey()
	if err := st.AddKey(context.Background(), store.Key{Hash: auth.Hash(key), Tier: tier, Role: role, Label: "test", Created: now}); err != nil {
		t.Fatalf("add %s key: %v", tier, err)
	}
	return key
}

// AddKey stores a new key of the tier and role and returns it.
func (e *Env) AddKey(t testing.TB, tier store.Tier, role store.Role) string {
	t.Helper()
	return addRoleKey(t, e.Store, tier, role, e.Clock.Now())
}

// Response is an answer as a client sees it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Get requests path (with its query) through the server; headers come in name, value pairs.
func (e *Env) Get(t testing.TB, path string, headers ...string) *Response {
	t.Helper()
	return e.Do(t, http.MethodGet, path, headers...)
}

// Do sends a request of any method, as Get does.
func (e *Env) Do(t testing.TB, method, path string, headers ...string) *Response {
	t.Helper()
	return e.Send(t, method, path, nil, headers...)
}

// Send sends a request of any method with a body (nil: none), as Get does.
func (e *Env) Send(t testing.TB, method, path string, body io.Reader, headers ...string) *Response {
	t.Helper()
	req := httptest.NewRequest(method, "http://sportsdb.test/", body)
	// Set the raw path as a client would send it, without Go's URL cleaning.
	p, q, _ := strings.Cut(path, "?")
	req.URL.RawQuery = q
	req.URL.Path, req.URL.RawPath = unescapePath(p), p
	req.RequestURI = path
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" { // what net/http reads into Request.Host
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	return &Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// V1 requests a v1 file with a key: V1(t, key, "searchteams.php?t=Arsenal").
func (e *Env) V1(t testing.TB, key, fileAndQuery string) *Response {
	t.Helper()
	return e.Get(t, "/api/v1/json/"+key+"/"+fileAndQuery)
}

// V2 requests a v2 path with the premium key in X-API-KEY: V2(t, "search/team/Arsenal").
func (e *Env) V2(t testing.TB, path string) *Response {
	t.Helper()
	return e.Get(t, "/api/v2/json/"+path, "X-API-KEY", e.PremiumKey)
}

// Decode parses the body as JSON (numbers kept as json.Number).
func (r *Response) Decode(t testing.TB) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(r.Body)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("body is not JSON (%v): %.300s", err, r.Body)
	}
	return v
}

// unlimited admits every request, so API tests are not shaped by rate limits.
type unlimited struct{}

func (unlimited) Allow(context.Context, string, int) (ratelimit.Decision, error) {
	return ratelimit.Decision{Allowed: true, Limit: 1 << 30, Remaining: 1 << 30}, nil
}
func (unlimited) Healthy() (bool, string) { return true, "unlimited (tests)" }

// Fixture is one recorded response of the public service (testdata/recorded/urls.tsv).
type Fixture struct {
	Set, Name, PathQuery, Auth string
	// File is the body's path; URL is PathQuery with {key} left in place.
	File string
}

// FixturesDir is testdata/recorded at the repository root: the recorded responses live in
// the repository, so a clone alone passes its tests.
func FixturesDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod) not found")
		}
		dir = parent
	}
	fx := filepath.Join(dir, "testdata", "recorded")
	if _, err := os.Stat(fx); err != nil {
		t.Fatalf("recorded responses not found: %v", err)
	}
	return fx
}

// Fixtures lists the recorded responses of one set ("v1-free" or "v2").
func Fixtures(t testing.TB, set string) []Fixture {
	t.Helper()
	dir := FixturesDir(t)
	f, err := os.Open(filepath.Join(dir, "urls.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Fixture
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 4 || cols[0] != set {
			continue
		}
		out = append(out, Fixture{Set: cols[0], Name: cols[1], PathQuery: cols[2], Auth: cols[3],
			File: filepath.Join(dir, cols[0], cols[1]+".json")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures of set %s", set)
	}
	return out
}
