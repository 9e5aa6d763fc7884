package ratelimit

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"sportsdb/internal/auth"
)

// Across a Redis outage one replica stays exact: the fallback goes on from what Redis admitted
// through it, and when Redis returns what the fallback admitted is counted there, so another
// replica that never lost Redis admits nothing more in the window.
func TestRedisOutageCountedOnBothSides(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	p := newProxy(t, url)
	r := newTestRedis(t, p.url(url), RedisOptions{Prefix: prefix, Recheck: 50 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	other := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	id := auth.Hash("across")
	if got := burst(t, r, id, FreeLimit, 10); got != 10 {
		t.Fatalf("before the outage admitted %d of 10", got)
	}
	p.cut()
	if got := burst(t, r, id, FreeLimit, 100); got != FreeLimit-10 {
		t.Fatalf("during the outage admitted %d, want the %d left of the window", got, FreeLimit-10)
	}
	p.restore()
	waitHealthy(t, r, true)
	d, err := other.Allow(context.Background(), id, FreeLimit)
	if err != nil || d.Allowed || d.Remaining != 0 {
		t.Fatalf("another replica after the outage: %+v, %v; want refused, the window full", d, err)
	}
	if d.RetryAfter < Window-10*time.Second {
		t.Errorf("Retry-After %v: the slot frees when the first request leaves, about a minute on", d.RetryAfter)
	}
}

// A log holding more than the limit (two replicas' outage admissions merged) refuses until
// all but limit-1 of its entries have left, and says so in Retry-After.
func TestRedisOverfullLogRetryAfter(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	r := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	r.fallback.clk = shiftedClock{-50 * time.Second}
	for range 3 {
		r.fallback.record("k", 10) // 50 s old
	}
	r.fallback.clk = shiftedClock{-20 * time.Second}
	for range 3 {
		r.fallback.record("k", 10) // 20 s old
	}
	r.fallback.clk = shiftedClock{}
	if err := r.replay(time.Time{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	// 6 entries, limit 5: a slot frees when the second oldest (50 s old) leaves: in 10 s.
	d, err := r.Allow(context.Background(), "k", 5)
	if err != nil || d.Allowed || d.RetryAfter > 11*time.Second || d.RetryAfter < 9*time.Second {
		t.Fatalf("limit 5 over 6 merged requests: %+v, %v; want refused for about 10 s", d, err)
	}
	// Limit 3: the fourth newest (the newest 50 s old) must leave: also about 10 s. Limit 2:
	// the 20 s old ones, in about 40 s.
	r.blocked.init()
	if d, _ := r.Allow(context.Background(), "k", 2); d.Allowed || d.RetryAfter < 39*time.Second || d.RetryAfter > 41*time.Second {
		t.Fatalf("limit 2: %+v, want refused for about 40 s", d)
	}
}

type shiftedClock struct{ by time.Duration }

func (c shiftedClock) Now() time.Time { return time.Now().Add(c.by) }
