package storetest

import (
	"context"
	"fmt"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// testEmptyTableBatches writes into an empty table across the batches a store may buffer
// writes in: a record written again after a flush merges into what the transaction wrote,
// a replaced one keeps its place, and the feed has one change a record.
func testEmptyTableBatches(t *testing.T, s store.Store) {
	ctx := context.Background()
	since := Latest(t, s)
	const fillers = 4500
	err := s.Write(ctx, func(tx store.Tx) error {
		if err := tx.Upsert(ctx, Rec(record.Player, "idPlayer", "1", "strPlayer", "Early", "strNationality", "Chile")); err != nil {
			return err
		}
		for i := range fillers {
			if err := tx.Upsert(ctx, Rec(record.Player, "idPlayer", fmt.Sprint(1000+i), "strPlayer", "Filler", "strTeam", "A")); err != nil {
				return err
			}
		}
		if err := tx.Upsert(ctx, Rec(record.Player, "idPlayer", "1", "strPlayer", "Late")); err != nil {
			return err
		}
		return tx.Replace(ctx, Rec(record.Player, "idPlayer", "1000", "strPlayer", "Replaced"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if one := get(t, s, record.Player, "1"); one.Str("strPlayer") != "Late" || one.Str("strNationality") != "Chile" {
		t.Errorf("merge across batches: %v", one)
	}
	if r := get(t, s, record.Player, "1000"); r.Str("strPlayer") != "Replaced" || r.Str("strTeam") != "" {
		t.Errorf("replace across batches: %v", r)
	}
	if n := count(t, s, record.Player); n != fillers+1 {
		t.Errorf("count: %d, want %d", n, fillers+1)
	}
	ids := find(t, s, store.Query{Kind: record.Player, Limit: 3})
	wantIDs(t, "insertion order", ids, "1", "1000", "1001")
	got, _ := changes(t, s, since, record.Player)
	if len(got) != fillers+1 || got[0] != "upsert player 1" || got[1] != "upsert player 1000" {
		t.Errorf("%d changes, first %q", len(got), got[:min(2, len(got))])
	}
}
