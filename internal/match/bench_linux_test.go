package match_test

import (
	"context"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"sportsdb/internal/match"
	"sportsdb/internal/store"
	"sportsdb/internal/store/nameindex"
	"sportsdb/internal/store/sqlite"
)

// BenchmarkMatch matches the labelled set's names in turn on a large dataset, as a media
// server's scan sends them: the small scale by default (SPORTSDB_BENCH_SCALE=full for the
// full one, which takes long to generate), or the database at SPORTSDB_BENCH_DB (the same
// dataset made by `sportsdb gen`, SPORTSDB_NOW=2026-10-05T20:05:00Z, seed 1). It reports the
// CPU time of one match (its thread's, the database being in process) at the median and the
// 99th percentile, the process's CPU per match (with the runtime's other threads), and the
// top-1 accuracy at that scale; the slowest names are logged.
func BenchmarkMatch(b *testing.B) {
	st := benchStore(b)
	set := spread(labelledSet(readWorld(b, st)), benchNames)
	ctx := context.Background()
	for _, l := range set { // builds the name index and warms the database's pages
		if _, err := match.Find(ctx, st, l.name); err != nil {
			b.Fatal(err)
		}
	}
	runtime.LockOSThread() // the thread's CPU clock is the match's
	defer runtime.UnlockOSThread()
	type sample struct {
		cpu  time.Duration
		name string
	}
	samples := make([]sample, 0, b.N)
	hits := 0
	proc0 := processCPU(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l := set[i%len(set)]
		start := threadCPU(b)
		rs, err := match.Find(ctx, st, l.name)
		samples = append(samples, sample{threadCPU(b) - start, l.name})
		if err != nil {
			b.Fatal(err)
		}
		if hit(rs, l.want, 1) {
			hits++
		}
	}
	b.StopTimer()
	n := len(samples)
	proc := processCPU(b) - proc0
	slices.SortFunc(samples, func(a, b sample) int { return int(a.cpu - b.cpu) })
	b.ReportMetric(float64(samples[n/2].cpu.Microseconds()), "cpu-µs-p50")
	b.ReportMetric(float64(samples[n*99/100].cpu.Microseconds()), "cpu-µs-p99")
	b.ReportMetric(float64(proc.Microseconds())/float64(n), "process-cpu-µs/match")
	b.ReportMetric(100*float64(hits)/float64(n), "top1-%")
	b.ReportMetric(0, "ns/op") // wall time on a shared machine says little of the match
	for _, s := range samples[max(0, n-5):] {
		b.Logf("slow: %v %s", s.cpu, s.name)
	}
}

// benchNames is how many names of the labelled set the benchmark matches, every shape.
const benchNames = 3000

// spread keeps n names of the set, taken at even steps so that every shape stays.
func spread(set []labelled, n int) []labelled {
	if len(set) <= n {
		return set
	}
	out := make([]labelled, 0, n)
	for i := range n {
		out = append(out, set[i*len(set)/n])
	}
	return out
}

func benchStore(b *testing.B) store.Store {
	b.Helper()
	if path := os.Getenv("SPORTSDB_BENCH_DB"); path != "" {
		st, err := sqlite.Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		wrapped := nameindex.Wrap(st, nameindex.Options{Sync: true})
		b.Cleanup(func() {
			if s, ok := wrapped.(interface{ Stop() }); ok {
				s.Stop()
			}
			st.Close()
		})
		return wrapped
	}
	scale := os.Getenv("SPORTSDB_BENCH_SCALE")
	if scale == "" {
		scale = "small"
	}
	return openDemo(b, scale)
}

// processCPU is the CPU time of the process so far, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU is the CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID).
func threadCPU(b *testing.B) time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		b.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}
