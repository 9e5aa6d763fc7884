package integration

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/testsupport"
)

// harness is one test's view of what it started: its logs and the keys it handed out.
type harness struct {
	t    testing.TB
	logs *testsupport.LogBuffer
	keys []string
}

// newHarness checks, when the test ends, that its logs hold none of its keys and that the
// servers did log their requests (so the check saw real log lines).
func newHarness(t testing.TB) *harness {
	h := &harness{t: t, logs: newLogBuffer()}
	t.Cleanup(func() {
		logs := h.logs.String()
		for _, k := range h.keys {
			if strings.Contains(logs, k) {
				t.Errorf("a key of this test appears in the server logs")
			}
		}
		if len(h.keys) > 0 && !strings.Contains(logs, "{key}") && !t.Failed() {
			t.Errorf("no request with a key in its path was logged: the log check saw nothing")
		}
	})
	return h
}

// secret remembers a key so the log checks look for it.
func (h *harness) secret(key string) string {
	h.keys = append(h.keys, key)
	rememberSecret(key)
	return key
}

// logger is a server's logger: every level, into the test's logs.
func (h *harness) logger(name string) *slog.Logger {
	return slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})).With("replica", name)
}

// addKey stores a new key of the tier and returns it.
func (h *harness) addKey(st store.Keys, tier store.Tier) string {
	h.t.Helper()
	key := h.secret(auth.NewKey())
	err := st.AddKey(context.Background(), store.Key{Hash: auth.Hash(key), Tier: tier, Label: "integration", Created: time.Now().UTC()})
	if err != nil {
		h.t.Fatalf("add %s key: %v", tier, err)
	}
	return key
}

// replicaConfig says how an in-process replica is built.
type replicaConfig struct {
	name string
	dsn  string
	// redisURL, when set, shares limits through Redis under redisPrefix.
	redisURL    string
	redisPrefix string
	// recheck is how often an unreachable Redis is tried again (default 2 s).
	recheck time.Duration
	clock   clock.Clock
	limits  map[store.Tier]int
	// logs, when set, take the replica's logs at info level instead of the test's (benchmarks
	// format their logs and drop them).
	logs io.Writer
}

// replica is a sportsdb server listening on a loopback port, with its own store connection,
// key cache and limiter, as a separate process would have.
type replica struct {
	name    string
	url     string
	store   store.Store
	limiter server.Limiter
}

func (h *harness) startReplica(cfg replicaConfig) *replica {
	h.t.Helper()
	ctx := context.Background()
	st, err := backend.Open(ctx, cfg.dsn)
	if err != nil {
		h.t.Fatalf("replica %s: open store: %v", cfg.name, err)
	}
	h.t.Cleanup(func() { st.Close() })
	if err := auth.EnsurePublished(ctx, st); err != nil {
		h.t.Fatalf("replica %s: published keys: %v", cfg.name, err)
	}
	if cfg.clock == nil {
		cfg.clock = clock.System{}
	}
	logger, access := h.logger(cfg.name), server.NewAccessLog(h.logs, false)
	if cfg.logs != nil {
		logger = slog.New(slog.NewTextHandler(cfg.logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
		access = server.NewAccessLog(cfg.logs, false)
	}
	var limiter server.Limiter = ratelimit.NewMemory(cfg.clock)
	if cfg.redisURL != "" {
		r, err := ratelimit.NewRedis(cfg.redisURL, cfg.clock, ratelimit.RedisOptions{
			Prefix: cfg.redisPrefix, Recheck: cfg.recheck, Logger: logger})
		if err != nil {
			h.t.Fatalf("replica %s: redis limiter: %v", cfg.name, err)
		}
		h.t.Cleanup(func() { r.Close() })
		limiter = r
	}
	srv := server.New(server.Config{
		Store: st, Clock: cfg.clock, Mounts: app.Mounts(api.Deps{Store: st, Clock: cfg.clock, Caps: caps.New()}), Logger: logger, AccessLog: access, Limiter: limiter,
		Auth: auth.New(st, cfg.clock, auth.Options{}),
		// Tests poll revoked keys from one address; the guard has its own tests.
		Guard:    auth.NewFailGuard(auth.FailGuardOptions{Limit: 10000, Window: time.Minute}),
		Limits:   cfg.limits,
		CacheDir: h.t.TempDir(),
	})
	h.t.Cleanup(func() { srv.Close() })
	hs := httptest.NewUnstartedServer(srv)
	hs.Config.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	hs.Start()
	h.t.Cleanup(hs.Close)
	return &replica{name: cfg.name, url: hs.URL, store: st, limiter: limiter}
}

// answer is a response as a client sees it.
type answer struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
}

var client = &http.Client{
	Timeout:   20 * time.Second,
	Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 256, IdleConnTimeout: 30 * time.Second},
}

// get requests base+path; headers come in name, value pairs.
func get(t testing.TB, base, path string, headers ...string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatalf("request %s: %v", redact(path), err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", redact(path), err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", redact(path), err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: body, took: time.Since(start)}
}

// redact keeps keys out of test output: every key the run handed out is replaced, wherever
// the path holds it (no copy of an API's path grammar needed).
func redact(path string) string {
	run.mu.Lock()
	defer run.mu.Unlock()
	for _, k := range run.secrets {
		path = strings.ReplaceAll(path, k, "{key}")
	}
	return path
}

// v1 is the path of a v1 file with a key in it.
func v1(key, fileAndQuery string) string { return "/api/v1/json/" + key + "/" + fileAndQuery }
