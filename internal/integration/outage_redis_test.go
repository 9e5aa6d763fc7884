package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/testsupport"
)

// readiness is the /readyz body.
type readiness struct {
	Status    string `json:"status"`
	Database  string `json:"database"`
	RateLimit string `json:"ratelimit"`
	code      int
}

func ready(t *testing.T, base string) readiness {
	t.Helper()
	a := get(t, base, "/readyz")
	var r readiness
	if err := json.Unmarshal(a.body, &r); err != nil {
		t.Fatalf("/readyz: not JSON (%v): %.200s", err, a.body)
	}
	r.code = a.status
	return r
}

// eventually polls check every 100ms until it holds or within has passed, and returns how
// long it took.
func eventually(t *testing.T, within time.Duration, what string, check func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !check() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}

// admittedUntilRefused sends requests of key to srv until one is refused (at most limit+1) and returns
// how many were admitted; the refusal must be the documented 429.
func admittedUntilRefused(t *testing.T, srv *replica, key string, limit int) int {
	t.Helper()
	for i := range limit + 1 {
		a := get(t, srv.url, v1(key, "all_sports.php"))
		if a.status == http.StatusTooManyRequests {
			checkRefused(t, a, limit, fmt.Sprintf("%s after %d requests", srv.name, i))
			return i
		}
		if a.status != http.StatusOK {
			t.Fatalf("%s: request %d: status %d, want 200; body %.200s", srv.name, i+1, a.status, a.body)
		}
	}
	return limit + 1
}

// Issue 5: Redis going away under running servers: they keep serving with per-replica limits,
// /readyz says so, and once Redis is back they share one limit again by themselves.
func TestRedisOutage(t *testing.T) {
	redisURL := testsupport.Env(t, "SPORTSDB_TEST_REDIS")
	h := newHarness(t)
	dsn := demoSQLite(t)
	px := startProxy(t, hostPort(t, redisURL, "6379"))
	viaProxy := withHost(t, redisURL, px.addr)
	prefix := redisPrefix(t, redisURL)
	cfg := replicaConfig{dsn: dsn, redisURL: viaProxy, redisPrefix: prefix, recheck: 200 * time.Millisecond}
	cfg.name = "a"
	a := h.startReplica(cfg)
	cfg.name = "b"
	b := h.startReplica(cfg)
	both := []*replica{a, b}
	for _, r := range both {
		if rd := ready(t, r.url); rd.code != http.StatusOK || !strings.Contains(rd.RateLimit, "shared") {
			t.Fatalf("before the outage: %s /readyz %d %+v, want limits shared", r.name, rd.code, rd)
		}
	}

	if n := race(t, both, h.addKey(a.store, "free"), false, 30, 60); n != 30 {
		t.Fatalf("before the outage: admitted %d of 60, want 30 shared", n)
	}

	modes := []struct {
		name string
		m    proxyMode
	}{{"stopped", refuse}, {"hung", stall}}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) { redisDownAndBack(t, h, px, both, mode.m) })
	}
	logs := h.logs.String()
	if want := len(modes) * len(both); strings.Count(logs, "Redis unreachable") != want || strings.Count(logs, "Redis reachable again") != want {
		t.Errorf("want one down and one back message per replica and outage in the logs")
	}
}

// redisDownAndBack cuts Redis off both replicas: each must go on serving with a limit of its
// own and say so on /readyz, then share one limit again once Redis is back.
func redisDownAndBack(t *testing.T, h *harness, px *proxy, both []*replica, mode proxyMode) {
	px.set(mode)
	perReplica := h.addKey(both[0].store, "free")
	for _, r := range both {
		// The first request after the cut finds Redis gone; it must still be served, soon.
		first := get(t, r.url, v1(perReplica, "all_countries.php"))
		if first.status != http.StatusOK || first.took > 2*time.Second {
			t.Errorf("Redis down: %s answered %d after %s, want 200 without waiting on Redis", r.name, first.status, first.took)
		}
		if n := admittedUntilRefused(t, r, perReplica, 30); n != 29 {
			t.Errorf("Redis down: %s admitted %d more requests of a new key, want the rest of its own 30", r.name, n)
		}
		rd := ready(t, r.url)
		if rd.code != http.StatusOK || rd.Database != "ok" || !strings.Contains(rd.RateLimit, "unreachable") {
			t.Errorf("Redis down: %s /readyz %d %+v, want 200 with the rate limit reported unreachable", r.name, rd.code, rd)
		}
	}

	px.set(forward)
	for _, r := range both {
		took := eventually(t, 10*time.Second, r.name+" back on Redis", func() bool {
			return strings.Contains(ready(t, r.url).RateLimit, "shared")
		})
		t.Logf("%s shares limits again %s after Redis came back", r.name, took.Round(time.Millisecond))
	}
	alternate(t, both, h.addKey(both[1].store, "free"), false, 30)
}
