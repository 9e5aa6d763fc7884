package integration

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/gen"
	"sportsdb/internal/store"
	"sportsdb/internal/store/postgres"
)

// demoPostgres fills a new PostgreSQL database with the demo dataset and returns its URL.
func demoPostgres(t *testing.T) string {
	t.Helper()
	dsn := freshPostgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	defer st.Close()
	if _, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: demoNow}); err != nil {
		t.Fatalf("demo data: %v", err)
	}
	return dsn
}

// checkUnavailable asserts the documented 503 within the bound: requests must not hang
// while the database does not answer.
func checkUnavailable(t *testing.T, a answer, where string) {
	t.Helper()
	if a.status != http.StatusServiceUnavailable || string(a.body) != `{"Message":"Service unavailable"}` {
		t.Errorf("%s: %d %.200s, want 503 {\"Message\":\"Service unavailable\"}", where, a.status, a.body)
	}
	if a.header.Get("Content-Type") != "application/json" || a.header.Get("Retry-After") == "" {
		t.Errorf("%s: Content-Type %q Retry-After %q, want JSON with a Retry-After", where, a.header.Get("Content-Type"), a.header.Get("Retry-After"))
	}
	if a.took > 2*time.Second {
		t.Errorf("%s: answered after %s, want within 2 s", where, a.took)
	}
}

// Issue 6: PostgreSQL stopped (connections refused) or hung (connections accepted, never
// answered) under a running server: requests get a JSON 503 within 2 s, /readyz says the
// database is unavailable, and the server answers normally again within 5 s of the database
// coming back, by itself.
func TestPostgresOutage(t *testing.T) {
	dsn := demoPostgres(t)
	h := newHarness(t)
	px := startProxy(t, hostPort(t, dsn, "5432"))
	srv := h.startReplica(replicaConfig{name: "pg", dsn: withHost(t, dsn, px.addr), limits: roomy})
	key := h.addKey(srv.store, store.Premium)
	warm := v1(key, "all_sports.php")
	before := get(t, srv.url, warm)
	if before.status != http.StatusOK || !hasData(before.body) {
		t.Fatalf("before the outage: %d %.200s", before.status, before.body)
	}
	fresh := 0 // ids of URLs not asked before, so no answer can come from the response cache
	for _, mode := range []struct {
		name   string
		m      proxyMode
		rounds int // a hung database costs the full timeout per request
	}{{"stopped", refuse, 3}, {"hung", stall, 1}} {
		t.Run(mode.name, func(t *testing.T) {
			px.set(mode.m)
			cut := time.Now()
			var slowest time.Duration
			for i := range mode.rounds {
				fresh++
				for _, a := range []answer{
					get(t, srv.url, v1(key, "lookupteam.php?id="+itoa(133600+fresh))),
					get(t, srv.url, "/api/v2/json/lookup/league/"+itoa(4300+fresh), "X-API-KEY", key),
					get(t, srv.url, warm),
				} {
					checkUnavailable(t, a, "round "+itoa(i))
					slowest = max(slowest, a.took)
				}
			}
			rd := ready(t, srv.url)
			if rd.code != http.StatusServiceUnavailable || rd.Database != "unavailable" || rd.Status != "unavailable" {
				t.Errorf("database %s: /readyz %d %+v, want 503 with the database unavailable", mode.name, rd.code, rd)
			}
			t.Logf("database %s for %s; slowest 503 took %s", mode.name, time.Since(cut).Round(time.Millisecond), slowest.Round(time.Millisecond))

			px.set(forward)
			back := time.Now()
			eventually(t, 5*time.Second, "answering again after the database came back", func() bool {
				return get(t, srv.url, warm).status == http.StatusOK
			})
			t.Logf("answering again %s after the database came back", time.Since(back).Round(time.Millisecond))
			if after := get(t, srv.url, warm); after.status != http.StatusOK || !bytes.Equal(after.body, before.body) {
				t.Errorf("after the outage: %d, body changed: %.200s", after.status, after.body)
			}
			if a := get(t, srv.url, v1(key, "lookupteam.php?id="+itoa(133600+fresh))); a.status != http.StatusOK {
				t.Errorf("after the outage, a URL that failed: %d %.200s", a.status, a.body)
			}
			if rd := ready(t, srv.url); rd.code != http.StatusOK || rd.Database != "ok" {
				t.Errorf("after the outage: /readyz %d %+v", rd.code, rd)
			}
		})
	}
	checkFailuresNamed(t, h.logs.String())
	if strings.Contains(run.defaultLogs.String(), "request failed") {
		t.Errorf("failed requests were logged through slog.Default, not the server's logger")
	}
}

// checkFailuresNamed asserts that failed requests were logged through the server's logger,
// each naming the operation that failed, never a bare "context deadline exceeded".
func checkFailuresNamed(t *testing.T, logs string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, `msg="request failed"`) {
			continue
		}
		n++
		_, err, _ := strings.Cut(line, " err=")
		err = strings.Trim(err, `"`)
		if op, _, _ := strings.Cut(err, ": "); op == "" || strings.HasPrefix(op, "context ") || op == err {
			t.Errorf("a failure logged without its operation: %s", line)
		}
	}
	if n == 0 {
		t.Errorf("the failed requests were not logged")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
