// Package clock is the server's notion of now. SPORTSDB_NOW (RFC 3339) pins it, so tests,
// demos and the generator are reproducible.
package clock

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// Clock tells the time.
type Clock interface{ Now() time.Time }

// System is the real clock, in UTC.
type System struct{}

// Now returns the current UTC time.
func (System) Now() time.Time { return time.Now().UTC() }

// Fixed always tells the same time.
type Fixed time.Time

// Now returns the fixed time.
func (f Fixed) Now() time.Time { return time.Time(f).UTC() }

// FromEnv returns the clock that SPORTSDB_NOW asks for, or the system clock.
func FromEnv() (Clock, error) {
	v := os.Getenv("SPORTSDB_NOW")
	if v == "" {
		return System{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, fmt.Errorf("SPORTSDB_NOW=%q: want RFC 3339, like 2026-10-05T12:00:00Z: %w", v, err)
	}
	return Fixed(t), nil
}

// Manual is a clock that moves only when told to, safe for concurrent use (tests).
type Manual struct{ ns atomic.Int64 }

// NewManual returns a manual clock showing t.
func NewManual(t time.Time) *Manual {
	m := &Manual{}
	m.ns.Store(t.UnixNano())
	return m
}

// Now returns the clock's time, in UTC.
func (m *Manual) Now() time.Time { return time.Unix(0, m.ns.Load()).UTC() }

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) { m.ns.Add(int64(d)) }
