package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// testChangeBy: every change of a write that names its writer carries the name, into an
// empty table, over stored records, deletes and the bulk changes of a table emptied and
// filled again alike; a write that names none leaves it empty.
func testChangeBy(t *testing.T, s store.Store) {
	ctx := context.Background()
	before := Latest(t, s)
	steps := []func(tx store.Tx) error{
		func(tx store.Tx) error { // into an empty table
			return tx.Upsert(ctx, Rec(record.Team, "idTeam", "1", "strTeam", "One"))
		},
		func(tx store.Tx) error { // over a stored record, and a delete
			if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "2", "strTeam", "Two")); err != nil {
				return err
			}
			return tx.(store.DeleteTx).Delete(ctx, record.Team, "1")
		},
		func(tx store.Tx) error { // the table emptied and filled again
			if err := tx.DeleteAll(ctx, record.Team); err != nil {
				return err
			}
			return tx.Replace(ctx, Rec(record.Team, "idTeam", "3", "strTeam", "Three"))
		},
	}
	for i, step := range steps {
		err := s.Write(ctx, func(tx store.Tx) error {
			store.SetBy(tx, fmt.Sprint("writer ", i))
			return step(tx)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	put(t, s, Rec(record.Team, "idTeam", "4", "strTeam", "Four"))
	got, _, err := s.Changes(ctx, before, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"upsert 1 writer 0", "upsert 2 writer 1", "delete 1 writer 1", "delete 2 writer 2", "upsert 3 writer 2", "upsert 4 "}
	var seen []string
	for _, c := range got {
		seen = append(seen, c.Op+" "+c.ID+" "+c.By)
	}
	slices.Sort(seen)
	slices.Sort(want)
	if !slices.Equal(seen, want) {
		t.Errorf("changes %q, want %q (in any order within a write)", seen, want)
	}
}
