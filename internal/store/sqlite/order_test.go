package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// latestOfLeague is the query of a league's latest events up to a time, as the previous
// events of a league ask it.
func latestOfLeague(league, upTo string, limit int) store.Query {
	return store.Query{Kind: record.Event,
		Where: []store.Cond{{Field: "idLeague", Op: store.Eq, Value: league},
			{Field: "strTimestamp", Op: store.NotEmpty}, {Field: "strTimestamp", Op: store.Le, Value: upTo}},
		OrderBy: []store.Order{{Field: "strTimestamp", Desc: true}, {Field: "idEvent"}},
		Limit:   limit}
}

// Find names the index in time order for a league's latest events, reads no more than it
// needs in that order, and answers the right events, those that start together in id order.
// (SQLite's own choice at full scale, sorting the whole league, is in order.go; the
// statistics of this small table do not lead it there.)
func TestFindReadsLatestEventsInIndexOrder(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	// 12,000 events (enough for ANALYZE), 9 leagues of two seasons each, as the full-scale
	// dataset's statistics have them (1,364 events a league, 682 a season), kick-offs at 84
	// times of a season so that events start together.
	type ev struct{ id, league, ts string }
	var all []ev
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range 12000 {
			season := 2019 + i/9%2
			e := ev{strconv.Itoa(100000 - i*7%99991), strconv.Itoa(4000 + i%9),
				fmt.Sprintf("%d-%02d-%02dT%02d:00:00", season, 1+i%12, 1+i%28, 12+i%3)}
			all = append(all, e)
			r := record.Event.NewRecord()
			r.Set("idEvent", record.Str(e.id))
			r.Set("idLeague", record.Str(e.league))
			r.Set("strSeason", record.Str(strconv.Itoa(season)))
			r.Set("strTimestamp", record.Str(e.ts))
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	q := latestOfLeague("4001", "2020-06-01T12:00:00", 25)
	query, args := findSQL(t, s, q)
	if !strings.Contains(query, `INDEXED BY "event_c_idleague_c_strtimestamp"`) {
		t.Fatalf("statement %s names no index in time order", query)
	}
	plan := func(query string) string {
		t.Helper()
		rows, err := s.read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			out = append(out, detail)
		}
		return strings.Join(out, "; ")
	}
	if p := plan(query); !strings.Contains(p, "event_c_idleague_c_strtimestamp (c_idleague=? AND c_strtimestamp<?)") || strings.Contains(p, "TEMP B-TREE FOR ORDER BY") {
		t.Errorf("Find's plan: %s", p)
	}
	var want []string
	for _, e := range all {
		if e.league == "4001" && e.ts <= "2020-06-01T12:00:00" {
			want = append(want, e.ts+" "+e.id)
		}
	}
	slices.SortFunc(want, func(a, b string) int {
		ta, ia, _ := strings.Cut(a, " ")
		tb, ib, _ := strings.Cut(b, " ")
		return cmp.Or(-cmp.Compare(ta, tb), cmp.Compare(len(ia), len(ib)), cmp.Compare(ia, ib))
	})
	recs, err := s.Find(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Str("strTimestamp")+" "+r.Str("idEvent"))
	}
	if !slices.Equal(got, want[:25]) {
		t.Errorf("latest events\n got %v\nwant %v", got, want[:25])
	}
}

// The ordered index is chosen only where its leading columns are exactly the equality
// conditions' and the next is the first sort key's.
func TestOrderedIndexChoice(t *testing.T) {
	s := openTemp(t)
	ixs := s.ordered[record.Event]
	eq := func(f, v string) store.Cond { return store.Cond{Field: f, Op: store.Eq, Value: v} }
	byTime := []store.Order{{Field: "strTimestamp", Desc: true}, {Field: "idEvent"}}
	for _, c := range []struct {
		name string
		q    store.Query
		want string
	}{
		{"league, latest first", latestOfLeague("4328", "2026", 10), "event_c_idleague_c_strtimestamp"},
		{"venue, by time", store.Query{Where: []store.Cond{eq("idVenue", "1")}, OrderBy: byTime}, "event_c_idvenue_c_strtimestamp"},
		{"league season, by round", store.Query{Where: []store.Cond{eq("strSeason", "2025"), eq("idLeague", "1")},
			OrderBy: []store.Order{{Field: "intRound"}}}, "event_c_idleague_c_strseason_c_intround"},
		{"league season, by time: no such index", store.Query{Where: []store.Cond{eq("idLeague", "1"), eq("strSeason", "2025")}, OrderBy: byTime}, ""},
		{"home or away team", store.Query{Where: []store.Cond{{Or: []store.Cond{eq("idHomeTeam", "1"), eq("idAwayTeam", "1")}}}, OrderBy: byTime}, ""},
		{"no equality", store.Query{Where: []store.Cond{{Field: "strTimestamp", Op: store.Le, Value: "2026"}}, OrderBy: byTime}, ""},
		{"a value with NUL", store.Query{Where: []store.Cond{eq("idLeague", "1\x00")}, OrderBy: byTime}, ""},
		{"numeric sort", store.Query{Where: []store.Cond{eq("idLeague", "1"), eq("strSeason", "2025")},
			OrderBy: []store.Order{{Field: "intRound", Numeric: true}}}, ""},
		{"unsorted", store.Query{Where: []store.Cond{eq("idLeague", "1")}}, ""},
	} {
		c.q.Kind = record.Event
		if got := orderedIndex(ixs, c.q); got != c.want {
			t.Errorf("%s: index %q, want %q", c.name, got, c.want)
		}
		if _, _, err := sqlstore.SelectFrom(sqlstore.SQLite, c.q, fromOrdered(ixs, c.q)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Every kind's indexes were read, expressions cut off.
	for _, ix := range s.ordered[record.Event] {
		if ix.name == "event_c_dateevent_id" && !slices.Equal(ix.cols, []string{"c_dateevent"}) {
			t.Errorf("%s: columns %v, want the plain prefix [c_dateevent]", ix.name, ix.cols)
		}
	}
	if len(s.ordered[record.Team]) == 0 {
		t.Error("no index of team read")
	}
}
