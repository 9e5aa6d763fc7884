package sqlstore

import (
	"errors"
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
	if _, err := NewRow(record.Record{Kind: record.Team, Values: make([]record.Value, 2)}); err == nil {
		t.Error("record with too few values accepted")
	}
	if _, err := NewRow(record.Team.NewRecord()); !errors.Is(err, record.ErrNoID) {
		t.Errorf("record without id: got %v", err)
	}
}
