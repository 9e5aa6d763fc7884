package sqlite

import (
	"context"
	"strconv"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Find prepares each statement text once and reuses it; past maxStmts texts, it runs them
// unprepared and keeps no more.
func TestFindReusesPreparedStatements(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	fillNames(t, s, []string{"Madrid Arena", "Real Madrid"})
	search := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "madrid"}},
		OrderBy: []store.Order{{Field: "strTeam", Norm: record.Name}}, Limit: 10}
	kept := func() map[string]bool { return keptTexts(&s.stmts) }
	for i := range 3 {
		recs, err := s.Find(ctx, search)
		if err != nil || len(recs) != 2 {
			t.Fatalf("find %d: %d records, %v", i, len(recs), err)
		}
		s.stmts.aside.Wait() // statements first met in a transaction are prepared beside it
		if i == 0 {
			continue
		}
		if n := len(kept()); n != 3 {
			// The trigram lookup, the seqs on the narrow index, the docs.
			t.Fatalf("find %d: %d statements kept, want 3: %v", i, n, kept())
		}
	}
	for i := range maxStmts + 5 {
		rows, err := s.stmts.query(ctx, nil, "SELECT "+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if !rows.Next() || rows.Scan(&got) != nil || got != i {
			t.Fatalf("SELECT %d: got %d", i, got)
		}
		rows.Close()
	}
	if n := len(kept()); n != maxStmts {
		t.Errorf("%d statements kept, want at most %d", n, maxStmts)
	}
}

// A write transaction runs the writer's prepared statements: those it first met are
// prepared beside it on the writer connection, and the next transactions of the same shape
// find every statement they run kept there; the data each writes is its own.
func TestWritesReuseTheWritersStatements(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	kept := func() map[string]bool { return keptTexts(&s.wstmts) }
	// write upserts a team and returns the statement texts its transaction ran.
	write := func(name string) []string {
		t.Helper()
		var wtx *tx
		err := s.Write(ctx, func(st store.Tx) error {
			wtx = st.(*tx)
			r := record.Team.NewRecord()
			r.Set("idTeam", record.Str("133604"))
			r.Set("strTeam", record.Str(name))
			return st.Upsert(ctx, r)
		})
		if err != nil {
			t.Fatalf("write %s: %v", name, err)
		}
		s.wstmts.aside.Wait() // statements first met in a transaction are prepared beside it
		got, err := s.Get(ctx, record.Team, "133604")
		if err != nil || got.Str("strTeam") != name {
			t.Fatalf("after writing %s: %v, %v", name, got, err)
		}
		var ran []string
		for q := range wtx.stmts {
			ran = append(ran, q)
		}
		for k := range wtx.inserts {
			ran = append(ran, insertSQL(k.kind, k.rows))
		}
		return ran
	}
	write("Arsenal")   // creates: the insert
	write("Arsenal F") // replaces: the read of the stored doc too
	before := kept()
	if !before[insertSQL(record.Team, 1)] {
		t.Fatalf("the team's insert is not kept on the writer: %v", before)
	}
	for _, name := range []string{"Aston Villa", "Chelsea"} {
		ran := write(name)
		if len(ran) < 2 {
			t.Fatalf("writing %s ran %d statements: %v", name, len(ran), ran)
		}
		for _, q := range ran {
			if !before[q] {
				t.Errorf("writing %s prepared %q in its transaction", name, q)
			}
		}
		if after := kept(); len(after) != len(before) {
			t.Errorf("writing %s: %d statements kept, was %d", name, len(after), len(before))
		}
	}
}

// keptTexts is the texts of the statements c keeps.
func keptTexts(c *stmts) map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]bool{}
	for q := range c.m {
		out[q] = true
	}
	return out
}
