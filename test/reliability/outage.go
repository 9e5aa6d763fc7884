package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// unavailableWithin is how soon a request must be answered while PostgreSQL hangs: the
// server bounds store work at 1.8 s and answers 503.
const unavailableWithin = 2500 * time.Millisecond

// checkPostgresHang serves from PostgreSQL through the suite's proxy, makes PostgreSQL hang,
// then go away, and brings it back each time: requests get 503 in about 2 s (never a hang,
// never another 5xx), and answers come back once PostgreSQL does.
func checkPostgresHang(ctx context.Context, cfg *config, t *T) {
	fx, drop, err := pgFixture(ctx, cfg)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer drop()
	px, viaDSN, err := proxied(fx.db)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer px.close()
	srv, err := startServer(ctx, cfg, "pg-hang", "--db", viaDSN)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	outage := 6 * time.Second
	if !cfg.short {
		outage = 30 * time.Second
	}
	for _, m := range []proxyMode{hang, cut} {
		name := map[proxyMode]string{hang: "hang", cut: "cut"}[m]
		px.set(m)
		worst, n503, n := probeOutage(ctx, t, srv, fx.premium, name, outage)
		px.set(pass)
		back := recovery(ctx, srv, fx.premium)
		t.Figure("PostgreSQL "+name+": requests, 503s", "%d, %d", n, n503)
		t.Figure("PostgreSQL "+name+": slowest answer", "%.2fs", worst.Seconds())
		if back < 0 {
			t.Fail("PostgreSQL %s: answers did not come back within 20s after PostgreSQL did", name)
			t.Figure("PostgreSQL "+name+": recovery", "none within 20s")
		} else {
			t.Figure("PostgreSQL "+name+": recovery", "%.2fs", back.Seconds())
		}
	}
	if p := countPanics(srv.log.String()); p > 0 {
		t.Fail("the server's log holds %d panic lines", p)
	}
}

// probeOutage sends requests no cache holds (and /readyz) for the length of an outage; each
// must be answered within unavailableWithin, with 503 in the documented shape (or 200).
func probeOutage(ctx context.Context, t *T, srv *server, key, name string, outage time.Duration) (worst time.Duration, n503, n int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	end := time.Now().Add(outage)
	for i := 0; time.Now().Before(end) && ctx.Err() == nil; i++ {
		path := fmt.Sprintf("/api/v1/json/%s/searchteams.php?t=RelOutage%s%d", key, name, i)
		if i%5 == 4 {
			path = "/readyz"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			a, err := rawExchange(srv.addr, request(path), 15*time.Second)
			took := time.Since(start)
			mu.Lock()
			defer mu.Unlock()
			n++
			worst = max(worst, took)
			shown := strings.ReplaceAll(path, key, "{key}")
			switch {
			case err != nil:
				t.Fail("PostgreSQL %s: %s: %v after %s", name, shown, err, took.Round(time.Millisecond))
			case a.status == 503 && path == "/readyz":
				n503++
				if !strings.Contains(string(a.body), `"status":"unavailable"`) {
					t.Fail("PostgreSQL %s: /readyz 503 body: %s", name, clipText(string(a.body), 200))
				}
			case a.status == 503:
				n503++
				if p := a.problem(503); p != "" {
					t.Fail("PostgreSQL %s: %s: %s", name, shown, p)
				}
				if a.header.Get("Retry-After") == "" {
					t.Fail("PostgreSQL %s: %s: 503 without Retry-After", name, shown)
				}
			case a.status != 200:
				t.Fail("PostgreSQL %s: %s: status %d: %s", name, shown, a.status, clipText(string(a.body), 200))
			}
			if took > unavailableWithin {
				t.Fail("PostgreSQL %s: %s answered %d after %s, want within %s", name, shown, a.status, took.Round(time.Millisecond), unavailableWithin)
			}
		}()
		time.Sleep(250 * time.Millisecond)
	}
	wg.Wait()
	if n503 == 0 {
		t.Fail("PostgreSQL %s: no request got 503: the outage did not reach the server", name)
	}
	return worst, n503, n
}

// recovery polls with new requests until one is answered 200, and returns how long that
// took after PostgreSQL came back; -1 when it did not within 20 s.
func recovery(ctx context.Context, srv *server, key string) time.Duration {
	start := time.Now()
	for i := 0; time.Since(start) < 20*time.Second && ctx.Err() == nil; i++ {
		path := fmt.Sprintf("/api/v1/json/%s/searchteams.php?t=RelBack%d", key, i)
		if a, err := rawExchange(srv.addr, request(path), 5*time.Second); err == nil && a.status == 200 {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return -1
}
