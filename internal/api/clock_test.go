package api

import (
	"testing"
	"time"
)

// Reached is the first second at which the clock, as text, passes an event time: >= or >,
// with and without an offset after the time.
func TestReached(t *testing.T) {
	at := time.Date(2026, 10, 5, 19, 45, 0, 0, time.UTC)
	for _, c := range []struct {
		ts     string
		strict bool
		want   time.Time
	}{
		{"2026-10-05T19:45:00", false, at},
		{"2026-10-05T19:45:00", true, at.Add(time.Second)},
		{"2026-10-05T19:45:00+00:00", false, at.Add(time.Second)},
		{"2026-10-05T19:45:00+00:00", true, at.Add(time.Second)},
	} {
		got, ok := Reached(c.ts, c.strict)
		if !ok || !got.Equal(c.want) {
			t.Errorf("Reached(%q, %v) = %v %v, want %v", c.ts, c.strict, got, ok, c.want)
		}
		// The definition: the clock's text compares as the query does from then on, not before.
		cmp := func(now time.Time) bool {
			s := now.Format(TimestampLayout)
			if c.strict {
				return s > c.ts
			}
			return s >= c.ts
		}
		if !cmp(got) || cmp(got.Add(-time.Second)) {
			t.Errorf("Reached(%q, %v) = %v is not the first second that compares", c.ts, c.strict, got)
		}
	}
	for _, bad := range []string{"", "2026-10-05", "19:45:00 2026-10-05", "2026-13-05T19:45:00"} {
		if _, ok := Reached(bad, false); ok {
			t.Errorf("Reached(%q) accepted", bad)
		}
	}
}
