package integration

import (
	"bufio"
	"bytes"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// serve runs two goroutines at once for each CPU, unless GOMAXPROCS says how many; its
// /metrics shows the setting.
func TestServeRunsTwoGoroutinesPerCPU(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	runtime.SetDefaultGOMAXPROCS()
	cpus := runtime.GOMAXPROCS(before)
	h := newHarness(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		env  string
		want int
	}{{"GOMAXPROCS=", 2 * cpus}, {"GOMAXPROCS=3", 3}} {
		db := filepath.Join(dir, strings.TrimPrefix(tc.env, "GOMAXPROCS=")+"demo.db")
		c := h.serve([]string{tc.env}, "--db", db, "--log-level", "warn")
		if got := gomaxprocs(t, c.url); got != tc.want {
			t.Errorf("%s on %d CPUs: the server runs %d goroutines at once, want %d", tc.env, cpus, got, tc.want)
		}
	}
}

// gomaxprocs reads a server's GOMAXPROCS from its metrics.
func gomaxprocs(t *testing.T, base string) int {
	t.Helper()
	a := get(t, base, "/metrics")
	sc := bufio.NewScanner(bytes.NewReader(a.body))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_sched_gomaxprocs_threads "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("go_sched_gomaxprocs_threads %q", v)
			}
			return n
		}
	}
	t.Fatalf("/metrics has no go_sched_gomaxprocs_threads (status %d)", a.status)
	return 0
}
