package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// redisLimit is the key's limit in this check: small, so a run is short.
const redisLimit = 30

// checkRedisOutage runs two replicas sharing rate limits through Redis behind the suite's
// proxy, cuts Redis, sends one key's requests to both, brings Redis back and sends more; once
// with a new key, once with a key half used just before. During the outage each replica limits
// on its own, going on from what it admitted through Redis, and what it admitted is counted in
// Redis when Redis returns (docs/CONFIGURATION.md, "Rate limits"): so the worst number of admissions in any
// 60 s is at most the limit times the replicas, and once the window is used up nothing more is
// admitted after Redis is back.
func checkRedisOutage(ctx context.Context, cfg *config, t *T) {
	px, viaURL, err := proxied(cfg.redis)
	if err != nil {
		t.Fail("SPORTSDB_TEST_REDIS: %v", err)
		return
	}
	defer px.close()
	fx, err := demoDB(ctx, cfg, "redis")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	limits := fmt.Sprintf("premium:%d", redisLimit)
	var replicas []*server
	for _, name := range []string{"replica-a", "replica-b"} {
		srv, err := startServer(ctx, cfg, name, "--db", fx.db, "--redis", viaURL, "--limits", limits)
		if err != nil {
			t.Fail("%v", err)
			return
		}
		defer srv.stop()
		replicas = append(replicas, srv)
	}
	worst := 0
	// The key is new when Redis goes, or half used through Redis just before.
	for _, before := range []int{0, redisLimit / 2} {
		// A new key each time: its counters in Redis are new, whatever else the server holds.
		key, err := addKey(ctx, cfg, fx.db, "premium")
		if err != nil {
			t.Fail("%v", err)
			return
		}
		o := &outageRun{t: t, replicas: replicas, key: key}
		o.send(before)
		px.set(cut)
		waitLimiter(ctx, replicas, true, o.send)
		down := o.send(2 * redisLimit)
		px.set(pass)
		if !waitLimiter(ctx, replicas, false, nil) {
			t.Fail("the replicas did not report Redis back within 20s")
		}
		up := o.send(2 * redisLimit)
		w := worstWindow(o.admitted, time.Minute)
		worst = max(worst, w)
		what := fmt.Sprintf("key used %d times before the outage: ", before)
		t.Figure(what+"admitted during, after", "%d, %d", down, up)
		t.Figure(what+"worst in any 60s", "%d, all within %.1fs", w, o.admitted[len(o.admitted)-1].Sub(o.admitted[0]).Seconds())
		if before+down >= redisLimit && up > 0 {
			t.Fail("key used %d times before and %d during the outage: %d more admitted after Redis returned, want the outage counted there", before, down, up)
		}
	}
	bar := redisLimit * len(replicas)
	t.Figure("worst-case admissions in any 60s", "%d (key limit %d, %d replicas, bar %d)", worst, redisLimit, len(replicas), bar)
	if worst > bar {
		t.Fail("%d requests of a %d-per-minute key were admitted within 60 s across a Redis outage, more than %d replicas × the limit", worst, redisLimit, len(replicas))
	}
	for _, r := range replicas {
		if a, err := rawExchange(r.addr, request("/readyz"), 5*time.Second); err != nil || a.status != 200 {
			t.Fail("after the outage %s/readyz answers %d, %v", r.base, a.status, err)
		}
	}
}

// outageRun sends one key's requests to the replicas in turn and notes when each was
// admitted.
type outageRun struct {
	t        *T
	replicas []*server
	key      string
	admitted []time.Time
}

// send sends n requests and returns how many were admitted; any answer but 200 or the
// documented 429 fails the check.
func (o *outageRun) send(n int) (ok int) {
	for i := 0; i < n; i++ {
		srv := o.replicas[i%len(o.replicas)]
		a, err := rawExchange(srv.addr, request("/api/v1/json/"+o.key+"/lookupteam.php?id=133604"), 10*time.Second)
		switch {
		case err != nil:
			o.t.Fail("request to %s: %v", srv.addr, err)
		case a.status == 200:
			ok++
			o.admitted = append(o.admitted, time.Now())
		case a.status == 429:
			if p := a.problem(); p != "" {
				o.t.Fail("%s", p)
			}
		default:
			o.t.Fail("status %d: %s", a.status, clipText(string(a.body), 200))
		}
	}
	return ok
}

// waitLimiter waits (up to 20 s) until every replica's /readyz reports its limiter in the
// wanted state: degraded (per replica, Redis away) or shared. While waiting for the
// outage to be seen, poke sends a request to each replica so it finds Redis gone.
func waitLimiter(ctx context.Context, replicas []*server, degraded bool, poke func(int) int) bool {
	end := time.Now().Add(20 * time.Second)
	for time.Now().Before(end) && ctx.Err() == nil {
		all := true
		for _, r := range replicas {
			a, err := rawExchange(r.addr, request("/readyz"), 5*time.Second)
			down := err == nil && strings.Contains(string(a.body), "unreachable")
			if err != nil || down != degraded {
				all = false
			}
		}
		if all {
			return true
		}
		if poke != nil {
			// A request sent before the replica has seen the outage is still counted in
			// Redis, and counts in the worst case like any other.
			poke(2)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// worstWindow is the most times within any window of length w.
func worstWindow(ts []time.Time, w time.Duration) int {
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	worst, lo := 0, 0
	for hi := range ts {
		for ts[hi].Sub(ts[lo]) >= w {
			lo++
		}
		worst = max(worst, hi-lo+1)
	}
	return worst
}
