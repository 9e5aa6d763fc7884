package match_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"sportsdb/internal/match"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// queries is a store that records the event queries it is asked.
type queries struct {
	store.Store
	events []store.Query
}

func (q *queries) Find(ctx context.Context, query store.Query) ([]record.Record, error) {
	if query.Kind == record.Event {
		q.events = append(q.events, query)
	}
	return q.Store.Find(ctx, query)
}

// A read of the events on the days a name gives is bounded by their start time, so that the
// indexes of a team's and a league's events, ordered by start time, read those days' events
// alone and not every event of the team or league (at full scale, a league's thousands): the
// read of the events that have no start time aside.
func TestEventsOfTheDaysAreReadWithinTheirTimes(t *testing.T) {
	rec, _, g := findFirstGame(t, func(g game) string {
		return g.league + " " + g.day.Format("2006-01-02") + " " + g.home + " vs " + g.away + ".mkv"
	})
	bounded := 0
	for _, q := range rec.events {
		if !onDates(q) {
			continue
		}
		from, to, untimed := timeBounds(q)
		switch {
		case untimed:
		case from != "" && to != "":
			bounded++
			if lo, hi := g.day.AddDate(0, 0, -3).Format(time.DateOnly), g.day.AddDate(0, 0, 4).Format(time.DateOnly); from > lo || to < hi {
				t.Errorf("events read from %s to before %s, want at least %s to %s: %+v", from, to, lo, hi, q.Where)
			}
		default:
			t.Errorf("events of the days read without bounds on their start: %+v", q.Where)
		}
	}
	if bounded < 2 {
		t.Errorf("%d bounded reads of the days' events, want the teams' and the league's: %+v", bounded, rec.events)
	}
}

// An event without a start time, or whose start in UTC is a day after its date, is still
// found by its date, also from a name two days off.
func TestEventsOfTheDaysWithoutOrBesideTheirTime(t *testing.T) {
	for _, tt := range []struct {
		name  string
		stamp func(day time.Time) record.Value
	}{
		{"no start time", func(time.Time) record.Value { return record.Null }},
		{"empty start time", func(time.Time) record.Value { return record.Str("") }},
		{"start on the next day in UTC", func(day time.Time) record.Value {
			return record.Str(day.AddDate(0, 0, 1).Format("2006-01-02") + "T01:30:00")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st := openDemo(t, "demo")
			w := readWorld(t, st)
			ev := firstGame(t, w)
			g := w.game(ev)
			changed := ev.Clone()
			changed.Set("strTimestamp", tt.stamp(g.day))
			if err := st.Write(ctx, func(tx store.Tx) error { return tx.Replace(ctx, changed) }); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{
				g.league + " " + g.day.Format("2006-01-02") + " " + g.home + " vs " + g.away + ".mkv",
				g.home + " vs " + g.away + " " + g.day.Format("2006.01.02") + ".mkv",
				g.home + " vs " + g.away + " " + g.day.AddDate(0, 0, -2).Format("2006-01-02") + ".mkv", // two days off
			} {
				rs, err := match.Find(ctx, st, name)
				if err != nil {
					t.Fatal(err)
				}
				if !hit(rs, ev.Str("idEvent"), 1) {
					t.Errorf("%s: got %s, want event %s", name, describe(rs), ev.Str("idEvent"))
				}
			}
		})
	}
}

// findFirstGame matches the name nameOf gives the first game of the demo dataset
// (firstGame) on a store that records the event queries it is asked, and fails the test
// unless that game ranks first.
func findFirstGame(t *testing.T, nameOf func(game) string) (*queries, record.Record, game) {
	t.Helper()
	st := openDemo(t, "demo")
	w := readWorld(t, st)
	ev := firstGame(t, w)
	g := w.game(ev)
	rec := &queries{Store: st}
	name := nameOf(g)
	rs, err := match.Find(context.Background(), rec, name)
	if err != nil {
		t.Fatal(err)
	}
	if !hit(rs, ev.Str("idEvent"), 1) {
		t.Fatalf("%s: got %s, want event %s", name, describe(rs), ev.Str("idEvent"))
	}
	return rec, ev, g
}

// firstGame is the first event of the demo dataset between two teams of the English
// Premier League.
func firstGame(t *testing.T, w world) record.Record {
	t.Helper()
	for _, ev := range w.events {
		if ev.Str("idLeague") == "4328" && ev.Str("idHomeTeam") != "" && ev.Str("dateEvent") != "" {
			return ev
		}
	}
	t.Fatal("no game of league 4328 in the demo dataset")
	return record.Record{}
}

// onDates says a query selects events by their date.
func onDates(q store.Query) bool {
	return slices.ContainsFunc(q.Where, func(c store.Cond) bool {
		return c.Field == "dateEvent" || slices.ContainsFunc(c.Or, func(a store.Cond) bool { return a.Field == "dateEvent" })
	})
}

// timeBounds are a query's bounds on the events' start, and whether it reads the events
// without one.
func timeBounds(q store.Query) (from, to string, untimed bool) {
	for _, c := range q.Where {
		if c.Field != "strTimestamp" {
			continue
		}
		switch c.Op {
		case store.Ge:
			from = c.Value
		case store.Lt:
			to = c.Value
		case store.Eq:
			untimed = c.Value == ""
		}
	}
	return from, to, untimed
}

// A name without a day reads the games of the pairs of teams found that fit it best, home
// team by home team, a few games of each pair, the latest first: not every game between
// every team found (at full scale, the teams a common word names met hundreds of times).
func TestGamesWithoutADayAreReadPairByPair(t *testing.T) {
	rec, ev, _ := findFirstGame(t, func(g game) string {
		return g.league + " " + g.season + " Round " + g.round + " " + g.home + " vs " + g.away + ".mkv"
	})
	first := rec.events[0]
	if home := first.Where[0]; home.Field != "idHomeTeam" || home.Op != store.Eq || home.Value != ev.Str("idHomeTeam") {
		t.Errorf("first read %+v, want the games of home team %s", first.Where, ev.Str("idHomeTeam"))
	}
	for _, q := range rec.events {
		aways := 0
		for _, c := range q.Where {
			if len(c.Or) > 0 && c.Or[0].Field == "idAwayTeam" {
				aways = len(c.Or)
			}
		}
		if q.Where[0].Field != "idHomeTeam" || len(q.Where[0].Or) > 0 || aways == 0 || q.Limit > match.Max*aways {
			t.Errorf("games read %+v (limit %d), want one home team's against a few, at most %d a pair", q.Where, q.Limit, match.Max)
		}
	}
}
