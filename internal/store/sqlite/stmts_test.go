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
	kept := func() map[string]bool {
		s.stmts.mu.Lock()
		defer s.stmts.mu.Unlock()
		out := map[string]bool{}
		for q := range s.stmts.m {
			out[q] = true
		}
		return out
	}
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
