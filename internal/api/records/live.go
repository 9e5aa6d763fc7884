package records

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// LiveKept is how long a live score entry keeps an event's final state (finished,
// postponed, cancelled, ...) before Sweep deletes it.
const LiveKept = 2 * time.Hour

// updatedLayout is the live score entry's "updated": "2026-10-05 20:30:31", UTC.
const updatedLayout = "2006-01-02 15:04:05"

// inPlay are the strStatus codes of an event being played (docs/CONTRACT.md section 8).
var inPlay = codes("1H HT 2H ET BT P PT Q1 Q2 Q3 Q4 OT P1 P2 P3 SO " +
	"IN1 IN2 IN3 IN4 IN5 IN6 IN7 IN8 IN9 S1 S2 S3 S4 S5")

// notStarted are the codes of an event not (or no longer) under way: an entry of it goes.
var notStarted = codes("NS TBD")

func codes(s string) map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(s) {
		m[c] = true
	}
	return m
}

// keepLiveScore keeps the live score entry of an event written, in the write's transaction.
// The entry's idLiveScore is the event's id: one entry per event, and an entry of the
// server's is one whose idLiveScore equals its idEvent (an imported entry that happens to
// have that id is left alone). An in-play event has its entry created or brought up to date;
// any other code but not started keeps an existing entry's final state, with "updated" the
// time of the write, until Sweep deletes it LiveKept later; not started (NS, TBD, no status)
// deletes it.
func keepLiveScore(ctx context.Context, tx store.Tx, named *namedRecords, now time.Time, ev record.Record, progress string) error {
	id := ev.Str("idEvent")
	cur, exists, err := hold(ctx, tx, record.LiveScore, id)
	if err != nil {
		return err
	}
	if exists && cur.Str("idEvent") != id {
		return nil
	}
	status := strings.TrimSpace(ev.Str("strStatus"))
	switch {
	case inPlay[status]:
	case !exists:
		return nil
	case status == "" || notStarted[status]:
		return tx.(store.HoldTx).Delete(ctx, record.LiveScore, id)
	}
	if progress == "" && exists {
		progress = cur.Str("strProgress")
	}
	entry, err := liveEntry(ctx, named, ev, progress, now)
	if err != nil {
		return err
	}
	return tx.Replace(ctx, entry)
}

// liveEntry is the live score entry of an event, in the public service's shape: its
// teams, league (with the league's intDivision), scores, status and progress, its kick-off
// (strTimestamp, dateEvent, strEventTime "19:00") and updated.
func liveEntry(ctx context.Context, named *namedRecords, ev record.Record, progress string, now time.Time) (record.Record, error) {
	league, err := named.read(ctx, record.League, ev.Str("idLeague"))
	if err != nil {
		return record.Record{}, err
	}
	e := record.LiveScore.NewRecord()
	copyFields(e, ev, "idEvent", "strSport", "idLeague", "strLeague", "idHomeTeam", "idAwayTeam", "strHomeTeam",
		"strAwayTeam", "strHomeTeamBadge", "strAwayTeamBadge", "intHomeScore", "intAwayScore", "strStatus",
		"strTimestamp", "dateEvent")
	e.Set("idLiveScore", ev.Get("idEvent"))
	fill(e, "intDivision", league.Str("intDivision"))
	fill(e, "strProgress", progress)
	if d, err := parseClock(ev.Str("strTime")); err == nil {
		e.Set("strEventTime", record.Str(time.Time{}.Add(d).Format("15:04")))
	}
	e.Set("updated", record.Str(now.UTC().Format(updatedLayout)))
	return e, nil
}

func copyFields(dst, src record.Record, fields ...string) {
	for _, f := range fields {
		if v := src.Get(f); !v.Empty() {
			dst.Set(f, v)
		}
	}
}

// Sweep deletes the live score entries the server keeps whose event ended (a code neither
// in play nor not started) at least LiveKept before now, by "updated". Each is held and
// read again before it goes, so replicas sweeping at once delete each entry once, and an
// entry an event write brought back into play meanwhile stays. It answers how many it
// deleted.
func Sweep(ctx context.Context, st store.Records, now time.Time) (int, error) {
	var due []string
	err := st.Scan(ctx, record.LiveScore, func(r record.Record) error {
		if expired(r, now) {
			due = append(due, r.Str("idLiveScore"))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("records: sweep live scores: %w", err)
	}
	n := 0
	for _, id := range due {
		deleted := false
		err := st.Write(ctx, func(tx store.Tx) error {
			cur, exists, err := hold(ctx, tx, record.LiveScore, id)
			if err != nil || !exists || !expired(cur, now) {
				return err
			}
			err = tx.(store.HoldTx).Delete(ctx, record.LiveScore, id)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			deleted = err == nil
			return err
		})
		if err != nil {
			return n, fmt.Errorf("records: sweep live score %s: %w", id, err)
		}
		if deleted {
			n++
		}
	}
	return n, nil
}

// expired says whether a live score entry is the server's, ended, and updated at least
// LiveKept before now.
func expired(r record.Record, now time.Time) bool {
	status := strings.TrimSpace(r.Str("strStatus"))
	if r.Str("idLiveScore") != r.Str("idEvent") || inPlay[status] || notStarted[status] {
		return false
	}
	at, err := time.Parse(updatedLayout, r.Str("updated"))
	return err == nil && !now.Before(at.Add(LiveKept))
}

// SweepEvery runs Sweep at once and at every tick until ctx ends, on the data clock now,
// reporting failures to fail (a database down is tried again at the next tick). A tick is
// taken only after the sweep before it has ended.
func SweepEvery(ctx context.Context, st store.Records, now func() time.Time, ticks <-chan time.Time, fail func(error)) {
	for {
		if _, err := Sweep(ctx, st, now()); err != nil && ctx.Err() == nil {
			fail(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
	}
}

// takeProgress takes an event's strProgress (the minute, or "Final") out of a body: the
// event does not keep it, its live score entry does.
func takeProgress(kind *record.Kind, members []member) ([]member, string) {
	if kind != record.Event {
		return members, ""
	}
	kept, progress := members[:0:0], ""
	for _, m := range members {
		if m.name == "strProgress" && m.problem == "" {
			progress = m.value.S
			continue
		}
		kept = append(kept, m)
	}
	return kept, progress
}

// onDelete removes, with an event, the live score entry the server kept of it: nothing else
// is cascaded, but no one else writes that entry.
func onDelete(ctx context.Context, tx store.Tx, kind *record.Kind, id string) error {
	if kind != record.Event {
		return nil
	}
	cur, exists, err := hold(ctx, tx, record.LiveScore, id)
	if err != nil || !exists || cur.Str("idEvent") != id {
		return err
	}
	return tx.(store.HoldTx).Delete(ctx, record.LiveScore, id)
}
