package mirror

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"testing"

	"sportsdb/internal/ratelimit"
	"sportsdb/internal/testsupport"
)

// TestBudgetSharedThroughRedis: two processes' worth of read-through (each its own Redis
// limiter, as on two replicas) and a mirror of one key draw on one budget.
func TestBudgetSharedThroughRedis(t *testing.T) {
	redisURL := testsupport.Env(t, "SPORTSDB_TEST_REDIS")
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	prefix := "sportsdb-test:mirror:" + hex.EncodeToString(b) + ":" // keys expire with the window
	up, clk, p, down, _ := readThroughEnv(t, 0)
	limiter := func() ratelimit.Limiter {
		l, err := ratelimit.NewRedis(redisURL, clk, ratelimit.RedisOptions{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	const rate = 4
	fetcher := func() *Fetcher {
		f, err := NewFetcher(FetcherOptions{From: p.srv.URL, Key: up.PremiumKey, Store: down.Store, Clock: clk, Rate: rate, Limiter: limiter()})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b2 := fetcher(), fetcher()
	ctx := context.Background()
	// A mirror of the same key takes two slots (its probe and the first seed)...
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Rate, opts.Limiter, opts.Retries = down.Store, rate, limiter(), 1
	c, err := newCrawler(opts)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.c.wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// ...so the two replicas have two between them.
	for i, f := range []*Fetcher{a, b2} {
		if _, err := f.Ensure(ctx, "v1", "lookupteam.php?id=13360"+string(rune('2'+2*i))); err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
	}
	for i, f := range []*Fetcher{a, b2} {
		if _, err := f.Ensure(ctx, "v1", "lookupleague.php?id=4328"); !errors.Is(err, ErrBudgetSpent) {
			t.Errorf("replica %d past the shared budget: %v; want ErrBudgetSpent", i, err)
		}
	}
}
