package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// deleteIn runs Delete of each id in one write and returns the write's error.
func deleteIn(s store.Store, k *record.Kind, ids ...string) error {
	ctx := context.Background()
	return s.Write(ctx, func(tx store.Tx) error {
		for _, id := range ids {
			if err := tx.(store.DeleteTx).Delete(ctx, k, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// testDelete: Delete removes one record from every way of reading it (by id, by index, by
// substring through the trigram indexes, a count), appends one bounded delete to the feed
// and advances the data version.
func testDelete(t *testing.T, s store.Store) {
	ctx := context.Background()
	put(t, s, teams()...)
	byName := store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.Contains, "arsenal")}, Limit: 10}
	// Searched once before, so that a store holding names in memory holds this one.
	wantIDs(t, "by name before the delete", find(t, s, byName), "2")
	v0, before := version(t, s), Latest(t, s)
	if err := deleteIn(s, record.Team, "2"); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := s.Get(ctx, record.Team, "2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("get of a deleted record: err %v, want ErrNotFound", err)
	}
	for what, q := range map[string]store.Query{
		"all":              {Kind: record.Team},
		"by league":        {Kind: record.Team, Where: []store.Cond{eq("idLeague", record.Exact, "4328")}},
		"by name":          byName,
		"by alternate":     {Kind: record.Team, Where: []store.Cond{op("strTeamAlternate", record.List, store.ListContains, "gunner")}},
		"by alternate cap": {Kind: record.Team, Where: []store.Cond{op("strTeamAlternate", record.List, store.ListContains, "gunner")}, Limit: 5},
	} {
		if got := find(t, s, q); slices.Contains(got, "2") {
			t.Errorf("%s: deleted team still found: %v", what, got)
		}
	}
	if n := count(t, s, record.Team); n != 5 {
		t.Errorf("count after delete: %d, want 5", n)
	}
	if v := version(t, s); v == v0 {
		t.Errorf("data version did not advance on a delete: %d", v)
	}
	got, _, err := s.Changes(ctx, before, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Op != store.OpDelete || got[0].Kind != record.Team || got[0].ID != "2" || !got[0].Bounded ||
		!slices.Contains(got[0].Keys, store.IndexKey{Column: "c_idleague", Value: "4328"}) ||
		!slices.Contains(got[0].Keys, store.IndexKey{Column: "n_strteam", Value: "arsenal"}) {
		t.Fatalf("changes of the delete: %+v; want one bounded delete of team 2 with its league and name", got)
	}
	put(t, s, Rec(record.Team, "idTeam", "2", "strTeam", "Arsenal"))
	if got := find(t, s, byName); !slices.Equal(got, []string{"2"}) {
		t.Errorf("deleted team stored again: found %v, want [2]", got)
	}
}

// testDeleteMissing: a missing record is ErrNotFound, which changes nothing and leaves the
// transaction going; returned by fn, it rolls the whole write back.
func testDeleteMissing(t *testing.T, s store.Store) {
	ctx := context.Background()
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"))
	v0, before := version(t, s), Latest(t, s)
	err := deleteIn(s, record.Team, "1", "404")
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete of a missing record: err %v, want ErrNotFound", err)
	}
	if v := version(t, s); v != v0 || Latest(t, s) != before || count(t, s, record.Team) != 1 {
		t.Errorf("failed write kept something: version %d->%d, cursor %d->%d, %d teams", v0, v, before, Latest(t, s), count(t, s, record.Team))
	}
	err = s.Write(ctx, func(tx store.Tx) error {
		if err := tx.(store.DeleteTx).Delete(ctx, record.Team, "404"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete of a missing record: err %v, want ErrNotFound", err)
		}
		if err := tx.(store.DeleteTx).Delete(ctx, nil, "1"); !errors.Is(err, store.ErrBadQuery) {
			t.Errorf("delete without a kind: err %v, want ErrBadQuery", err)
		}
		return tx.Upsert(ctx, Rec(record.Team, "idTeam", "7", "strTeam", "Seven"))
	})
	if err != nil {
		t.Fatalf("write going on after ErrNotFound: %v", err)
	}
	wantIDs(t, "after a write that met a missing record", find(t, s, store.Query{Kind: record.Team}), "1", "7")
}

// testDeleteInWrite: Delete sees the writes before it in the transaction, buffered or not,
// and the writes after it store the record anew; a record the write deleted and put back as
// it was is no change.
func testDeleteInWrite(t *testing.T, s store.Store) {
	ctx := context.Background()
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"))
	before := Latest(t, s)
	err := s.Write(ctx, func(tx store.Tx) error {
		d := tx.(store.DeleteTx)
		for _, step := range []func() error{
			func() error { return tx.Upsert(ctx, Rec(record.Team, "idTeam", "2", "strTeam", "Two")) },
			func() error { return d.Delete(ctx, record.Team, "2") },
			func() error { return d.Delete(ctx, record.Team, "1") },
			func() error { return tx.Upsert(ctx, Rec(record.Team, "idTeam", "1", "strTeam", "One")) },
			func() error { return tx.Upsert(ctx, Rec(record.Team, "idTeam", "3", "strTeam", "Three")) },
		} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "teams", find(t, s, store.Query{Kind: record.Team}), "1", "3")
	got, _ := changes(t, s, before)
	if slices.Contains(got, "delete team 1") || slices.Contains(got, "upsert team 1") || !slices.Contains(got, "upsert team 3") {
		t.Errorf("changes %v: want team 3's upsert and nothing of team 1, put back as it was", got)
	}
}
