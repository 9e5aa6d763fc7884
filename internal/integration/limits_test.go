package integration

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sportsdb/internal/testsupport"
)

// tooMany is the documented body of a refused request.
func tooMany(limit int) string {
	return fmt.Sprintf(`{"message":"Rate limit exceeded. Please keep below %d requests per 1 minute.","error":429}`, limit)
}

// checkRefused asserts the documented 429: body, Retry-After within the window, and the rate
// limit fields saying nothing remains.
func checkRefused(t *testing.T, a answer, limit int, where string) {
	t.Helper()
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("%s: status %d, want 429; body %.200s", where, a.status, a.body)
	}
	if string(a.body) != tooMany(limit) {
		t.Errorf("%s: 429 body %s, want %s", where, a.body, tooMany(limit))
	}
	if ra, err := strconv.Atoi(a.header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Errorf("%s: Retry-After %q, want whole seconds in 1..60", where, a.header.Get("Retry-After"))
	}
	if a.header.Get("X-RateLimit-Limit") != strconv.Itoa(limit) || a.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("%s: X-RateLimit-Limit %q Remaining %q, want %d and 0", where,
			a.header.Get("X-RateLimit-Limit"), a.header.Get("X-RateLimit-Remaining"), limit)
	}
	if a.header.Get("Content-Type") != "application/json" {
		t.Errorf("%s: Content-Type %q", where, a.header.Get("Content-Type"))
	}
}

// keyedPaths are the ways one key reaches the API, v1 and v2 mixed. Free keys use v1 and the
// v2 alias of a v1 file; premium keys also v2 proper, with the key in the header or the path.
func keyedPaths(key string, premium bool) [][]string {
	out := [][]string{
		{v1(key, "all_sports.php")},
		{"/api/v2/json/" + key + "/all_countries.php"},
		{v1(key, "lookupleague.php?id=4328")},
	}
	if premium {
		out = append(out,
			[]string{"/api/v2/json/all/sports", "X-API-KEY", key},
			[]string{"/api/v2/json/" + key + "/all/leagues"},
			[]string{"/api/v2/json/all_sports.php", "X-API-KEY", key})
	}
	return out
}

// alternate sends requests in turn to each server and through each path, and checks that
// exactly limit are admitted in total, with X-RateLimit-Remaining counting down across the
// servers, and that the next request on every server is refused.
func alternate(t *testing.T, servers []*replica, key string, premium bool, limit int) {
	t.Helper()
	paths := keyedPaths(key, premium)
	for i := range limit {
		srv, p := servers[i%len(servers)], paths[i%len(paths)]
		a := get(t, srv.url, p[0], p[1:]...)
		where := fmt.Sprintf("request %d on %s (%s)", i+1, srv.name, redact(p[0]))
		if a.status != http.StatusOK {
			t.Fatalf("%s: status %d, want 200; body %.200s", where, a.status, a.body)
		}
		if got, want := a.header.Get("X-RateLimit-Remaining"), strconv.Itoa(limit-i-1); got != want {
			t.Errorf("%s: X-RateLimit-Remaining %s, want %s (one count across servers)", where, got, want)
		}
	}
	for _, srv := range servers {
		for j, p := range paths {
			checkRefused(t, get(t, srv.url, p[0], p[1:]...), limit, fmt.Sprintf("past the limit on %s, path %d", srv.name, j))
		}
	}
}

// race sends n requests at once, spread over the servers and paths, and returns how many were
// admitted; every refusal must be the documented 429.
func race(t *testing.T, servers []*replica, key string, premium bool, limit, n int) int {
	t.Helper()
	paths := keyedPaths(key, premium)
	answers := make([]answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			p := paths[i%len(paths)]
			answers[i] = get(t, servers[i%len(servers)].url, p[0], p[1:]...)
		}()
	}
	close(start)
	wg.Wait()
	admitted := 0
	for i, a := range answers {
		switch a.status {
		case http.StatusOK:
			admitted++
		default:
			checkRefused(t, a, limit, fmt.Sprintf("racing request %d", i))
		}
	}
	return admitted
}

// Issue 5: two servers on one Redis admit exactly the tier's limit per key in total, counted
// across v1 and v2, whether requests alternate between them or race.
func TestSharedLimitAcrossReplicas(t *testing.T) {
	redisURL := testsupport.Env(t, "SPORTSDB_TEST_REDIS")
	h := newHarness(t)
	dsn := demoSQLite(t)
	prefix := redisPrefix(t, redisURL)
	a := h.startReplica(replicaConfig{name: "a", dsn: dsn, redisURL: redisURL, redisPrefix: prefix})
	b := h.startReplica(replicaConfig{name: "b", dsn: dsn, redisURL: redisURL, redisPrefix: prefix})
	both := []*replica{a, b}
	for _, r := range both {
		if ok, detail := r.limiter.Healthy(); !ok || !strings.Contains(detail, "shared") {
			t.Fatalf("replica %s does not share limits through Redis: %s", r.name, detail)
		}
	}
	t.Run("free alternating", func(t *testing.T) { alternate(t, both, h.addKey(a.store, "free"), false, 30) })
	t.Run("premium alternating", func(t *testing.T) { alternate(t, both, h.addKey(a.store, "premium"), true, 100) })
	t.Run("free racing", func(t *testing.T) {
		if n := race(t, both, h.addKey(a.store, "free"), false, 30, 80); n != 30 {
			t.Errorf("admitted %d of 80 racing requests, want exactly 30", n)
		}
	})
	t.Run("premium racing", func(t *testing.T) {
		if n := race(t, both, h.addKey(b.store, "premium"), true, 100, 200); n != 100 {
			t.Errorf("admitted %d of 200 racing requests, want exactly 100", n)
		}
	})
}
