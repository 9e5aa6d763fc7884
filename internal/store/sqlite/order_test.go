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
	writeEvents(t, s, 12000, func(i int) map[string]string {
		season := 2019 + i/9%2
		e := ev{strconv.Itoa(100000 - i*7%99991), strconv.Itoa(4000 + i%9),
			fmt.Sprintf("%d-%02d-%02dT%02d:00:00", season, 1+i%12, 1+i%28, 12+i%3)}
		all = append(all, e)
		return map[string]string{"idEvent": e.id, "idLeague": e.league, "strSeason": strconv.Itoa(season), "strTimestamp": e.ts}
	})
	q := latestOfLeague("4001", "2020-06-01T12:00:00", 25)
	query, args := findSQL(t, s, q)
	if !strings.Contains(query, `INDEXED BY "event_c_idleague_c_strtimestamp"`) {
		t.Fatalf("statement %s names no index in time order", query)
	}
	plan := func(query string) string { return strings.Join(queryPlan(t, s, query, args), "; ") }
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

// teamEvents is the query of a team's events at home or away, as the previous and next
// events of a team ask it, with the conditions on strTimestamp given.
func teamEvents(team string, desc bool, limit int, times ...store.Cond) store.Query {
	eq := func(f string) store.Cond { return store.Cond{Field: f, Op: store.Eq, Value: team} }
	return store.Query{Kind: record.Event,
		Where:   append([]store.Cond{{Or: []store.Cond{eq("idHomeTeam"), eq("idAwayTeam")}}}, times...),
		OrderBy: []store.Order{{Field: "strTimestamp", Desc: desc}, {Field: "idEvent"}},
		Limit:   limit}
}

// A team's events with a limit are read per branch, each on its index alone, and answer
// what the whole read and sort answers: the same events in the same order, those that start
// together in id order, at every limit, either way, with events a team plays against itself
// and events without a time.
func TestFindReadsTeamEventsPerBranch(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	type ev struct{ id, home, away, ts string }
	var all []ev
	writeEvents(t, s, 3000, func(i int) map[string]string {
		// 12 teams, 40 kick-off times: many events of a team start together.
		e := ev{strconv.Itoa(90000 - i*13%8999), strconv.Itoa(100 + i%12), strconv.Itoa(100 + i*5%12),
			fmt.Sprintf("2026-%02d-%02dT%02d:00:00", 1+i%10, 1+i%4, 12+i%3)}
		if i%97 == 0 {
			e.ts = ""
		}
		all = append(all, e)
		return map[string]string{"idEvent": e.id, "idHomeTeam": e.home, "idAwayTeam": e.away, "strTimestamp": e.ts}
	})
	const now = "2026-05-03T13:00:00"
	upTo := []store.Cond{{Field: "strTimestamp", Op: store.NotEmpty}, {Field: "strTimestamp", Op: store.Le, Value: now}}
	after := []store.Cond{{Field: "strTimestamp", Op: store.NotEmpty}, {Field: "strTimestamp", Op: store.Gt, Value: now}}
	for _, team := range []string{"100", "104", "111", "999"} {
		for _, limit := range []int{1, 2, 10, 37, 400, 3000} {
			for _, c := range []struct {
				name  string
				desc  bool
				times []store.Cond
				keep  func(ts string) bool
			}{
				{"previous", true, upTo, func(ts string) bool { return ts != "" && ts <= now }},
				{"next", false, after, func(ts string) bool { return ts != "" && ts > now }},
				{"all, latest first", true, nil, func(string) bool { return true }},
			} {
				q := teamEvents(team, c.desc, limit, c.times...)
				query, _ := findSQL(t, s, q)
				if !strings.Contains(query, "UNION ALL") {
					t.Fatalf("%s: statement %s does not read per branch", c.name, query)
				}
				var want []ev
				for _, e := range all {
					if (e.home == team || e.away == team) && c.keep(e.ts) {
						want = append(want, e)
					}
				}
				slices.SortFunc(want, func(a, b ev) int {
					byTime := cmp.Compare(a.ts, b.ts)
					if c.desc {
						byTime = -byTime
					}
					return cmp.Or(byTime, cmp.Compare(len(a.id), len(b.id)), cmp.Compare(a.id, b.id))
				})
				want = want[:min(limit, len(want))]
				recs, err := s.Find(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]ev, len(recs))
				for i, r := range recs {
					got[i] = ev{r.Str("idEvent"), r.Str("idHomeTeam"), r.Str("idAwayTeam"), r.Str("strTimestamp")}
				}
				if !slices.Equal(got, want) {
					t.Errorf("team %s, %s, limit %d:\n got %v\nwant %v", team, c.name, limit, got, want)
				}
			}
		}
	}
	// Each branch reads its index alone.
	query, args := findSQL(t, s, teamEvents("104", true, 10, upTo...))
	p := strings.Join(queryPlan(t, s, query, args), "; ")
	for _, ix := range []string{"event_c_idhometeam_c_strtimestamp", "event_c_idawayteam_c_strtimestamp"} {
		if strings.Count(p, "COVERING INDEX "+ix) != 2 {
			t.Errorf("plan %s: %s not read on its own twice", p, ix)
		}
	}
	if strings.Contains(p, "MULTI-INDEX OR") {
		t.Errorf("plan %s reads every row of the team", p)
	}
}

