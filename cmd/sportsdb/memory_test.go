package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// serve holds the Go heap to the cache budget plus headroom, unless GOMEMLIMIT says otherwise.
func TestGoMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	if env, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Cleanup(func() { os.Setenv("GOMEMLIMIT", env) })
	}
	os.Unsetenv("GOMEMLIMIT")
	limitGoMemory(64)
	if got, want := debug.SetMemoryLimit(-1), int64(64+goHeadroomMB)<<20; got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	limitGoMemory(512)
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Fatalf("GOMEMLIMIT set: limit changed to %d", got)
	}
}
