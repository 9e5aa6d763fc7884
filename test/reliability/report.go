package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// need names a service a check cannot run without.
type need int

const (
	needNothing need = iota
	needPG
	needRedis
)

// check is one pass-or-fail question put to the binary.
type check struct {
	name    string
	timeout time.Duration
	needs   need
	fn      func(ctx context.Context, cfg *config, c *T)
}

// T is what a check records: failures (any one fails the check) and figures.
type T struct {
	name     string
	mu       sync.Mutex
	failures []string
	figures  []figure
	skipped  string
}

type figure struct{ name, value string }

// Fail records a failure; the check goes on, so one run shows every problem it meets.
func (t *T) Fail(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures = append(t.failures, fmt.Sprintf(format, args...))
}

// Figure records a number (or short text) printed at the end.
func (t *T) Figure(name string, format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.figures = append(t.figures, figure{name, fmt.Sprintf(format, args...)})
}

// Logf prints progress under the check's name.
func (t *T) Logf(format string, args ...any) {
	fmt.Printf("    %s: %s\n", t.name, fmt.Sprintf(format, args...))
}

func (t *T) failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.failures) > 0
}

// report runs checks and sums them up.
type report struct {
	done []*T
}

func newReport() *report { return &report{} }

func (r *report) run(ctx context.Context, cfg *config, c check) {
	t := &T{name: c.name}
	r.done = append(r.done, t)
	if missing := cfg.missing(c.needs); missing != "" {
		if cfg.ci {
			t.Fail("%s is not set; under CI=true this check must run", missing)
		} else {
			t.skipped = missing + " is not set"
		}
		r.print(t, 0)
		return
	}
	fmt.Printf("--- %s\n", c.name)
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fail("the check itself panicked: %v", p)
			}
		}()
		c.fn(cctx, cfg, t)
	}()
	if cctx.Err() != nil && ctx.Err() == nil {
		t.Fail("the check did not end within %s", c.timeout)
	}
	r.print(t, time.Since(start))
}

func (cfg *config) missing(n need) string {
	switch {
	case n == needPG && cfg.pg == "":
		return "SPORTSDB_TEST_POSTGRES"
	case n == needRedis && cfg.redis == "":
		return "SPORTSDB_TEST_REDIS"
	}
	return ""
}

func (r *report) print(t *T, took time.Duration) {
	switch {
	case t.skipped != "":
		fmt.Printf("SKIP %s (%s)\n", t.name, t.skipped)
	case t.failed():
		fmt.Printf("FAIL %s (%.1fs)\n", t.name, took.Seconds())
		for _, f := range t.failures {
			fmt.Printf("     - %s\n", clipText(f, 600))
		}
	default:
		fmt.Printf("ok   %s (%.1fs)\n", t.name, took.Seconds())
	}
}

// finish prints every figure, the checks that failed, and the final count; it returns the
// exit code.
func (r *report) finish() int {
	fmt.Println()
	fmt.Println("== figures")
	for _, t := range r.done {
		for _, f := range t.figures {
			fmt.Printf("%-36s %-44s %s\n", t.name, f.name, f.value)
		}
	}
	passed, failed, skipped := 0, 0, 0
	var names []string
	for _, t := range r.done {
		switch {
		case t.skipped != "":
			skipped++
		case t.failed():
			failed++
			names = append(names, t.name)
		default:
			passed++
		}
	}
	fmt.Printf("%-36s %-44s %d\n", "all", "requests sent by the suite", sent.Load())
	fmt.Println()
	if len(names) > 0 {
		sort.Strings(names)
		fmt.Println("failed:", strings.Join(names, ", "))
	}
	if skipped > 0 {
		fmt.Printf("%d skipped (not counted)\n", skipped)
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	if passed == 0 {
		fmt.Fprintln(os.Stderr, "reliability: no check ran")
		return 1
	}
	return 0
}

// clipText shortens a message for the console.
func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
