package storetest

import (
	"context"
	"errors"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func teams() []record.Record {
	return []record.Record{
		Rec(record.Team, "idTeam", "1", "strTeam", "Atlético Madrid", "strTeamAlternate", "Atleti, Colchoneros", "idLeague", "4335", "strSport", "Soccer", "strCountry", "Spain"),
		Rec(record.Team, "idTeam", "2", "strTeam", "Arsenal", "strTeamAlternate", "Gunners", "idLeague", "4328", "strSport", "Soccer", "strCountry", "England"),
		Rec(record.Team, "idTeam", "3", "strTeam", "100% Club", "strTeamAlternate", "", "idLeague", "4328", "strSport", "Soccer", "strCountry", "England"),
		Rec(record.Team, "idTeam", "4", "strTeam", "Real Madrid", "strTeamAlternate", "Los Blancos,Merengues", "idLeague", "4335", "strSport", "Soccer", "strCountry", "Spain"),
		Rec(record.Team, "idTeam", "5", "strTeam", "Boston Celtics", "strTeamAlternate", "Celts", "idLeague", "4387", "strSport", "Basketball", "strCountry", "USA"),
		Rec(record.Team, "idTeam", "6", "strTeam", `Back\Slash`, "idLeague", "4400", "strSport", "Soccer"),
	}
}

func eq(field string, n record.Norm, v string) store.Cond {
	return store.Cond{Field: field, Norm: n, Op: store.Eq, Value: v}
}

func op(field string, n record.Norm, o store.Op, v string) store.Cond {
	return store.Cond{Field: field, Norm: n, Op: o, Value: v}
}

// Every operator, with the folding and escaping of user values.
func testFindOps(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	const N, L, E = record.Name, record.List, record.Exact
	cases := []struct {
		name  string
		where []store.Cond
		want  []string
	}{
		{"eq exact", []store.Cond{eq("idLeague", E, "4328")}, []string{"2", "3"}},
		{"eq exact is not folded", []store.Cond{eq("idLeague", E, " 4328")}, nil},
		{"eq folded case and accents", []store.Cond{eq("strTeam", N, "ATLETICO madrid")}, []string{"1"}},
		{"eq folded underscore as space", []store.Cond{eq("strTeam", N, "atletico_madrid")}, []string{"1"}},
		{"eq folded is whole value", []store.Cond{eq("strTeam", N, "madrid")}, nil},
		{"contains", []store.Cond{op("strTeam", N, store.Contains, "Madrid")}, []string{"1", "4"}},
		{"contains accent-insensitive", []store.Cond{op("strTeam", N, store.Contains, "tlético")}, []string{"1"}},
		{"contains percent is literal", []store.Cond{op("strTeam", N, store.Contains, "100%")}, []string{"3"}},
		{"contains lone percent", []store.Cond{op("strTeam", N, store.Contains, "%")}, []string{"3"}},
		{"contains backslash is literal", []store.Cond{op("strTeam", N, store.Contains, `k\s`)}, []string{"6"}},
		{"contains nothing matching", []store.Cond{op("strTeam", N, store.Contains, "zzz")}, nil},
		{"prefix", []store.Cond{op("strTeam", N, store.Prefix, "REAL")}, []string{"4"}},
		{"prefix is anchored", []store.Cond{op("strTeam", N, store.Prefix, "madrid")}, nil},
		{"prefix percent is literal", []store.Cond{op("strTeam", N, store.Prefix, "%")}, nil},
		{"list has an item", []store.Cond{op("strTeamAlternate", L, store.ListHas, "atleti")}, []string{"1"}},
		{"list has a later item", []store.Cond{op("strTeamAlternate", L, store.ListHas, " merengues ")}, []string{"4"}},
		{"list has needs a whole item", []store.Cond{op("strTeamAlternate", L, store.ListHas, "colch")}, nil},
		{"list has no comma spans", []store.Cond{op("strTeamAlternate", L, store.ListHas, "atleti,colchoneros")}, nil},
		{"list contains", []store.Cond{op("strTeamAlternate", L, store.ListContains, "COLCH")}, []string{"1"}},
		{"list contains within items", []store.Cond{op("strTeamAlternate", L, store.ListContains, "blan")}, []string{"4"}},
		{"gt text", []store.Cond{op("idLeague", E, store.Gt, "4335")}, []string{"5", "6"}},
		{"ge text", []store.Cond{op("idLeague", E, store.Ge, "4335")}, []string{"1", "4", "5", "6"}},
		{"lt text", []store.Cond{op("idLeague", E, store.Lt, "4335")}, []string{"2", "3"}},
		{"le text", []store.Cond{op("idLeague", E, store.Le, "4328")}, []string{"2", "3"}},
		{"not empty", []store.Cond{op("strTeamAlternate", L, store.NotEmpty, "")}, []string{"1", "2", "4", "5"}},
		{"not empty name", []store.Cond{op("strCountry", N, store.NotEmpty, "")}, []string{"1", "2", "3", "4", "5"}},
		{"and", []store.Cond{eq("strCountry", N, "spain"), op("strTeam", N, store.Contains, "real")}, []string{"4"}},
		{"or", []store.Cond{{Or: []store.Cond{eq("idLeague", E, "4387"), eq("strTeam", N, "arsenal")}}}, []string{"2", "5"}},
		{"or and", []store.Cond{eq("strSport", N, "soccer"), {Or: []store.Cond{eq("idLeague", E, "4387"), eq("idLeague", E, "4335")}}}, []string{"1", "4"}},
		{"nested or", []store.Cond{{Or: []store.Cond{eq("idLeague", E, "4400"), {Or: []store.Cond{eq("strTeam", N, "arsenal")}}}}}, []string{"2", "6"}},
	}
	for _, c := range cases {
		got := find(t, s, store.Query{Kind: record.Team, Where: c.where})
		wantIDs(t, c.name, got, c.want...)
	}
}

func testFindOrder(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	const N, E = record.Name, record.Exact
	cases := []struct {
		name  string
		order []store.Order
		limit int
		want  []string
	}{
		{"insertion order", nil, 0, []string{"1", "2", "3", "4", "5", "6"}},
		{"folded name", []store.Order{{Field: "strTeam", Norm: N}}, 0, []string{"3", "2", "1", "6", "5", "4"}},
		{"folded name desc", []store.Order{{Field: "strTeam", Norm: N, Desc: true}}, 0, []string{"4", "5", "6", "1", "2", "3"}},
		{"ties in insertion order", []store.Order{{Field: "idLeague", Norm: E}}, 0, []string{"2", "3", "1", "4", "5", "6"}},
		{"desc ties in insertion order", []store.Order{{Field: "idLeague", Norm: E, Desc: true}}, 0, []string{"6", "5", "1", "4", "2", "3"}},
		{"two keys", []store.Order{{Field: "strCountry", Norm: N}, {Field: "strTeam", Norm: N, Desc: true}}, 0, []string{"6", "2", "3", "4", "1", "5"}},
		{"limit", []store.Order{{Field: "strTeam", Norm: N}}, 2, []string{"3", "2"}},
		{"limit beyond", nil, 50, []string{"1", "2", "3", "4", "5", "6"}},
	}
	for _, c := range cases {
		got := find(t, s, store.Query{Kind: record.Team, OrderBy: c.order, Limit: c.limit})
		wantIDs(t, c.name, got, c.want...)
	}
}

// Numeric order sorts numbers as numbers and puts values that are not numbers (empty, text,
// too long for an integer) after them, without failing the query.
func testNumericOrder(t *testing.T, s store.Store) {
	rounds := []string{"10", "9", "", "2", "abc", "123456789012345678901234", "-1", "0"}
	var recs []record.Record
	for i, r := range rounds {
		recs = append(recs, Rec(record.Event, "idEvent", string(rune('a'+i)), "intRound", r, "idLeague", "1",
			"strTimestamp", "2026-10-0"+string(rune('1'+i))+"T12:00:00"))
	}
	put(t, s, recs...)
	asc := find(t, s, store.Query{Kind: record.Event, OrderBy: []store.Order{{Field: "intRound", Numeric: true}}})
	wantIDs(t, "numeric", asc, "g", "h", "d", "b", "a", "c", "e", "f")
	desc := find(t, s, store.Query{Kind: record.Event, OrderBy: []store.Order{{Field: "intRound", Numeric: true, Desc: true}}})
	wantIDs(t, "numeric desc", desc, "a", "b", "d", "h", "g", "c", "e", "f")
	text := find(t, s, store.Query{Kind: record.Event, OrderBy: []store.Order{{Field: "intRound"}}})
	wantIDs(t, "text", text, "c", "g", "h", "a", "f", "d", "b", "e")
	after := find(t, s, store.Query{Kind: record.Event,
		Where:   []store.Cond{eq("idLeague", record.Exact, "1"), op("strTimestamp", record.Exact, store.Gt, "2026-10-06")},
		OrderBy: []store.Order{{Field: "strTimestamp", Desc: true}}, Limit: 2})
	wantIDs(t, "timestamps after, latest first", after, "h", "g")
}

func testBadQuery(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	cases := []struct {
		name string
		q    store.Query
	}{
		{"unindexed field", store.Query{Kind: record.Team, Where: []store.Cond{eq("strStadium", record.Exact, "x")}}},
		{"unknown field", store.Query{Kind: record.Team, Where: []store.Cond{eq("nope", record.Exact, "x")}}},
		{"wrong norm", store.Query{Kind: record.Team, Where: []store.Cond{eq("strTeam", record.Exact, "Arsenal")}}},
		{"contains on exact", store.Query{Kind: record.Team, Where: []store.Cond{op("idLeague", record.Exact, store.Contains, "43")}}},
		{"list has on name", store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.ListHas, "a")}}},
		{"unknown op", store.Query{Kind: record.Team, Where: []store.Cond{op("idLeague", record.Exact, store.Op(99), "a")}}},
		{"bad field inside or", store.Query{Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{eq("idLeague", record.Exact, "1"), eq("strStadium", record.Exact, "x")}}}}},
		{"unindexed order", store.Query{Kind: record.Team, OrderBy: []store.Order{{Field: "strStadium"}}}},
		{"no kind", store.Query{}},
		{"negative limit", store.Query{Kind: record.Team, Limit: -1}},
	}
	for _, c := range cases {
		_, err := s.Find(context.Background(), c.q)
		if !errors.Is(err, store.ErrBadQuery) {
			t.Errorf("%s: got %v, want ErrBadQuery", c.name, err)
		}
	}
}

// A value holding NUL matches nothing and is no error, on every backend; inside an Or, the
// other branches still match.
func testNulMatchesNothing(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	for _, c := range []store.Cond{
		eq("strTeam", record.Name, "Arsenal\x00"),
		op("strTeam", record.Name, store.Contains, "ars\x00"),
		op("strTeam", record.Name, store.Prefix, "\x00"),
		op("strTeamAlternate", record.List, store.ListHas, "gunners\x00"),
		eq("idLeague", record.Exact, "4328\x00"),
	} {
		if got := find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{c}}); len(got) != 0 {
			t.Errorf("%+v matched %v", c, got)
		}
	}
	either := store.Cond{Or: []store.Cond{eq("strTeam", record.Name, "x\x00"), eq("strTeam", record.Name, "Arsenal")}}
	if got := find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{either}}); len(got) != 1 || got[0] != "2" {
		t.Errorf("Or with a NUL branch: %v, want [2]", got)
	}
}
