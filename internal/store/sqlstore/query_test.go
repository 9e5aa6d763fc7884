package sqlstore

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func TestEscapeLike(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "100%": `100\%`, "a_b": `a\_b`, `c:\dir`: `c:\\dir`, `%_\`: `\%\_\\`,
	} {
		if got := EscapeLike(in); got != want {
			t.Errorf("EscapeLike(%q) = %q, want %q", in, got, want)
		}
	}
}

// User values travel as arguments, never in the text of the statement.
func TestSelectKeepsValuesOutOfSQL(t *testing.T) {
	evil := `x' OR '1'='1`
	q := store.Query{Kind: record.Team, Where: []store.Cond{
		{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: evil},
		{Field: "idLeague", Norm: record.Exact, Op: store.Eq, Value: evil},
	}, Limit: 3}
	for name, d := range map[string]Dialect{"sqlite": SQLite, "postgres": Postgres} {
		sql, args, err := Select(d, q)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sql, "1'='1") || len(args) != 2 {
			t.Errorf("%s: %s %v", name, sql, args)
		}
		if args[0] != "%x' or '1'='1%" || args[1] != evil {
			t.Errorf("%s: args %q", name, args)
		}
		if !strings.HasSuffix(sql, "ORDER BY seq LIMIT 3") {
			t.Errorf("%s: default order and limit: %s", name, sql)
		}
	}
}

func TestSelectBadQuery(t *testing.T) {
	_, _, err := Select(SQLite, store.Query{Kind: record.Event, Where: []store.Cond{{Field: "strVideo", Op: store.Eq}}})
	if !errors.Is(err, store.ErrBadQuery) || !strings.Contains(err.Error(), "strVideo") {
		t.Errorf("got %v, want ErrBadQuery naming the field", err)
	}
}

func TestNewRowRejectsBadRecords(t *testing.T) {
	if _, err := NewRow(record.Record{}); err == nil {
		t.Error("record without kind accepted")
	}
	if _, err := NewRow(record.Record{Kind: record.Team}); err == nil {
		t.Error("record with too few values accepted")
	}
	if _, err := NewRow(record.Team.NewRecord()); !errors.Is(err, record.ErrNoID) {
		t.Errorf("record without id: got %v", err)
	}
}

// A dialect's substring index narrows the LIKE, its argument first; ListHas looks for the
// whole item with its commas.
func TestSelectSubstringNarrows(t *testing.T) {
	d := SQLite
	d.Substring = func(b *Builder, k *record.Kind, col, needle string) string {
		if col == "n_strcountry" {
			return ""
		}
		return "near(" + k.Name + "." + col + ", " + b.Arg(needle) + ")"
	}
	q := store.Query{Kind: record.Team, Where: []store.Cond{
		{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "Real_100%"},
		{Field: "strTeamAlternate", Norm: record.List, Op: store.ListHas, Value: "Blancos"},
		{Field: "strTeamAlternate", Norm: record.List, Op: store.ListContains, Value: "blan"},
		{Field: "strCountry", Norm: record.Name, Op: store.Contains, Value: "spa"},
	}}
	sql, args, err := Select(d, q)
	if err != nil {
		t.Fatal(err)
	}
	want := `SELECT doc FROM "team" WHERE (near(team.n_strteam, ?) AND "n_strteam" LIKE ? ESCAPE '\')` +
		` AND (near(team.l_strteamalternate, ?) AND "l_strteamalternate" LIKE ? ESCAPE '\')` +
		` AND (near(team.l_strteamalternate, ?) AND "l_strteamalternate" LIKE ? ESCAPE '\')` +
		` AND "n_strcountry" LIKE ? ESCAPE '\' ORDER BY seq`
	if sql != want {
		t.Errorf("sql:\n%s\nwant:\n%s", sql, want)
	}
	wantArgs := []any{"real 100%", `%real 100\%%`, ",blancos,", "%,blancos,%", "blan", "%blan%", "%spa%"}
	if !slices.Equal(args, wantArgs) {
		t.Errorf("args %q, want %q", args, wantArgs)
	}
}

// On PostgreSQL a capped search inside trigram-indexed names collects its matches first
// (seq and sort columns), then reads the docs of those it keeps; any other query is the
// plain statement.
func TestPostgresCappedSearchMaterializes(t *testing.T) {
	name := func(op store.Op, v string) store.Cond {
		return store.Cond{Field: "strTeam", Norm: record.Name, Op: op, Value: v}
	}
	alt := store.Cond{Field: "strTeamAlternate", Norm: record.List, Op: store.ListContains, Value: "madrid"}
	byName := []store.Order{{Field: "strTeam", Norm: record.Name}, {Field: "strTeam", Norm: record.Name, Desc: true}}
	for _, c := range []struct {
		name string
		q    store.Query
		want string // the statement's start
	}{
		{"capped, by name", store.Query{Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{name(store.Contains, "madrid"), alt}}},
			OrderBy: byName, Limit: 100},
			`WITH m AS MATERIALIZED (SELECT seq, "n_strteam" FROM "team" WHERE`},
		{"capped, stored order", store.Query{Kind: record.Team, Where: []store.Cond{name(store.Contains, "madrid")}, Limit: 25},
			`WITH m AS MATERIALIZED (SELECT seq FROM "team" WHERE`},
		{"no cap", store.Query{Kind: record.Team, Where: []store.Cond{name(store.Contains, "madrid")}}, `SELECT doc FROM`},
		{"two characters", store.Query{Kind: record.Team, Where: []store.Cond{name(store.Contains, "ma")}, Limit: 25}, `SELECT doc FROM`},
		{"an equality beside it", store.Query{Kind: record.Team, Where: []store.Cond{{Or: []store.Cond{name(store.Eq, "madrid"), alt}}},
			Limit: 25}, `SELECT doc FROM`},
		{"no trigram index", store.Query{Kind: record.Event, Where: []store.Cond{
			{Field: "strEvent", Norm: record.Name, Op: store.Contains, Value: "madrid"}}, Limit: 25}, `SELECT doc FROM`},
	} {
		query, _, err := Select(Postgres, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.HasPrefix(query, c.want) {
			t.Errorf("%s: %s, want it to start with %s", c.name, query, c.want)
		}
		if strings.HasPrefix(c.want, "WITH") && !strings.HasSuffix(query, `JOIN "team" t ON t.seq = k.seq ORDER BY k.i`) {
			t.Errorf("%s: the docs are not read in the order kept: %s", c.name, query)
		}
	}
}
