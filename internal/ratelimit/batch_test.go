package ratelimit

import (
	"context"
	"testing"
	"time"
)

// One script call decides many requests, in arrival order, each against its own limit, and an
// id may come more than once.
func TestRedisBatchDecidesInArrivalOrder(t *testing.T) {
	url := testRedisURL(t)
	r := newTestRedis(t, url, RedisOptions{Prefix: testPrefix(t, url)})
	type want struct {
		allowed   bool
		remaining int
	}
	reqs := []struct {
		id    string
		limit int
		want  want
	}{
		{"a", 2, want{true, 1}},
		{"b", 1, want{true, 0}},
		{"a", 2, want{true, 0}},
		{"c", 5, want{true, 4}},
		{"a", 2, want{false, 0}},
		{"b", 1, want{false, 0}},
		{"a", 3, want{true, 0}}, // the same id under a higher limit (a changed tier)
	}
	batch := make([]*pending, len(reqs))
	for i, q := range reqs {
		batch[i] = &pending{id: q.id, limit: q.limit}
	}
	if err := r.evalBatch(context.Background(), *r.client.Load(), batch); err != nil {
		t.Fatal(err)
	}
	for i, q := range reqs {
		d := batch[i].d
		if d.Allowed != q.want.allowed || d.Remaining != q.want.remaining || d.Limit != q.limit ||
			d.Reset <= Window-5*time.Second || d.Reset > Window || (d.RetryAfter != 0) == d.Allowed {
			t.Errorf("request %d (%s, limit %d): %+v, want %+v", i, q.id, q.limit, d, q.want)
		}
	}
}

// The log is appended to, its expired head skipped, and it is rewritten once that head
// outgrows the live part: the count stays exact throughout and the stored log stays bounded.
func TestRedisLogDropsItsExpiredHead(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	clk := newFakeClock()
	r := newTestRedisOn(t, url, clk, RedisOptions{Prefix: prefix})
	ctx := context.Background()
	const limit = 50
	if got := burst(t, r, "k", limit, 40); got != 40 {
		t.Fatalf("first burst admitted %d of 40", got)
	}
	pass(t, clk, url, prefix+"k", Window/2)
	if got := burst(t, r, "k", limit, 30); got != 10 {
		t.Fatalf("second burst admitted %d, want the 10 slots left", got)
	}
	// The first 40 leave the window; the last 10 hold theirs for another half window.
	pass(t, clk, url, prefix+"k", Window/2)
	if got := burst(t, r, "k", limit, 100); got != 40 {
		t.Fatalf("after the first burst left the window admitted %d, want 40", got)
	}
	d, err := r.Allow(ctx, "k", limit)
	if err != nil || d.Allowed || d.RetryAfter > Window/2 {
		t.Fatalf("full window: %+v, %v; want refused until the second burst leaves", d, err)
	}
	if n := storedBytes(t, url, prefix+"k"); n != 8*limit {
		t.Fatalf("the log holds %d bytes, want %d: only the requests in the window", n, 8*limit)
	}
}

func storedBytes(t *testing.T, url, key string) int64 {
	t.Helper()
	c := testClient(t, url)
	n, err := c.Do(context.Background(), c.B().Strlen().Key(key).Build()).AsInt64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}
