package clock

import (
	"context"
	"time"
)

// A Watch follows the computation of one answer and records whether it read the clock and,
// if it did, until when the answer stays right as the clock moves on. The response cache
// keeps an answer that never read the clock until the data changes, and one that did until
// the instant its computation declared with Until; a reading with no declaration after it
// gets the cache's short default lifetime.
//
// A Watch belongs to one computation and is not safe for concurrent use.
type Watch struct {
	reads, settled int
	until          time.Time // the earliest instant declared; zero: none
}

type watchKey struct{}

// Watching returns ctx carrying a new Watch, and the Watch.
func Watching(ctx context.Context) (context.Context, *Watch) {
	w := &Watch{}
	return context.WithValue(ctx, watchKey{}, w), w
}

// Read returns c's time, noting in ctx's Watch, if any, that the answer depends on it. The
// computation then declares with Until how long what it read stays right.
func Read(ctx context.Context, c Clock) time.Time {
	if w, ok := ctx.Value(watchKey{}).(*Watch); ok {
		w.reads++
	}
	return c.Now()
}

// Until declares, for the last reading, that the answer computed from it stays right until
// t: at t and later it may differ. A zero t declares that it stays right for as long as the
// data does not change.
func Until(ctx context.Context, t time.Time) {
	w, ok := ctx.Value(watchKey{}).(*Watch)
	if !ok {
		return
	}
	w.settled++
	if !t.IsZero() && (w.until.IsZero() || t.Before(w.until)) {
		w.until = t
	}
}

// Expiry reports what the computation declared. bound is false when it never read the
// clock. Otherwise known is false when a reading was left without a declaration, and until
// is the earliest instant declared, zero when every reading stays right until the data
// changes.
func (w *Watch) Expiry() (until time.Time, bound, known bool) {
	return w.until, w.reads > 0, w.settled >= w.reads
}

// NextMidnight is the first instant of the UTC day after t's: when answers about "today"
// change.
func NextMidnight(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}
