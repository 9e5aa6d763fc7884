package sqlite

import (
	"context"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// A capped search that finds its candidates in a trigram index checks and sorts them on the
// narrow index of its kind, and reads the docs of only the rows it keeps.
func TestCappedSearchSortsOnNarrowIndex(t *testing.T) {
	s := openTemp(t)
	fillNames(t, s, []string{"Madrid Arena", "Real Madrid", "Madrid Sur", "Atlético Madrid"})
	contains := func(f string, v string) store.Cond {
		return store.Cond{Field: f, Norm: record.Name, Op: store.Contains, Value: v}
	}
	listContains := func(f string, v string) store.Cond {
		return store.Cond{Field: f, Norm: record.List, Op: store.ListContains, Value: v}
	}
	byName := func(f string) []store.Order { return []store.Order{{Field: f, Norm: record.Name}} }
	for name, q := range map[string]store.Query{
		"player by name": {Kind: record.Player, Where: []store.Cond{contains("strPlayer", "madrid")}, OrderBy: byName("strPlayer"), Limit: 200},
		"team or alternate": {Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{
			contains("strTeam", "madrid"), listContains("strTeamAlternate", "madrid")}}}, OrderBy: byName("strTeam"), Limit: 100},
		"venue in stored order": {Kind: record.Venue, Where: []store.Cond{{Or: []store.Cond{
			contains("strVenue", "madrid"), listContains("strVenueAlternate", "madrid")}}}, Limit: 10},
		"channel": {Kind: record.TV, Where: []store.Cond{contains("strChannel", "madrid")}, Limit: 10},
	} {
		query, args := findSQL(t, s, q)
		plan := strings.Join(queryPlan(t, s, query, args), "; ")
		if !strings.Contains(plan, "COVERING INDEX "+q.Kind.Name+"_search") {
			t.Errorf("%s: the plan does not check the candidates on %s_search: %s", name, q.Kind.Name, plan)
		}
		if !strings.HasPrefix(query, "SELECT seq ") {
			t.Errorf("%s: the statement reads more than seqs: %s", name, query)
		}
	}
}

// The narrow index serves only searches whose every condition is a substring search: an
// equality, alone or in an OR, keeps its own index.
func TestNarrowIndexOnlyForSubstrings(t *testing.T) {
	eq := store.Cond{Field: "strTeam", Norm: record.Name, Op: store.Eq, Value: "madrid"}
	has := store.Cond{Field: "strTeamAlternate", Norm: record.List, Op: store.ListHas, Value: "madrid"}
	contains := store.Cond{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "madrid"}
	for _, c := range []struct {
		name string
		q    store.Query
		want bool
	}{
		{"contains, capped", store.Query{Kind: record.Team, Where: []store.Cond{contains}, Limit: 25}, true},
		{"contains or has", store.Query{Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{contains, has}}}, Limit: 25}, true},
		{"no cap", store.Query{Kind: record.Team, Where: []store.Cond{contains}}, false},
		{"equal or has", store.Query{Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{eq, has}}}, Limit: 25}, false},
		{"contains and equal", store.Query{Kind: record.Team, Where: []store.Cond{contains, eq}, Limit: 25}, false},
		{"contains from a day", store.Query{Kind: record.TV, Where: []store.Cond{
			{Field: "strChannel", Norm: record.Name, Op: store.Contains, Value: "sky"}, {Field: "dateEvent", Op: store.Ge, Value: "2026-01-01"}}, Limit: 25}, false},
		{"sorted on a column it lacks", store.Query{Kind: record.Team, Where: []store.Cond{contains},
			OrderBy: []store.Order{{Field: "idTeam"}}, Limit: 25}, false},
		{"a kind without one", store.Query{Kind: record.Event, Where: []store.Cond{
			{Field: "strEvent", Norm: record.Name, Op: store.Contains, Value: "madrid"}}, Limit: 25}, false},
	} {
		if _, got := seqIndex(c.q); got != c.want {
			t.Errorf("%s: narrow index %v, want %v", c.name, got, c.want)
		}
	}
}

// fillNames stores one record of every kind with a trigram index per name, the name in
// every searched field.
func fillNames(t *testing.T, s *Store, names []string) {
	t.Helper()
	ctx := context.Background()
	err := s.Write(ctx, func(tx store.Tx) error {
		for i, n := range names {
			for k := range ftsColumns {
				r := k.NewRecord()
				r.Set(k.Key[0], record.Str(string(rune('a'+i))))
				for _, ix := range ftsIndexes(k) {
					r.Set(ix.Field, record.Str(n))
				}
				if err := tx.Upsert(ctx, r); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
