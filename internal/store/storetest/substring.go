package storetest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// searchTeams hold names that are hard on a substring index: folded accents, LIKE
// wildcards, quotes, a backslash, letters beyond ASCII, repeated text and list items.
func searchTeams() []record.Record {
	return []record.Record{
		Rec(record.Team, "idTeam", "1", "strTeam", "Atlético Madrid", "strTeamAlternate", "Atleti, Colchoneros"),
		Rec(record.Team, "idTeam", "2", "strTeam", "Real Madrid", "strTeamAlternate", "Los Blancos,Merengues"),
		Rec(record.Team, "idTeam", "3", "strTeam", "100% Club", "strTeamAlternate", "Ciento_Por_Ciento"),
		Rec(record.Team, "idTeam", "4", "strTeam", `O'Neill "The Boys" FC`, "strTeamAlternate", `Quote's,"Dq"`),
		Rec(record.Team, "idTeam", "5", "strTeam", `Back\Slash United`, "strTeamAlternate", `a\b,madrid b`),
		Rec(record.Team, "idTeam", "6", "strTeam", "Fußball Straße", "strTeamAlternate", "東京 ヴェルディ,Tōkyō"),
		Rec(record.Team, "idTeam", "7", "strTeam", "Madridista Madrid", "strTeamAlternate", ""),
		Rec(record.Team, "idTeam", "8", "strTeam", "1000 Lakes", "strTeamAlternate", "Mad,Rid"),
		Rec(record.Team, "idTeam", "9", "strTeam", "Ab", "strTeamAlternate", "ab,abc"),
		Rec(record.Team, "idTeam", "10", "strTeam", "ÅLESUND", "strTeamAlternate", "aalesund,ålesund fk"),
	}
}

