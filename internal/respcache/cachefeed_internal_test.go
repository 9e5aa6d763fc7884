package respcache

import (
	"context"
	"fmt"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Up to maxDeps reads by id or by equality are kept as such; past that, every one of them
// depends on its whole kind. A query without an equality depends on its whole kind.
func TestReadSetPromotesManyDeps(t *testing.T) {
	ctx, rs := withReadSet(context.Background())
	noteGet(ctx, record.Team, "1")
	noteRead(ctx, record.LiveScore)
	noteFind(ctx, store.Query{Kind: record.Season, Where: []store.Cond{{Field: "strSeason", Op: store.Ge, Value: "2020"}}})
	mask, deps := rs.done()
	if mask != kindBits[record.LiveScore]|kindBits[record.Season] || len(deps) != 1 || deps[0].kind != record.Team {
		t.Fatalf("one get: mask %b deps %v", mask, deps)
	}
	for i := range maxDeps {
		noteFind(ctx, store.Query{Kind: record.Event, Where: []store.Cond{{Field: "idLeague", Value: fmt.Sprint(i)}}})
	}
	mask, deps = rs.done()
	if want := kindBits[record.LiveScore] | kindBits[record.Season] | kindBits[record.Team] | kindBits[record.Event]; mask != want || deps != nil {
		t.Fatalf("many deps: mask %b deps %v, want mask %b and no deps", mask, deps, want)
	}
}

// The clauses of a query are its equalities and its searches, folded as the store compares
// them; an alternative is one clause, and a condition of another operator is left out.
func TestFindClauses(t *testing.T) {
	ctx, rs := withReadSet(context.Background())
	noteFind(ctx, store.Query{Kind: record.Event, Where: []store.Cond{
		{Or: []store.Cond{{Field: "idHomeTeam", Value: "1"}, {Field: "idAwayTeam", Value: "1"}}},
		{Field: "strSport", Norm: record.Name, Value: "Soccer"},
		{Field: "strTimestamp", Op: store.Ge, Value: "2026"},
	}})
	noteFind(ctx, store.Query{Kind: record.Team, Where: []store.Cond{
		{Or: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "Réal"},
			{Field: "strTeamAlternate", Norm: record.List, Op: store.ListContains, Value: "Real"}}},
	}})
	mask, deps := rs.done()
	want := []string{"[[{c_idhometeam 1} {c_idawayteam 1}] [{n_strsport soccer}]]", "[[{n_strteam ~real} {l_strteamalternate ~real}]]"}
	if mask != 0 || len(deps) != 2 || fmt.Sprint(deps[0].clauses) != want[0] || fmt.Sprint(deps[1].clauses) != want[1] {
		t.Fatalf("mask %b, deps %v; want no kind whole and clauses %s", mask, deps, want)
	}
}

// A search depends on the records whose values hold its needle: a change meets it when one
// of its values, before or after, holds the needle, or when the changes the tracker keeps no
// longer reach back to the answer.
func TestFeedTrackerMeetsSearches(t *testing.T) {
	f := &feedTracker{synced: true, version: 1}
	f.changeAll(0)
	search := func(needle string) dep {
		return dep{kind: record.Team, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: "n_strteam", Value: needle}, contains: true},
			{IndexKey: store.IndexKey{Column: "l_strteamalternate", Value: needle}, contains: true}}}}
	}
	f.note(store.Change{Cursor: 1, Kind: record.Team, ID: "5", Bounded: true, Keys: []store.IndexKey{
		{Column: "n_strteam", Value: "arsenal"}, {Column: "l_strteamalternate", Value: ",the gunners,afc,"}}})
	for needle, want := range map[string]bool{"sena": true, "gunner": true, "afc": true, "chelsea": false, "5": false} {
		if got := !f.unchangedAt(0, []dep{search(needle)}, 0, 1); got != want {
			t.Errorf("search %q after a change of Arsenal: met %v, want %v", needle, got, want)
		}
	}
	if !f.unchangedAt(0, []dep{search("sena")}, 1, 1) {
		t.Error("a search answered after the change: met by it")
	}
	for c := int64(2); c <= maxRecent+1; c++ {
		f.note(store.Change{Cursor: c, Kind: record.Event, ID: fmt.Sprint(c), Bounded: true})
	}
	if f.unchangedAt(0, []dep{search("chelsea")}, 0, 1) {
		t.Error("a search older than the changes kept: not met")
	}
}

