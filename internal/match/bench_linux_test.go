package match_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"sportsdb/internal/gen"
	"sportsdb/internal/match"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/sqlite"
)

// BenchmarkMatch matches the labelled set's names in turn on a large dataset, as a media
// server's scan sends them: the small scale by default, generated in the benchmark; with
// SPORTSDB_BENCH_SCALE=full the full one, kept at $BENCH_DATA/full.db as bench/run.sh keeps
// it (BENCH_DATA defaults to bench/.data) and generated there once when missing; or the
// database at SPORTSDB_BENCH_DB, a SQLite file or a postgres:// URL (a dataset made by
// `sportsdb gen`, SPORTSDB_NOW=2026-10-05T20:05:00Z, seed 1). It reports the CPU time of one
// match (its thread's, SQLite being in process) at the median and the 99th percentile, the
// process's CPU per match (with the runtime's other threads), the CPU per match of the
// PostgreSQL server processes serving the database when they run on this machine, and the
// top-1 and top-5 accuracy at that scale; the top-1 hits of each shape and the slowest names
// are logged.
func BenchmarkMatch(b *testing.B) {
	st := benchStore(b)
	set := spread(labelledSet(readWorld(b, st)), benchNames)
	ctx := context.Background()
	// A first pass builds the name index, warms the database's pages and measures the
	// accuracy: the top-1 hits of each shape, and the top-5 hits.
	shapes := map[string][2]int{}
	top1, top5 := 0, 0
	for _, l := range set {
		rs, err := match.Find(ctx, st, l.name)
		if err != nil {
			b.Fatal(err)
		}
		c := shapes[l.shape]
		c[1]++
		if hit(rs, l.want, 1) {
			c[0]++
			top1++
		}
		shapes[l.shape] = c
		if hit(rs, l.want, match.Max) {
			top5++
		}
	}
	runtime.LockOSThread() // the thread's CPU clock is the match's
	defer runtime.UnlockOSThread()
	type sample struct {
		cpu  time.Duration
		name string
	}
	samples := make([]sample, 0, b.N)
	proc0 := processCPU(b)
	server := serverCPU(b, os.Getenv("SPORTSDB_BENCH_DB"))
	server0, local := server()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l := set[i%len(set)]
		start := threadCPU(b)
		_, err := match.Find(ctx, st, l.name)
		samples = append(samples, sample{threadCPU(b) - start, l.name})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := len(samples)
	proc := processCPU(b) - proc0
	if server1, ok := server(); ok && local {
		b.ReportMetric(float64((server1-server0).Microseconds())/float64(n), "db-server-cpu-µs/match")
	}
	slices.SortFunc(samples, func(a, b sample) int { return int(a.cpu - b.cpu) })
	b.ReportMetric(float64(samples[n/2].cpu.Microseconds()), "cpu-µs-p50")
	b.ReportMetric(float64(samples[n*99/100].cpu.Microseconds()), "cpu-µs-p99")
	b.ReportMetric(float64(proc.Microseconds())/float64(n), "process-cpu-µs/match")
	b.ReportMetric(100*float64(top1)/float64(len(set)), "top1-%")
	b.ReportMetric(100*float64(top5)/float64(len(set)), "top5-%")
	b.ReportMetric(0, "ns/op") // wall time on a shared machine says little of the match
	for _, s := range samples[max(0, n-5):] {
		b.Logf("slow: %v %s", s.cpu, s.name)
	}
	for _, shape := range slices.Sorted(maps.Keys(shapes)) { // all of them with -v
		b.Logf("top-1 %4d/%4d %s", shapes[shape][0], shapes[shape][1], shape)
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
	ctx := context.Background()
	dsn := os.Getenv("SPORTSDB_BENCH_DB")
	scale := cmp.Or(os.Getenv("SPORTSDB_BENCH_SCALE"), "small")
	if dsn == "" && scale == "full" {
		dsn = fullDataset(b)
	}
	if dsn == "" {
		return openDemo(b, scale)
	}
	st, err := backend.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	return indexed(b, st)
}

// fullDataset is the path of the full-scale dataset where bench/run.sh keeps it,
// $BENCH_DATA/full.db, generated there first when it is missing (into a temporary file, so
// that an interrupted generation is never taken for the dataset). Generating it takes
// minutes: run the benchmark with -timeout 0.
func fullDataset(b *testing.B) string {
	b.Helper()
	dir := cmp.Or(os.Getenv("BENCH_DATA"), filepath.Join("..", "..", "bench", ".data"))
	path := filepath.Join(dir, "full.db")
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return path
	}
	b.Logf("generating the full-scale dataset into %s (once)", path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	tmp := path + ".tmp"
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, tmp)
	if err != nil {
		b.Fatal(err)
	}
	_, err = gen.Generate(ctx, st, gen.Options{Scale: "full", Seed: 1, Now: demoNow, Progress: os.Stderr})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		b.Fatal(err)
	}
	return path
}

// serverCPU returns a reader of the CPU time so far of the PostgreSQL server processes
// serving the database the DSN names, read from /proc: ok is false when the DSN is not a
// PostgreSQL URL or no such process runs on this machine.
func serverCPU(b *testing.B, dsn string) func() (time.Duration, bool) {
	b.Helper()
	u, err := url.Parse(dsn)
	if !backend.IsPostgres(dsn) || err != nil {
		return func() (time.Duration, bool) { return 0, false }
	}
	db := " " + strings.TrimPrefix(u.Path, "/") + " "
	return func() (time.Duration, bool) {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		var ticks int64
		found := false
		for _, p := range procs {
			cmdline, err := os.ReadFile(p)
			if err != nil || !strings.HasPrefix(string(cmdline), "postgres: ") || !strings.Contains(string(cmdline), db) {
				continue
			}
			stat, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat"))
			if err != nil {
				continue
			}
			// After the command's name in parentheses: state, then 10 fields, utime, stime.
			f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
			if len(f) < 13 {
				continue
			}
			user, _ := strconv.ParseInt(f[11], 10, 64)
			sys, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += user + sys
			found = true
		}
		return time.Duration(ticks) * time.Second / clockTicks, found
	}
}

// clockTicks is the unit of /proc's CPU times per second (USER_HZ, 100 on Linux).
const clockTicks = 100

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