// searchNeedles are the searched values: 1 and 2 characters (a scan on every store), longer
// ones (an index where there is one), text with wildcards, quotes and spaces.
var searchNeedles = []string{
	"a", "ab", "d", "100", "100%", "%", "0%", "%c", "_", "por_c", "por c", "madrid", "MADRID", "drid ma",
	"atlético", "tleti", "o'neill", `"the boys"`, `"`, `"dq"`, "quote's", `\`, `k\s`, `a\b`, "fussball",
	"straße", "東京", "東京 ヴ", "tokyo", "ålesund", "alesund", "lesu", "mad,rid", "d,ri", "abc", "zzz",
	"blancos", "los blancos", "blancos,merengues", " madrid", "madrid ", "   madrid   ",
}

// testSubstring compares every substring search with what a scan of the records answers:
// stored order (or folded name order, ties in stored order), the limit, and folding.
func testSubstring(t *testing.T, s store.Store) {
	recs := searchTeams()
	put(t, s, recs...)
	checkSubstring(t, s, recs)
}

func checkSubstring(t *testing.T, s store.Store, recs []record.Record) {
	t.Helper()
	byName := []store.Order{{Field: "strTeam", Norm: record.Name}}
	for _, needle := range searchNeedles {
		name := op("strTeam", record.Name, store.Contains, needle)
		part := op("strTeamAlternate", record.List, store.ListContains, needle)
		item := op("strTeamAlternate", record.List, store.ListHas, needle)
		for what, q := range map[string]store.Query{
			"contains":      {Kind: record.Team, Where: []store.Cond{name}},
			"list contains": {Kind: record.Team, Where: []store.Cond{part}},
			"list has":      {Kind: record.Team, Where: []store.Cond{item}},
			"either, by name, limit 2": {Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{name, part}}},
				OrderBy: byName, Limit: 2},
			"contains, limit 2": {Kind: record.Team, Where: []store.Cond{name}, Limit: 2},
			"list has, limit 1": {Kind: record.Team, Where: []store.Cond{item}, Limit: 1},
			"by name, limit 3":  {Kind: record.Team, Where: []store.Cond{name}, OrderBy: byName, Limit: 3},
			"by id, last first, limit 2": {Kind: record.Team, Where: []store.Cond{name},
				OrderBy: []store.Order{{Field: "idTeam", Desc: true}}, Limit: 2},
		} {
			wantIDs(t, what+" "+needle, find(t, s, q), scanIDs(t, recs, q)...)
		}
	}
}

// scanIDs answers a query of searchTeams in Go, the way a table scan with LIKE does.
func scanIDs(t *testing.T, recs []record.Record, q store.Query) []string {
	t.Helper()
	var hits []record.Record
	for _, r := range recs {
		if matchesAll(r, q.Where) {
			hits = append(hits, r)
		}
	}
	if len(q.OrderBy) > 0 {
		o := q.OrderBy[0]
		key := func(r record.Record) string { return record.Fold(r.Str(o.Field)) }
		if o.Norm == record.Exact { // an id: its numeric order
			key = func(r record.Record) string { return fmt.Sprintf("%020s", r.Str(o.Field)) }
		}
		slices.SortStableFunc(hits, func(a, b record.Record) int {
			if o.Desc {
				return cmp.Compare(key(b), key(a))
			}
			return cmp.Compare(key(a), key(b))
		})
	}
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return ids(t, hits)
}

func matchesAll(r record.Record, conds []store.Cond) bool {
	for _, c := range conds {
		if len(c.Or) > 0 {
			if !slices.ContainsFunc(c.Or, func(sub store.Cond) bool { return matchesAll(r, []store.Cond{sub}) }) {
				return false
			}
			continue
		}
		v := record.Fold(c.Value)
		switch c.Op {
		case store.Contains:
			if !strings.Contains(record.Fold(r.Str(c.Field)), v) {
				return false
			}
		case store.ListContains, store.ListHas:
			if c.Op == store.ListHas {
				v = "," + v + ","
			}
			if v == ",," || strings.Contains(strings.Trim(v, ","), ",") || !strings.Contains(record.FoldList(r.Str(c.Field)), v) {
				return false
			}
		}
	}
	return true
}

// testSubstringWrites checks that a search follows renames, replaces, deletes and rollbacks:
// a store that keeps a substring index must keep it in step with its table.
func testSubstringWrites(t *testing.T, s store.Store) {
	ctx := context.Background()
	recs := searchTeams()
	put(t, s, recs...)
	renamed := Rec(record.Team, "idTeam", "2", "strTeam", "Royal Madrileño", "strTeamAlternate", "Merengues")
	put(t, s, renamed, Rec(record.Team, "idTeam", "7", "strSport", "Soccer"))
	replaced := Rec(record.Team, "idTeam", "1", "strTeam", "Colchoneros Club")
	err := s.Write(ctx, func(tx store.Tx) error { return tx.Replace(ctx, replaced) })
	if err != nil {
		t.Fatal(err)
	}
	recs[0], recs[1] = replaced, record.Merge(recs[1], renamed)
	checkSubstring(t, s, recs)
	wantIDs(t, "old name gone", find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.Contains, "real madrid")}}))
	wantIDs(t, "new name found", find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.Contains, "madrileno")}}), "2")

	err = s.Write(ctx, func(tx store.Tx) error {
		if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "11", "strTeam", "Rolled Back Madrid")); err != nil {
			return err
		}
		return context.Canceled
	})
	if err == nil {
		t.Fatal("write that failed reported success")
	}
	wantIDs(t, "rolled back row not found", find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.Contains, "rolled back")}}))

	err = s.Write(ctx, func(tx store.Tx) error {
		if err := tx.DeleteAll(ctx, record.Team); err != nil {
			return err
		}
		return tx.Upsert(ctx, Rec(record.Team, "idTeam", "12", "strTeam", "After Madrid", "strTeamAlternate", "Colchoneros"))
	})
	if err != nil {
		t.Fatal(err)
	}
	checkSubstring(t, s, []record.Record{Rec(record.Team, "idTeam", "12", "strTeam", "After Madrid", "strTeamAlternate", "Colchoneros")})
	wantIDs(t, "player search", find(t, s, store.Query{Kind: record.Player, Where: []store.Cond{op("strPlayer", record.Name, store.Contains, "madrid")}}))
}
