package integration

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/testsupport"
)

// Issue 6: two `sportsdb serve` processes on one PostgreSQL and one Redis give the same
// answer to every request and hold one key to one shared limit.
func TestReplicasOnPostgresAndRedis(t *testing.T) {
	pg := freshPostgres(t)
	redisURL := testsupport.Env(t, "SPORTSDB_TEST_REDIS")
	h := newHarness(t)
	pinned := "SPORTSDB_NOW=" + demoNow.Format(time.RFC3339)
	h.cli([]string{pinned}, "gen", "--scale", "demo", "--seed", "1", "--db", pg)
	business := h.secret(strings.TrimSpace(h.cli(nil, "keys", "add", "--tier", "business", "--db", pg)))
	premium := h.secret(strings.TrimSpace(h.cli(nil, "keys", "add", "--tier", "premium", "--db", pg)))
	// The binary keeps its default Redis prefix; these keys' windows are removed afterwards.
	for _, k := range []string{business, premium} {
		t.Cleanup(func() { deleteRedisKeys(t, redisURL, "sportsdb:ratelimit:"+auth.Hash(k)) })
	}

	// Business keys get a roomy limit so the comparison is not cut short; premium keeps 100.
	// Replicas behind one address name its pictures there (--public-url), as the docs say to
	// run them: each would otherwise name the address it was asked on.
	env := []string{pinned, "SPORTSDB_DB=" + pg, "SPORTSDB_REDIS=" + redisURL,
		"SPORTSDB_LIMITS=free:30,premium:100,business:100000", "SPORTSDB_PUBLIC_URL=https://sports.example"}
	var both []*replica
	for _, name := range []string{"a", "b"} {
		c := h.serve(env, "--log-level", "debug")
		both = append(both, &replica{name: name, url: c.url})
	}
	for _, r := range both {
		rd := ready(t, r.url)
		if rd.code != http.StatusOK || rd.Database != "ok" || !strings.Contains(rd.RateLimit, "shared") {
			t.Fatalf("replica %s /readyz %d %+v, want ready with limits shared", r.name, rd.code, rd)
		}
	}

	st, err := postgres.Open(context.Background(), pg)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	reqs := endpointRequests(t, st)
	st.Close()
	c := compareServers(t, reqs, both[0].url, both[1].url, []string{business}, business)
	t.Logf("%d requests to each replica, %d answers with records", c.requests, c.withData)
	if c.withData < c.requests*3/4 {
		t.Errorf("only %d of %d answers hold records: %v", c.withData, c.requests, c.empty)
	}

	if n := race(t, both, premium, true, 100, 200); n != 100 {
		t.Errorf("admitted %d of 200 racing requests over both replicas, want exactly 100", n)
	}
	for _, r := range both {
		checkRefused(t, get(t, r.url, v1(premium, "all_sports.php")), 100, "after the race on "+r.name)
	}
}
