package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
)

// runWorkload sends n requests from 64 goroutines, spread over the ids, and returns the time.
func runWorkload(b *testing.B, l Limiter, ids []string, limit, n int) time.Duration {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				// A stride coprime with len(ids) visits the ids in a scattered order.
				id := ids[(i*7919)%int64(len(ids))]
				if _, err := l.Allow(context.Background(), id, limit); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkRedisVsMemory runs one workload on a fresh in-memory limiter and on a fresh Redis
// limiter and reports the Redis throughput as a fraction of the in-memory one.
// many-keys: 10000 keys at the business limit, nearly every request admitted (one Redis
// round trip each). hot-keys: 50 free keys far over their limit, answered mostly from the
// remembered refusals. long-logs: 20 keys at a raised limit of 1000, every request admitted,
// so each key's log grows long.
func BenchmarkRedisVsMemory(b *testing.B) {
	url := testRedisURL(b)
	for _, w := range []struct {
		name  string
		keys  int
		limit int
	}{{"many-keys", 10000, BusinessLimit}, {"hot-keys", 50, FreeLimit}, {"long-logs", 20, 1000}} {
		ids := make([]string, w.keys)
		for i := range ids {
			ids[i] = auth.Hash(fmt.Sprint("bench-key-", i))
		}
		b.Run(w.name, func(b *testing.B) {
			mem := NewMemory(clock.System{})
			r, err := NewRedis(url, clock.System{}, RedisOptions{
				Prefix: testPrefix(b, url), Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.ResetTimer()
			tMem := runWorkload(b, mem, ids, w.limit, b.N)
			tRedis := runWorkload(b, r, ids, w.limit, b.N)
			b.StopTimer()
			if ok, detail := r.Healthy(); !ok {
				b.Fatalf("Redis fell back during the run: %s", detail)
			}
			b.ReportMetric(float64(tMem.Nanoseconds())/float64(b.N), "mem-ns/req")
			b.ReportMetric(float64(tRedis.Nanoseconds())/float64(b.N), "redis-ns/req")
			b.ReportMetric(tMem.Seconds()/tRedis.Seconds(), "redis/mem-throughput")
		})
	}
}
