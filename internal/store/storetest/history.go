package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// testHistory: a record's history is its changes, newest first, each with the record as it
// left it when the write kept docs (store.KeepDocs): several writes of it in one
// transaction leave one change with the last of them; a delete and the changes of a write
// that kept none have no record; the bulk changes of a kept write keep them too.
func testHistory(t *testing.T, s store.Store) {
	ctx := context.Background()
	write := func(keep bool, fn func(tx store.Tx) error) {
		t.Helper()
		err := s.Write(ctx, func(tx store.Tx) error {
			if keep {
				store.KeepDocs(tx)
			}
			return fn(tx)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	upsert := func(tx store.Tx, name string) error { return upsertTeam(ctx, tx, "1", name) }
	write(false, func(tx store.Tx) error { return upsert(tx, "Imported") })
	write(true, func(tx store.Tx) error {
		if err := upsert(tx, "First"); err != nil {
			return err
		}
		return upsert(tx, "Second")
	})
	write(true, func(tx store.Tx) error { return tx.(store.DeleteTx).Delete(ctx, record.Team, "1") })
	write(true, func(tx store.Tx) error { return upsert(tx, "Back") })
	put(t, s, Rec(record.Team, "idTeam", "2", "strTeam", "Other"))
	got, err := s.History(ctx, record.Team, "1")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for i, v := range got {
		name := "-"
		if v.Kept {
			d, err := v.Record.Decoded()
			if err != nil {
				t.Fatal(err)
			}
			name = d.Str("strTeam")
		}
		seen = append(seen, v.Op+" "+name)
		if i > 0 && v.Cursor >= got[i-1].Cursor {
			t.Errorf("history not newest first: %d after %d", v.Cursor, got[i-1].Cursor)
		}
	}
	if want := []string{"upsert Back", "delete -", "upsert Second", "upsert -"}; !slices.Equal(seen, want) {
		t.Errorf("history %q, want %q", seen, want)
	}
	if got, err := s.History(ctx, record.Team, "9"); err != nil || len(got) != 0 {
		t.Errorf("history of a record never written: %v %v", got, err)
	}

	// A kept write of more records than one statement gives docs to (changeDocsIDs, 512):
	// each record's change has its doc.
	write(true, func(tx store.Tx) error {
		for i := range 1_100 {
			id := fmt.Sprint(101 + i)
			if err := upsertTeam(ctx, tx, id, "T"+id); err != nil {
				return err
			}
		}
		return nil
	})
	for _, id := range []string{"101", "612", "613", "1124", "1125", "1200"} {
		got, err := s.History(ctx, record.Team, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || !got[0].Kept {
			t.Fatalf("history of team %s of 1,100 written at once: %+v, want one change with its record", id, got)
		}
		if d, err := got[0].Record.Decoded(); err != nil || d.Str("strTeam") != "T"+id {
			t.Errorf("history of team %s of 1,100 written at once: %v %v, want strTeam T%s", id, d, err, id)
		}
	}

	// More records than a write keeps keyed changes for: the kind goes bulk in an empty table.
	write(true, func(tx store.Tx) error {
		for i := range 10_050 {
			if err := tx.Upsert(ctx, Rec(record.Player, "idPlayer", fmt.Sprint(i+1), "strPlayer", fmt.Sprint("P", i+1))); err != nil {
				return err
			}
		}
		return nil
	})
	for _, id := range []string{"1", "10050"} {
		got, err := s.History(ctx, record.Player, id)
		if err != nil || len(got) != 1 || !got[0].Kept {
			t.Fatalf("history of player %s of a large kept write: %+v %v", id, got, err)
		}
	}
}

// upsertTeam writes a team with that id and name.
func upsertTeam(ctx context.Context, tx store.Tx, id, name string) error {
	return tx.Upsert(ctx, Rec(record.Team, "idTeam", id, "strTeam", name))
}
