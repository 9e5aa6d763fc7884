package mirror

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/apitest"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// messageURL is answered with a message where its records belong, on every attempt.
const messageURL = "v1/eventspastleague.php?id=" + testLeague

func TestMirrorSurvivesFaults(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	clk := newFakeClock()
	p := newProxy(t, up.Server, clk, up.PremiumKey)
	p.faults = func(n int, u string) fault {
		switch {
		case u == messageURL:
			return withMessage
		case n%7 == 1:
			return tooMany
		case n%11 == 2:
			return serverError
		case n%13 == 3:
			return truncate
		case n%17 == 4:
			return reset
		case n%5 == 0:
			return slow
		}
		return pass
	}
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Metrics = down.Store, NewMetrics()
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Messages != 1 {
		t.Errorf("summary %s: want no failure and one message", sum)
	}
	m := opts.Metrics
	if ok, msg := counted(t, m, "ok"), counted(t, m, "message"); ok != float64(sum.Requests-1) || msg != 1 {
		t.Errorf("metrics: %v ok and %v messages; the summary says %s", ok, msg, sum)
	}
	sameAnswers(t, up, down)

	hits := p.log()
	seen := map[fault]int{}
	succeeded := map[string]int{}
	for i, h := range hits {
		seen[h.fault]++
		if h.status == http.StatusOK && (h.fault == pass || h.fault == slow) {
			succeeded[h.url]++
		}
		if h.fault != tooMany {
			continue
		}
		// The next request of the same URL waited at least the Retry-After.
		for _, next := range hits[i+1:] {
			if next.url == h.url {
				if wait := next.at.Sub(h.at); wait < time.Duration(p.retryAfter)*time.Second {
					t.Errorf("%s asked again %s after a 429 with Retry-After %d", h.url, wait, p.retryAfter)
				}
				break
			}
		}
	}
	for _, f := range []fault{tooMany, serverError, truncate, reset, slow, withMessage} {
		if seen[f] == 0 {
			t.Errorf("fault %d never injected: the test proves nothing about it", f)
		}
	}
	for u, n := range succeeded {
		if n > 1 {
			t.Errorf("%s answered %d times", u, n)
		}
	}
	e, err := down.Store.(store.Frontier).FrontierGet(context.Background(), messageURL)
	if err != nil || e.Status != "message" {
		t.Errorf("%s: entry %+v, %v; want status message", messageURL, e, err)
	}
}

// TestBudgetRollingWindow: in any 60 s, the upstream sees at most the rate, counted as its
// own limiter counts, which never has to refuse one.
func TestBudgetRollingWindow(t *testing.T) {
	const rate = 17
	hits := crawlAtRate(t, rate, nil)
	if fullest := fullestMinute(t, hits); fullest != rate {
		t.Errorf("at most %d requests within 60 s; the budget is %d, and is to be used", fullest, rate)
	}
}

// TestBudgetCountsArrivals: a request that reaches the upstream later than it was sent
// (here every seventh, 5 s late) still leaves no 60 s of the upstream's with more than the
// rate: a slot is reused only 60 s after its answer came.
func TestBudgetCountsArrivals(t *testing.T) {
	const rate = 17
	hits := crawlAtRate(t, rate, func(clk *fakeClock, n int) {
		if n%7 == 3 {
			clk.Advance(5 * time.Second)
		}
	})
	if fullest := fullestMinute(t, hits); fullest > rate {
		for i, h := range hits[:60] {
			t.Logf("%d %s %d %s", i, h.at.Sub(hits[0].at), h.status, h.url)
		}
		t.Errorf("%d requests within 60 s; the budget is %d", fullest, rate)
	}
}

// crawlAtRate mirrors the test league at rate requests a minute from an upstream whose own
// limiter allows the same, and returns what the upstream saw; arrive, if set, runs as each
// request comes in (see proxy.arrive), with the fake clock both sides read.
func crawlAtRate(t *testing.T, rate int, arrive func(clk *fakeClock, n int)) []hit {
	t.Helper()
	clk := newFakeClock()
	up := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clk),
		Limits: map[store.Tier]int{store.Free: rate, store.Premium: rate, store.Business: rate}})
	p := newProxy(t, up.Server, clk, up.PremiumKey)
	if arrive != nil {
		p.arrive = func(n int) { arrive(clk, n) }
	}
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Rate = down.Store, rate
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	hits := p.log()
	if len(hits) < 5*rate {
		t.Fatalf("only %d requests: the window was hardly tested", len(hits))
	}
	return hits
}

