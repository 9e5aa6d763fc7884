package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/testsupport"
)

func newTestRedis(t *testing.T, url string, o RedisOptions) *Redis {
	t.Helper()
	return newTestRedisOn(t, url, clock.System{}, o)
}

func newTestRedisOn(t *testing.T, url string, clk clock.Clock, o RedisOptions) *Redis {
	t.Helper()
	r, err := NewRedis(url, clk, o)
	if err != nil {
		t.Fatalf("NewRedis: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// alternating spreads requests over several limiters, as a load balancer over replicas.
type alternating struct {
	ls []Limiter
	n  atomic.Uint64
}

func (a *alternating) Allow(ctx context.Context, id string, limit int) (Decision, error) {
	return a.ls[a.n.Add(1)%uint64(len(a.ls))].Allow(ctx, id, limit)
}

func TestRedisReplicasShareOneExactLimit(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	a := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	b := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	both := &alternating{ls: []Limiter{a, b}}
	for _, limit := range []int{FreeLimit, PremiumLimit, BusinessLimit} {
		id := auth.Hash(fmt.Sprint("key-", limit))
		if got := burst(t, both, id, limit, 3*limit); got != limit {
			t.Fatalf("limit %d: two replicas admitted %d in total", limit, got)
		}
		for _, l := range []*Redis{a, b} {
			d, err := l.Allow(context.Background(), id, limit)
			if err != nil || d.Allowed || d.Remaining != 0 || d.RetryAfter <= Window-10*time.Second || d.RetryAfter > Window {
				t.Fatalf("limit %d: after the limit %+v, %v; want refused for about a minute", limit, d, err)
			}
		}
	}
	if ok, detail := a.Healthy(); !ok || !strings.Contains(detail, "shared") {
		t.Fatalf("Healthy() = %v, %q", ok, detail)
	}
}

func TestRedisDecisionFields(t *testing.T) {
	url := testRedisURL(t)
	r := newTestRedis(t, url, RedisOptions{Prefix: testPrefix(t, url)})
	for i := range 5 {
		d, err := r.Allow(context.Background(), "k", 5)
		if err != nil || !d.Allowed || d.Limit != 5 || d.Remaining != 4-i || d.Reset <= Window-5*time.Second || d.Reset > Window {
			t.Fatalf("request %d: %+v, %v", i, d, err)
		}
	}
	d, err := r.Allow(context.Background(), "k", 5)
	if err != nil || d.Allowed || d.Remaining != 0 || d.RetryAfter != d.Reset || d.RetryAfter <= 0 {
		t.Fatalf("refusal: %+v, %v", d, err)
	}
}

// The script's own expiry: slots free one by one as the requests that took them leave the
// window.
func TestRedisWindowRolls(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	clk := newFakeClock()
	r := newTestRedisOn(t, url, clk, RedisOptions{Prefix: prefix})
	ctx := context.Background()
	if d, _ := r.Allow(ctx, "k", 3); !d.Allowed {
		t.Fatal("first request refused")
	}
	pass(t, clk, url, prefix+"k", Window/2)
	if got := burst(t, r, "k", 3, 64); got != 2 {
		t.Fatalf("admitted %d, want the 2 slots left", got)
	}
	d, _ := r.Allow(ctx, "k", 3)
	if d.Allowed || d.RetryAfter > Window/2 {
		t.Fatalf("full window: %+v, want refused until the first request leaves", d)
	}
	pass(t, clk, url, prefix+"k", Window/2)
	if got := burst(t, r, "k", 3, 64); got != 1 {
		t.Fatalf("after the first request left the window admitted %d, want exactly 1", got)
	}
	pass(t, clk, url, prefix+"k", Window)
	if got := burst(t, r, "k", 3, 64); got != 3 {
		t.Fatalf("after a whole idle window admitted %d, want 3", got)
	}
}

func waitHealthy(t *testing.T, r *Redis, want bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, detail := r.Healthy()
		if ok == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Healthy() stayed %v (%s)", ok, detail)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRedisOutageFallsBackAndComesBack(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	p := newProxy(t, url)
	var logs testsupport.LogBuffer
	r := newTestRedis(t, p.url(url), RedisOptions{
		Prefix: prefix, Recheck: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	direct := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	ctx := context.Background()
	before, during, after := auth.Hash("before"), auth.Hash("during"), auth.Hash("after")
	if got := burst(t, r, before, FreeLimit, 10); got != 10 {
		t.Fatalf("through Redis admitted %d of 10", got)
	}

	p.cut()
	// Every request is still answered, by this replica's own exact limit.
	if got := burst(t, r, during, FreeLimit, 200); got != FreeLimit {
		t.Fatalf("during the outage admitted %d, want %d", got, FreeLimit)
	}
	ok, detail := r.Healthy()
	if ok || !strings.Contains(detail, "unreachable") || !strings.Contains(detail, "per replica") {
		t.Fatalf("during the outage Healthy() = %v, %q", ok, detail)
	}
	out := logs.String()
	if n := strings.Count(out, "Redis unreachable"); n != 1 {
		t.Fatalf("logged the outage %d times, want once:\n%s", n, out)
	}

	p.restore()
	waitHealthy(t, r, true)
	if !strings.Contains(logs.String(), "reachable again") {
		t.Fatalf("recovery not logged:\n%s", logs.String())
	}
	// Shared again: this replica and another one together admit the limit once.
	both := &alternating{ls: []Limiter{r, direct}}
	if got := burst(t, both, after, FreeLimit, 100); got != FreeLimit {
		t.Fatalf("after recovery two replicas admitted %d, want %d", got, FreeLimit)
	}
	for _, id := range []string{before, during, after} {
		if strings.Contains(logs.String(), id) {
			t.Fatalf("a limiter id reached the log:\n%s", logs.String())
		}
	}
	if d, err := r.Allow(ctx, before, FreeLimit); err != nil || !d.Allowed || d.Remaining != FreeLimit-11 {
		t.Fatalf("the key counted before the outage: %+v, %v; want its 10 requests still counted", d, err)
	}
}

// Once Redis refused a key, its later requests are refused without a round trip: with the
// connection cut they are still refused, and the limiter has not even noticed the outage.
func TestRedisRefusalAnsweredLocally(t *testing.T) {
	url := testRedisURL(t)
	p := newProxy(t, url)
	r := newTestRedis(t, p.url(url), RedisOptions{Prefix: testPrefix(t, url), Recheck: time.Hour,
		Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	for range 3 {
		_, _ = r.Allow(ctx, "k", 3)
	}
	first, _ := r.Allow(ctx, "k", 3)
	if first.Allowed {
		t.Fatal("4th request of 3 admitted")
	}
	p.cut()
	for range 100 {
		d, err := r.Allow(ctx, "k", 3)
		if err != nil || d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > first.RetryAfter {
			t.Fatalf("refusal from memory: %+v, %v", d, err)
		}
	}
	if ok, _ := r.Healthy(); !ok {
		t.Fatal("a remembered refusal went to Redis")
	}
	// The same key under another limit (a changed tier) is asked again.
	if d, err := r.Allow(ctx, "k", 100); err != nil || !d.Allowed {
		t.Fatalf("new limit: %+v, %v", d, err)
	}
	if ok, _ := r.Healthy(); ok {
		t.Fatal("a request under a new limit did not go to Redis")
	}
}

func TestRedisStartsWhileDown(t *testing.T) {
	url := testRedisURL(t)
	p := newProxy(t, url)
	p.cut()
	r := newTestRedis(t, p.url(url), RedisOptions{Prefix: testPrefix(t, url), Recheck: 50 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if ok, _ := r.Healthy(); ok {
		t.Fatal("healthy without a Redis")
	}
	if got := burst(t, r, "k", 5, 20); got != 5 {
		t.Fatalf("without Redis admitted %d, want 5", got)
	}
	p.restore()
	waitHealthy(t, r, true)
	if got := burst(t, r, "k2", 5, 20); got != 5 {
		t.Fatalf("on Redis admitted %d, want 5", got)
	}
}

func TestNewRedisBadURL(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:6379", "redis://user:s3cret@127.0.0.1:notaport/0", "::"} {
		r, err := NewRedis(u, clock.System{}, RedisOptions{})
		if err == nil {
			r.Close()
			t.Fatalf("%q: no error", u)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("%q: the error shows the password: %v", u, err)
		}
	}
}

// A value of another shape under a limiter key (not written by this package) is started
// afresh rather than failing every request of that key.
func TestRedisForeignValueStartsAfresh(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	opt, _ := rueidis.ParseURL(url)
	opt.DisableCache = true
	c, err := rueidis.NewClient(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Do(context.Background(), c.B().Set().Key(prefix+"odd").Value("abc").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	r := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	if got := burst(t, r, "odd", 4, 10); got != 4 {
		t.Fatalf("admitted %d, want 4", got)
	}
	if ok, detail := r.Healthy(); !ok {
		t.Fatalf("fell back: %s", detail)
	}
}
