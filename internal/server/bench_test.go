package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// BenchmarkCachedAnswer is the cost of one answer served from the response cache through the
// whole server (routing, key, rate limit, data version, cache, access log), without the
// network.
func BenchmarkCachedAnswer(b *testing.B) {
	limits := map[store.Tier]int{store.Free: 1 << 20, store.Premium: 1 << 20, store.Business: 1 << 20}
	env := apitest.New(b, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.System{}), Limits: limits,
		AccessLog: server.NewAccessLog(io.Discard, false)})
	path := "/api/v1/json/" + env.PremiumKey + "/lookupteam.php?id=133604"
	env.Get(b, path)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			rec := httptest.NewRecorder()
			env.Server.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
}

// BenchmarkComputedAnswer is the cost of one answer computed through the whole server: each
// request's query differs (a parameter the endpoint ignores), so the response cache keeps
// but never serves it, and everything done once per rendered answer is in the figure.
func BenchmarkComputedAnswer(b *testing.B) {
	limits := map[store.Tier]int{store.Free: 1 << 20, store.Premium: 1 << 20, store.Business: 1 << 20}
	env := apitest.New(b, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.System{}), Limits: limits,
		AccessLog: server.NewAccessLog(io.Discard, false)})
	for _, c := range []struct{ name, fq string }{
		{"lookupteam", "lookupteam.php?id=133604"},
		{"lookup_all_players", "lookup_all_players.php?id=133604"},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := "/api/v1/json/" + env.PremiumKey + "/" + c.fq + "&n="
			b.ReportAllocs()
			defer cpuPerOp(b)()
			n := 0
			for b.Loop() {
				n++
				req := httptest.NewRequest(http.MethodGet, path+strconv.Itoa(n), nil)
				rec := httptest.NewRecorder()
				env.Server.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

// BenchmarkImageAddresses is BenchmarkCachedAnswer and BenchmarkComputedAnswer on a store
// that keeps images: none held ("empty"), or the team's badge held ("held"), whose address
// each answer then points at the request's host.
func BenchmarkImageAddresses(b *testing.B) {
	limits := map[store.Tier]int{store.Free: 1 << 20, store.Premium: 1 << 20, store.Business: 1 << 20}
	for _, held := range []bool{false, true} {
		env := apitest.New(b, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.System{}), Limits: limits,
			AccessLog: server.NewAccessLog(io.Discard, false)})
		name := "empty"
		if held {
			name = "held"
			_, path := badgeOf(b, env)
			putImage(b, env, path)
		}
		for _, fq := range []string{"lookupteam.php?id=133604", "lookup_all_players.php?id=133604"} {
			path := "/api/v1/json/" + env.PremiumKey + "/" + fq
			file, _, _ := strings.Cut(fq, ".")
			for _, computed := range []bool{false, true} {
				form := map[bool]string{false: "/cached/", true: "/computed/"}[computed]
				b.Run(name+form+file, func(b *testing.B) {
					b.ReportAllocs()
					defer cpuPerOp(b)()
					n := 0
					for b.Loop() {
						p := path
						if computed { // a parameter the endpoint ignores: a new cache key
							n++
							p += "&n=" + strconv.Itoa(n)
						}
						req := httptest.NewRequest(http.MethodGet, p, nil)
						rec := httptest.NewRecorder()
						env.Server.ServeHTTP(rec, req)
						if rec.Code != http.StatusOK {
							b.Fatalf("status %d", rec.Code)
						}
					}
				})
			}
		}
	}
}

// cpuPerOp reports the CPU time the process spent (every thread: the collector's too) per
// operation, as "cpu-ns/op", from the call to the call of the function it returns: on a
// shared machine, a figure less disturbed by other work than the wall clock's ns/op.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