// Only a limited query whose Or's branches each have an index in the first sort key's order,
// and whose other conditions are on that key, is read per branch.
func TestBranchIndexChoice(t *testing.T) {
	s := openTemp(t)
	ixs := s.ordered[record.Event]
	eq := func(f, v string) store.Cond { return store.Cond{Field: f, Op: store.Eq, Value: v} }
	team := store.Cond{Or: []store.Cond{eq("idHomeTeam", "1"), eq("idAwayTeam", "1")}}
	byTime := []store.Order{{Field: "strTimestamp", Desc: true}, {Field: "idEvent"}}
	upTo := store.Cond{Field: "strTimestamp", Op: store.Le, Value: "2026"}
	for _, c := range []struct {
		name string
		q    store.Query
		want bool
	}{
		{"team's latest", teamEvents("1", true, 10, upTo), true},
		{"team's all, capped", store.Query{Where: []store.Cond{team}, OrderBy: byTime, Limit: 100}, true},
		{"no limit", store.Query{Where: []store.Cond{team, upTo}, OrderBy: byTime}, false},
		{"another condition", store.Query{Where: []store.Cond{team, eq("idLeague", "4")}, OrderBy: byTime, Limit: 10}, false},
		{"a search on the sort key", store.Query{Where: []store.Cond{team, {Field: "strTimestamp", Op: store.Contains, Value: "2026"}}, OrderBy: byTime, Limit: 10}, false},
		{"two Ors", store.Query{Where: []store.Cond{team, team}, OrderBy: byTime, Limit: 10}, false},
		{"no Or", store.Query{Where: []store.Cond{eq("idHomeTeam", "1")}, OrderBy: byTime, Limit: 10}, false},
		{"a branch not an equality", store.Query{Where: []store.Cond{{Or: []store.Cond{eq("idHomeTeam", "1"), {Field: "idAwayTeam", Op: store.Ge, Value: "1"}}}}, OrderBy: byTime, Limit: 10}, false},
		{"a branch without an index in order", store.Query{Where: []store.Cond{{Or: []store.Cond{eq("idHomeTeam", "1"), eq("strSeason", "2025")}}}, OrderBy: byTime, Limit: 10}, false},
		{"a value with NUL", store.Query{Where: []store.Cond{{Or: []store.Cond{eq("idHomeTeam", "1\x00"), eq("idAwayTeam", "1")}}}, OrderBy: byTime, Limit: 10}, false},
		{"numeric sort", store.Query{Where: []store.Cond{team}, OrderBy: []store.Order{{Field: "strTimestamp", Numeric: true}}, Limit: 10}, false},
		{"unsorted", store.Query{Where: []store.Cond{team}, Limit: 10}, false},
		{"no kind", store.Query{Where: []store.Cond{team}, OrderBy: byTime, Limit: 10}, false},
	} {
		if c.name != "no kind" {
			c.q.Kind = record.Event
		}
		or, from, ok := branchIndexes(ixs, c.q)
		if ok != c.want {
			t.Errorf("%s: per branch %v, want %v", c.name, ok, c.want)
			continue
		}
		if ok {
			if _, _, err := sqlstore.SelectBranches(sqlstore.SQLite, c.q, or, from); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
	}
}

// writeEvents stores n events in one write, the fields of the i-th from event(i).
func writeEvents(t *testing.T, s *Store, n int, event func(i int) map[string]string) {
	t.Helper()
	ctx := context.Background()
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range n {
			r := record.Event.NewRecord()
			for f, v := range event(i) {
				r.Set(f, record.Str(v))
			}
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
