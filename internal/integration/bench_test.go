package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
	"sportsdb/internal/testsupport"
)

const (
	benchKeys    = 4000 // premium keys the requests are spread over
	benchClients = 64   // concurrent HTTP clients
	benchBatch   = 8000 // requests per limiter per iteration
)

// BenchmarkServerLimiter measures the HTTP server's throughput with the Redis limiter against
// the in-memory one: thousands of premium keys, every request admitted (limits raised), cheap
// v1 lookups answered from the response cache, many clients over loopback TCP. It reports
// redis/memory, the ratio of the two throughputs, and the requests per second of each. Each
// iteration sends benchBatch requests to each server; run it with -benchtime=1x or a few x.
func BenchmarkServerLimiter(b *testing.B) {
	redisURL := testsupport.Env(b, "SPORTSDB_TEST_REDIS")
	h := newHarness(b)
	dsn := demoSQLite(b)
	keys := benchAddKeys(b, dsn, benchKeys)
	limits := map[store.Tier]int{store.Free: 30, store.Premium: 1000, store.Business: 1000}
	mem := h.startReplica(replicaConfig{name: "memory", dsn: dsn, limits: limits, logs: io.Discard})
	red := h.startReplica(replicaConfig{name: "redis", dsn: dsn, limits: limits, logs: io.Discard,
		redisURL: redisURL, redisPrefix: redisPrefix(b, redisURL)})
	paths := benchPaths(b, mem.store)
	for _, r := range []*replica{mem, red} {
		for _, p := range paths {
			if a := get(b, r.url, v1(keys[0], p)); a.status != http.StatusOK {
				b.Fatalf("%s %s: %d", r.name, p, a.status)
			}
		}
	}
	var tMem, tRedis time.Duration
	b.ResetTimer()
	for range b.N {
		tMem += benchLoad(b, mem.url, keys, paths)
		tRedis += benchLoad(b, red.url, keys, paths)
	}
	b.StopTimer()
	if ok, detail := red.limiter.Healthy(); !ok {
		b.Fatalf("the Redis limiter fell back during the run: %s", detail)
	}
	n := float64(b.N * benchBatch)
	memRate, redisRate := n/tMem.Seconds(), n/tRedis.Seconds()
	b.ReportMetric(redisRate/memRate, "redis/memory")
	b.ReportMetric(memRate, "memory-req/s")
	b.ReportMetric(redisRate, "redis-req/s")
	b.Logf("memory limiter: %.0f requests/s; Redis limiter: %.0f requests/s (%d keys, %d clients, %d requests each)",
		memRate, redisRate, benchKeys, benchClients, b.N*benchBatch)
}

// benchAddKeys stores n premium keys in the SQLite file at dsn.
func benchAddKeys(b *testing.B, dsn string, n int) []string {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	keys := make([]string, n)
	for i := range keys {
		keys[i] = auth.NewKey()
		if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(keys[i]), Tier: store.Premium, Created: demoNow}); err != nil {
			b.Fatalf("add key: %v", err)
		}
	}
	return keys
}

// benchPaths are cheap v1 lookups of records of the demo dataset.
func benchPaths(b *testing.B, st store.Records) []string {
	p := picker{t: b, st: st}
	return []string{
		"all_sports.php",
		"lookupleague.php?id=" + p.pick(record.League, "idLeague"),
		"lookupteam.php?id=" + p.pick(record.Team, "idTeam"),
		"lookupplayer.php?id=" + p.pick(record.Player, "idPlayer"),
		"lookupevent.php?id=" + p.pick(record.Event, "idEvent"),
		"lookupvenue.php?id=" + p.pick(record.Venue, "idVenue"),
	}
}

// benchLoad sends benchBatch requests from benchClients goroutines and returns the time taken.
// Every request must be admitted and answered 200.
func benchLoad(b *testing.B, base string, keys, paths []string) time.Duration {
	var next, failed atomic.Int64
	var first sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= benchBatch {
					return
				}
				// A stride coprime with the key count visits the keys in a scattered order.
				key := keys[(i*7919)%int64(len(keys))]
				if err := benchGet(base + v1(key, paths[i%int64(len(paths))])); err != nil {
					failed.Add(1)
					first.Do(func() { b.Error(err) })
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d requests failed", n, benchBatch)
	}
	return took
}

// benchClient does not ask for gzip, so the client's inflating does not take CPU from the
// servers it measures on the same machine.
var benchClient = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
	MaxIdleConns: 2 * benchClients, MaxIdleConnsPerHost: benchClients, DisableCompression: true}}

func benchGet(u string) error {
	res, err := benchClient.Get(u)
	if err != nil {
		return fmt.Errorf("GET: %w", err)
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return fmt.Errorf("read body: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}
