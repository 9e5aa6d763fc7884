package ratelimit

import (
	"context"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit/window"
)

// Memory is the in-process limiter: an exact rolling window per id (see package window) of
// the requests it admitted. Ids idle for a whole Window are forgotten, so memory follows the
// ids active in the last minute.
type Memory struct {
	clk clock.Clock
	log *window.Log
}

// NewMemory returns an empty in-memory limiter reading time from clk.
func NewMemory(clk clock.Clock) *Memory {
	return &Memory{clk: clk, log: window.New(window.Options{Window: Window})}
}

// Allow counts one request of id against limit.
func (m *Memory) Allow(_ context.Context, id string, limit int) (Decision, error) {
	if err := checkLimit(limit); err != nil {
		return Decision{}, err
	}
	now := m.clk.Now().UnixNano()
	c := m.log.Add(id, limit, now, false)
	d := Decision{Limit: limit, Allowed: c.Added, Remaining: limit - c.N}
	d.Reset = durationNanos(c.Oldest + int64(Window) - now)
	if !d.Allowed {
		d.RetryAfter = d.Reset
	}
	return d, nil
}

// Healthy reports the in-memory limiter's state for health details; it is always up.
func (m *Memory) Healthy() (bool, string) { return true, "in memory (this replica only)" }

// Len returns how many ids are remembered.
func (m *Memory) Len() int { return m.log.Len() }

func durationNanos(ns int64) time.Duration {
	if ns < 0 {
		return 0
	}
	// A wall clock that stepped back must not promise a wait longer than the window.
	return min(time.Duration(ns), Window)
}
