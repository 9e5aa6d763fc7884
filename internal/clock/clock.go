// Package clock is the server's notion of now. SPORTSDB_NOW (RFC 3339) pins it, so tests,
// demos and the generator are reproducible.
package clock

import (
	"fmt"
	"os"
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