// A dep is met when every clause names a value a later change had, before or after; a change
// that did not say its values meets every dep of its kind but those by id.
func TestFeedTrackerMeetsDeps(t *testing.T) {
	f := &feedTracker{synced: true, version: 1}
	f.changeAll(0)
	league := func(id string) dep {
		return dep{kind: record.Event, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: "c_idleague", Value: id}}}, {{IndexKey: store.IndexKey{Column: "c_strseason", Value: "2025"}}}}}
	}
	byID := dep{kind: record.Event, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: idColumn, Value: "9"}}}}, byID: true}
	f.note(store.Change{Cursor: 1, Kind: record.Event, ID: "5", Bounded: true, Keys: []store.IndexKey{
		{Column: "c_idleague", Value: "1"}, {Column: "c_idleague", Value: "2"}, {Column: "c_strseason", Value: "2025"}}})
	for _, tc := range []struct {
		d    dep
		want bool
	}{{league("1"), true}, {league("2"), true}, {league("3"), false}, {byID, false}} {
		if got := f.unchangedAt(0, []dep{tc.d}, 0, 1); got == tc.want {
			t.Errorf("%v after a move from league 1 to 2: unchanged %v", tc.d.clauses, got)
		}
	}
	f.note(store.Change{Cursor: 2, Kind: record.Event, ID: "6"})
	if f.unchangedAt(0, []dep{league("3")}, 1, 1) || !f.unchangedAt(0, []dep{byID}, 1, 1) {
		t.Error("a change without keys: want every dep of its kind met but those by another id")
	}
}

// An answer older than the keys the tracker remembers, which has deps, is stale.
func TestFeedTrackerForgetsOldKeys(t *testing.T) {
	f := &feedTracker{synced: true, version: 1}
	f.changeAll(0)
	for c := int64(1); c <= maxKeys+1; c++ {
		f.note(store.Change{Cursor: c, Kind: record.Event, ID: fmt.Sprint(c), Bounded: true})
	}
	get := func(id string) []dep {
		return []dep{{kind: record.Team, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: idColumn, Value: id}}}}, byID: true}}
	}
	if f.unchangedAt(0, get("1"), 1, 1) {
		t.Error("an answer from before the remembered keys is taken as unchanged")
	}
	evt := []dep{{kind: record.Event, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: idColumn, Value: fmt.Sprint(maxKeys + 1)}}}}, byID: true}}
	if !f.unchangedAt(0, get("1"), maxKeys, 1) || f.unchangedAt(0, evt, maxKeys, 1) {
		t.Error("the remembered records are not told apart")
	}
}

// names is a store.NameFinder that answers every name search, or none.
type names struct {
	store.Records
	answers bool
}

func (n names) FindNames(context.Context, store.Query, string) (store.Names, bool, error) {
	return store.Names{Version: 1}, n.answers, nil
}

func (names) RecordsBySeqs(context.Context, *record.Kind, []int64, int64) ([]record.Record, bool, error) {
	return nil, true, nil
}

// A name search is noted as the Find it stands for when the store answers it, and not when
// it does not: the caller then runs the query through Find, which notes it, and one
// dependency noted twice would count twice against maxDeps.
func TestNameSearchNotedOnce(t *testing.T) {
	q := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "idLeague", Value: "4328"}}}
	for _, answers := range []bool{true, false} {
		ctx, rs := withReadSet(context.Background())
		if _, ok, err := (readTracking{names{answers: answers}}).FindNames(ctx, q, ""); ok != answers || err != nil {
			t.Fatalf("answers %v: ok %v, %v", answers, ok, err)
		}
		want := 0
		if answers {
			want = 1
		}
		if mask, deps := rs.done(); mask != 0 || len(deps) != want {
			t.Errorf("answers %v: mask %b, deps %v; want %d deps", answers, mask, deps, want)
		}
	}
}

// unchangedAt is unchangedThrough without the cursor, as the tests ask.
func (f *feedTracker) unchangedAt(reads kindMask, deps []dep, cursor, version int64) bool {
	ok, _ := f.unchangedThrough(reads, deps, cursor, version)
	return ok
}