// fullestMinute is the most requests the upstream saw within 60 s; it reports any the
// upstream refused for its own limit.
func fullestMinute(t *testing.T, hits []hit) int {
	t.Helper()
	fullest := 0
	for i, h := range hits {
		if h.status == http.StatusTooManyRequests {
			t.Errorf("the upstream refused %s: over its limit", h.url)
		}
		n := 0
		for _, o := range hits[i:] {
			if o.at.Sub(h.at) < ratelimit.Window {
				n++
			}
		}
		fullest = max(fullest, n)
	}
	return fullest
}

// TestKeyNeverShows: a network error quotes the request's URL, which holds a v1 key.
func TestKeyNeverShows(t *testing.T) {
	const key = "S3CRETKEY1234"
	var logs strings.Builder
	down := apitest.New(t, apitest.Options{})
	_, err := Run(context.Background(), Options{From: "http://127.0.0.1:1", Key: key, Store: down.Store, Retries: 2,
		Clock: newFakeClock(), Logger: slog.New(slog.NewTextHandler(&logs, nil)), Leagues: []string{testLeague}})
	if err != nil && strings.Contains(err.Error(), key) {
		t.Errorf("error shows the key: %v", err)
	}
	if !strings.Contains(logs.String(), "request failed") {
		t.Fatalf("no failure logged: %s", logs.String())
	}
	if strings.Contains(logs.String(), key) {
		t.Errorf("log shows the key: %s", logs.String())
	}
	for _, e := range frontier(t, down.Store) {
		if strings.Contains(e.Note+e.URL, key) {
			t.Errorf("frontier shows the key: %+v", e)
		}
	}
}

// TestFreeKey: the upstream refuses v2 to a free key, so the mirror keeps to v1 and, with no
// --rate, to the free budget of 30 a minute.
func TestFreeKey(t *testing.T) {
	clk := newFakeClock()
	up := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clk)})
	p := newProxy(t, up.Server, clk, up.FreeKey)
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Key = down.Store, up.FreeKey
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	hits := p.log()
	if len(hits) < 2*FreeRate {
		t.Fatalf("%d requests: too few to see the budget", len(hits))
	}
	for i, h := range hits {
		if h.status == http.StatusTooManyRequests {
			t.Errorf("the upstream refused %s: over the free limit", h.url)
		}
		if i > 0 && strings.HasPrefix(h.url, "v2/") {
			t.Errorf("%s asked with a free key", h.url)
		}
		n := 0
		for _, o := range hits[i:] {
			if o.at.Sub(h.at) < ratelimit.Window {
				n++
			}
		}
		if n > FreeRate {
			t.Fatalf("%d requests within 60 s of %s; a free key has %d", n, h.at, FreeRate)
		}
	}
	if sum.Records == 0 {
		t.Errorf("nothing stored: %s", sum)
	}
	// A free key's capped answers show the first records of a list; the mirror, holding
	// records from other answers too, may pick others under the same cap. What it holds is
	// the upstream's.
	heldByUpstream(t, up.Store, down.Store)
}

// heldByUpstream checks that every record of the mirror is the upstream's record of that id,
// in every field the mirror has a value for.
func heldByUpstream(t *testing.T, up, down store.Store) {
	t.Helper()
	ctx := context.Background()
	n := 0
	for _, k := range record.Kinds {
		err := down.Scan(ctx, k, func(r record.Record) error {
			id, err := r.ID()
			if err != nil {
				return err
			}
			want, err := up.Get(ctx, k, id)
			if err != nil {
				t.Errorf("%s %s: not the upstream's: %v", k.Name, id, err)
				return nil
			}
			for _, f := range k.Fields {
				if v := r.Get(f); v.Valid && v != want.Get(f) {
					t.Errorf("%s %s: %s is %q, upstream %q", k.Name, id, f, v.S, want.Str(f))
				}
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Error("the mirror holds nothing")
	}
}

// counted reads the mirror's request counter of an outcome as Prometheus would scrape it.
func counted(t *testing.T, m *Metrics, outcome string) float64 {
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.Collectors()...)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "sportsdb_upstream_requests_total" {
			continue
		}
		for _, s := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range s.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["source"] == "mirror" && labels["outcome"] == outcome {
				return s.GetCounter().GetValue()
			}
		}
	}
	return 0
}
