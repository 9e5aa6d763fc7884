package api

import (
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Next and previous events, on both versions. The boundary is the kick-off: an event whose
// strTimestamp is now has started, so it is a previous event, not a next one. The recorded
// live scores (testdata/recorded, 5 October 2026) show it: every event whose start time had
// been reached was in play, with a status and minutes; only later ones were "NS" (not
// started), the status every recorded next event has.

// hasTime keeps events without a strTimestamp out: "" sorts before any time.
var hasTime = store.Cond{Field: "strTimestamp", Op: store.NotEmpty}

// NextEvents answers the events of a selection that start after now, soonest first. The
// answer stands until the first of them starts.
func (r *Request) NextEvents(sel store.Cond) ([]record.Record, error) {
	recs, err := r.Find(r.upcoming(sel, r.Timestamp(), 0))
	if err == nil {
		UntilStarts(r.Ctx, recs, false)
	}
	return recs, err
}

// PreviousEvents answers the events of a selection that started at or before now, latest
// first. The answer stands until the next event of the selection starts.
func (r *Request) PreviousEvents(sel store.Cond) ([]record.Record, error) {
	now := r.Timestamp()
	recs, err := r.Find(Sorted(Where(sel, hasTime, Compare("strTimestamp", store.Le, now)), LatestFirst...))
	if err != nil {
		return nil, err
	}
	first, err := r.Find(r.upcoming(sel, now, 1))
	if err != nil {
		return nil, err
	}
	UntilStarts(r.Ctx, first, false)
	return recs, nil
}

func (r *Request) upcoming(sel store.Cond, now string, limit int) store.Query {
	q := Sorted(Where(sel, hasTime, Compare("strTimestamp", store.Gt, now)), SoonestFirst...)
	q.Limit = limit
	return q
}
