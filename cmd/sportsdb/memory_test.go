package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// serve holds the Go heap to the cache budget plus headroom, and under that limit collects
// less often, unless GOMEMLIMIT or GOGC say otherwise.
func TestGoMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	gcBefore := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(gcBefore) })
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	if env, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Cleanup(func() { os.Setenv("GOMEMLIMIT", env) })
	}
	os.Unsetenv("GOMEMLIMIT")
	limitGoMemory(64)
	if got, want := debug.SetMemoryLimit(-1), int64(64+goHeadroomMB)<<20; got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
	if got := debug.SetGCPercent(100); got != 400 {
		t.Fatalf("GOGC %d under the limit, want 400", got)
	}
	t.Setenv("GOGC", "150")
	limitGoMemory(64)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC set: GC percent changed to %d", got)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	limitGoMemory(512)
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Fatalf("GOMEMLIMIT set: limit changed to %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOMEMLIMIT set: GC percent changed to %d, the heap has no limit of ours", got)
	}
}

// serve runs procsPerCPU goroutines at once for each CPU, however many times it starts in
// one process, unless GOMAXPROCS is set.
func TestMoreProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	if env, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Cleanup(func() { os.Setenv("GOMAXPROCS", env) })
	}
	os.Unsetenv("GOMAXPROCS")
	runtime.SetDefaultGOMAXPROCS()
	cpus := runtime.GOMAXPROCS(0)
	for range 2 {
		moreProcs()
		if got := runtime.GOMAXPROCS(0); got != procsPerCPU*cpus {
			t.Fatalf("GOMAXPROCS %d for %d CPUs, want %d", got, cpus, procsPerCPU*cpus)
		}
	}
	t.Setenv("GOMAXPROCS", "3")
	runtime.GOMAXPROCS(3)
	moreProcs()
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Fatalf("GOMAXPROCS set to 3: changed to %d", got)
	}
}
