package api

import (
	"context"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
)

// TimestampLayout is the form of Event.strTimestamp: next and previous events compare the
// clock, formatted so, with it as text.
const TimestampLayout = "2006-01-02T15:04:05"

// Reached is the first instant at which the clock, as text in TimestampLayout, compares
// greater than or equal to ts (greater than, when strict). ok is false when ts does not
// start with a time in that layout.
func Reached(ts string, strict bool) (at time.Time, ok bool) {
	if len(ts) < len(TimestampLayout) {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(TimestampLayout, ts[:len(TimestampLayout)], time.UTC)
	if err != nil {
		return time.Time{}, false
	}
	// A longer ts (an offset after the time) sorts after its first 19 characters alone.
	if strict || len(ts) > len(TimestampLayout) {
		t = t.Add(time.Second)
	}
	return t, true
}

// UntilStarts declares to the clock watch of ctx that an answer stays right until the first
// of events (in time order) is reached, as Reached(strict) tells, or, with no events, for as
// long as the data does not change. An event without a readable time declares nothing, which
// leaves the answer the cache's short default lifetime.
func UntilStarts(ctx context.Context, events []record.Record, strict bool) {
	if len(events) == 0 {
		clock.Until(ctx, time.Time{})
		return
	}
	if at, ok := Reached(events[0].Str("strTimestamp"), strict); ok {
		clock.Until(ctx, at)
	}
}
