package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/clock"
)

// newFakeClock is a manual clock at a fixed start, shared by goroutines.
func newFakeClock() *clock.Manual {
	return clock.NewManual(time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC))
}

// burst sends tries requests for id from 64 goroutines at once and counts the admitted ones.
func burst(t *testing.T, l Limiter, id string, limit, tries int) int {
	t.Helper()
	var admitted atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := g; i < tries; i += 64 {
				d, err := l.Allow(context.Background(), id, limit)
				if err != nil {
					t.Errorf("Allow: %v", err)
					return
				}
				if d.Allowed {
					admitted.Add(1)
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	return int(admitted.Load())
}

func TestMemoryConcurrentExactAcrossWindowEdges(t *testing.T) {
	for _, limit := range []int{1, FreeLimit, PremiumLimit, BusinessLimit} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			clk := newFakeClock()
			m := NewMemory(clk)
			if got := burst(t, m, "k", limit, 1000); got != limit {
				t.Fatalf("first window admitted %d, want %d", got, limit)
			}
			clk.Advance(Window - time.Nanosecond)
			if got := burst(t, m, "k", limit, 1000); got != 0 {
				t.Fatalf("1ns before the window ends admitted %d, want 0", got)
			}
			clk.Advance(time.Nanosecond)
			if got := burst(t, m, "k", limit, 1000); got != limit {
				t.Fatalf("next window admitted %d, want %d", got, limit)
			}
			if got := burst(t, m, "other", limit, 1000); got != limit {
				t.Fatalf("a second key admitted %d, want its own %d", got, limit)
			}
		})
	}
}

func TestMemoryRollingFreesSlotsOneByOne(t *testing.T) {
	const limit = FreeLimit
	clk := newFakeClock()
	m := NewMemory(clk)
	step := Window / limit // spread the first window's requests evenly
	for i := range limit {
		d, _ := m.Allow(context.Background(), "k", limit)
		if !d.Allowed || d.Remaining != limit-i-1 || d.Reset != Window-time.Duration(i)*step {
			t.Fatalf("request %d: %+v, want admitted, remaining %d, reset %v",
				i, d, limit-i-1, Window-time.Duration(i)*step)
		}
		clk.Advance(step)
	}
	// Now at exactly Window after the first request: its slot, and only it, is free.
	for i := range limit {
		if got := burst(t, m, "k", limit, 200); got != 1 {
			t.Fatalf("slot %d: admitted %d, want exactly 1", i, got)
		}
		d, _ := m.Allow(context.Background(), "k", limit)
		if d.Allowed || d.RetryAfter != step || d.Reset != step || d.Remaining != 0 {
			t.Fatalf("slot %d: refusal %+v, want retry and reset %v, remaining 0", i, d, step)
		}
		clk.Advance(step - time.Millisecond)
		if got := burst(t, m, "k", limit, 200); got != 0 {
			t.Fatalf("slot %d: admitted %d a millisecond early", i, got)
		}
		clk.Advance(time.Millisecond)
	}
}

// TestMemoryAnyWindowMatchesModel drives one key with random gaps and checks every decision
// against a brute-force count: admitted exactly when fewer than N were admitted in the last
// 60 s, with the Remaining, Reset and RetryAfter that count implies. A limit of 7 keeps the
// ring at its first size; one of 100 makes it grow while full, keeping what it holds.
func TestMemoryAnyWindowMatchesModel(t *testing.T) {
	for _, limit := range []int{7, 100} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) { checkAgainstModel(t, limit) })
	}
}

func checkAgainstModel(t *testing.T, limit int) {
	clk := newFakeClock()
	m := NewMemory(clk)
	rng := rand.New(rand.NewPCG(1, 2))
	var admitted []time.Time
	for i := range 20000 {
		clk.Advance(time.Duration(rng.Int64N(int64(25 * time.Second / time.Duration(limit)))))
		now := clk.Now()
		var inWindow []time.Time
		for _, a := range admitted {
			if now.Sub(a) < Window {
				inWindow = append(inWindow, a)
			}
		}
		d, err := m.Allow(context.Background(), "k", limit)
		if err != nil {
			t.Fatal(err)
		}
		want := len(inWindow) < limit
		if d.Allowed != want {
			t.Fatalf("request %d: allowed %v with %d in the window, want %v", i, d.Allowed, len(inWindow), want)
		}
		if want {
			admitted = append(admitted, now)
			inWindow = append(inWindow, now)
		}
		reset := inWindow[0].Add(Window).Sub(now)
		if d.Remaining != limit-len(inWindow) || d.Reset != reset {
			t.Fatalf("request %d: %+v, want remaining %d, reset %v", i, d, limit-len(inWindow), reset)
		}
		if !want && d.RetryAfter != reset {
			t.Fatalf("request %d: retry after %v, want %v", i, d.RetryAfter, reset)
		}
	}
}

func TestMemoryDropsIdleKeys(t *testing.T) {
	clk := newFakeClock()
	m := NewMemory(clk)
	for i := range 1000 {
		_, _ = m.Allow(context.Background(), fmt.Sprint("old", i), 5)
	}
	if m.Len() != 1000 {
		t.Fatalf("remembers %d keys, want 1000", m.Len())
	}
	clk.Advance(2 * Window)
	for i := range 1000 {
		_, _ = m.Allow(context.Background(), fmt.Sprint("new", i), 5)
	}
	if m.Len() != 1000 {
		t.Fatalf("after a idle window remembers %d keys, want only the 1000 active ones", m.Len())
	}
}

func TestMemoryLimitChangeKeepsNewest(t *testing.T) {
	clk := newFakeClock()
	m := NewMemory(clk)
	for range 10 {
		_, _ = m.Allow(context.Background(), "k", FreeLimit)
		clk.Advance(time.Second)
	}
	// Upgraded: the ten requests still count against the larger limit.
	d, _ := m.Allow(context.Background(), "k", PremiumLimit)
	if !d.Allowed || d.Remaining != PremiumLimit-11 || d.Reset != Window-10*time.Second {
		t.Fatalf("after upgrade: %+v", d)
	}
	// Downgraded to 5: the 5 newest (sent 6 to 10 s after the first) are kept, so the window
	// is full until the one sent 4 s ago leaves it.
	d, _ = m.Allow(context.Background(), "k", 5)
	if d.Allowed || d.Remaining != 0 || d.RetryAfter != Window-4*time.Second {
		t.Fatalf("after downgrade: %+v, want refused for %v", d, Window-4*time.Second)
	}
}

func TestMemoryRejectsBadLimit(t *testing.T) {
	m := NewMemory(newFakeClock())
	for _, limit := range []int{0, -1} {
		if _, err := m.Allow(context.Background(), "k", limit); !errors.Is(err, ErrBadLimit) {
			t.Fatalf("limit %d: err %v, want ErrBadLimit", limit, err)
		}
	}
}
