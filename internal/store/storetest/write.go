package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func get(t *testing.T, s store.Store, k *record.Kind, id string) record.Record {
	t.Helper()
	r, err := s.Get(context.Background(), k, id)
	if err != nil {
		t.Fatalf("get %s %s: %v", k.Name, id, err)
	}
	return r
}

func testGet(t *testing.T, s store.Store) {
	want := Rec(record.Event, "idEvent", "7", "strEvent", `Arsenal vs "Chelsea" / Ünïcode`, "strResult", "", "strDescriptionEN", "line\nbreak")
	put(t, s, want, Rec(record.Team, "idTeam", "7", "strTeam", "Other kind, same id"))
	got := get(t, s, record.Event, "7")
	if !record.Equal(got, want) {
		t.Errorf("get: got %v, want %v", got, want)
	}
	if v := got.Get("strResult"); !v.Valid || v.S != "" {
		t.Errorf(`"" must stay "" (not null): %+v`, v)
	}
	if v := got.Get("strSeason"); v.Valid {
		t.Errorf("null must stay null: %+v", v)
	}
	_, err := s.Get(context.Background(), record.Event, "8")
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing id: got %v, want ErrNotFound", err)
	}
	_, err = s.Get(context.Background(), record.League, "7")
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("id of another kind: got %v, want ErrNotFound", err)
	}
}

// A summary never erases what a full record set; index columns follow the merged record.
func testUpsertMerge(t *testing.T, s store.Store) {
	full := Rec(record.Event, "idEvent", "1", "strEvent", "Old Name", "strDescriptionEN", "long text", "strResult", "", "idLeague", "4328")
	put(t, s, full)
	summary := Rec(record.Event, "idEvent", "1", "strEvent", "New Name", "strDescriptionEN", "", "strResult", "2-1")
	put(t, s, summary)
	got := get(t, s, record.Event, "1")
	for f, want := range map[string]string{"strEvent": "New Name", "strDescriptionEN": "long text", "strResult": "2-1", "idLeague": "4328"} {
		if got.Str(f) != want {
			t.Errorf("%s: got %q, want %q", f, got.Str(f), want)
		}
	}
	wantIDs(t, "new name indexed", find(t, s, store.Query{Kind: record.Event, Where: []store.Cond{eq("strEvent", record.Name, "new name")}}), "1")
	wantIDs(t, "old name gone", find(t, s, store.Query{Kind: record.Event, Where: []store.Cond{eq("strEvent", record.Name, "old name")}}))
	wantIDs(t, "unchanged index kept", find(t, s, store.Query{Kind: record.Event, Where: []store.Cond{eq("idLeague", record.Exact, "4328")}}), "1")
	// "" fills a null but does not replace a value.
	put(t, s, Rec(record.Event, "idEvent", "1", "strSeason", "", "strEvent", ""))
	got = get(t, s, record.Event, "1")
	if v := got.Get("strSeason"); !v.Valid || v.S != "" {
		t.Errorf(`"" must fill a null: %+v`, v)
	}
	if got.Str("strEvent") != "New Name" {
		t.Errorf(`"" must not erase a value: %q`, got.Str("strEvent"))
	}
}

func testUpsertTwice(t *testing.T, s store.Store) {
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "Stored", "strCountry", "Spain"))
	put(t, s,
		Rec(record.Team, "idTeam", "2", "strTeam", "Fresh", "strSport", "Soccer"),
		Rec(record.Team, "idTeam", "1", "strSport", "Soccer"),
		Rec(record.Team, "idTeam", "2", "strCountry", "Peru", "strTeam", ""),
		Rec(record.Team, "idTeam", "1", "strTeam", "Renamed"),
		Rec(record.Team, "idTeam", "2", "strTeam", "Fresh Again"),
	)
	one, two := get(t, s, record.Team, "1"), get(t, s, record.Team, "2")
	if one.Str("strTeam") != "Renamed" || one.Str("strCountry") != "Spain" || one.Str("strSport") != "Soccer" {
		t.Errorf("stored id merged twice: %v", one)
	}
	if two.Str("strTeam") != "Fresh Again" || two.Str("strCountry") != "Peru" || two.Str("strSport") != "Soccer" {
		t.Errorf("new id merged twice: %v", two)
	}
	wantIDs(t, "index of last merge", find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{eq("strTeam", record.Name, "fresh again")}}), "2")
	wantIDs(t, "insertion order", find(t, s, store.Query{Kind: record.Team}), "1", "2")

	// Across the batches a store may buffer writes in.
	err := s.Write(context.Background(), func(tx store.Tx) error {
		ctx := context.Background()
		if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "3", "strTeam", "Early", "strCountry", "Chile")); err != nil {
			return err
		}
		for i := range 4500 {
			if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", fmt.Sprint(1000+i), "strTeam", "Filler")); err != nil {
				return err
			}
		}
		return tx.Upsert(ctx, Rec(record.Team, "idTeam", "3", "strTeam", "Late"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if three := get(t, s, record.Team, "3"); three.Str("strTeam") != "Late" || three.Str("strCountry") != "Chile" {
		t.Errorf("merge across batches: %v", three)
	}
	if n := count(t, s, record.Team); n != 4503 {
		t.Errorf("count: %d, want 4503", n)
	}
}

func testReplace(t *testing.T, s store.Store) {
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "First", "strCountry", "Spain"),
		Rec(record.Team, "idTeam", "2", "strTeam", "Second"))
	err := s.Write(context.Background(), func(tx store.Tx) error {
		return tx.Replace(context.Background(), Rec(record.Team, "idTeam", "1", "strTeam", "Replaced"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got := get(t, s, record.Team, "1")
	if got.Str("strTeam") != "Replaced" || got.Get("strCountry").Valid {
		t.Errorf("replace kept old values: %v", got)
	}
	wantIDs(t, "old index value gone", find(t, s, store.Query{Kind: record.Team, Where: []store.Cond{eq("strCountry", record.Name, "spain")}}))
	wantIDs(t, "place kept", find(t, s, store.Query{Kind: record.Team}), "1", "2")
	err = s.Write(context.Background(), func(tx store.Tx) error {
		return tx.Replace(context.Background(), Rec(record.Team, "idTeam", "3", "strTeam", "New"))
	})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "replace inserts", find(t, s, store.Query{Kind: record.Team}), "1", "2", "3")
	err = s.Write(context.Background(), func(tx store.Tx) error {
		return tx.Upsert(context.Background(), Rec(record.Team, "strTeam", "No id"))
	})
	if !errors.Is(err, record.ErrNoID) {
		t.Errorf("record without id: got %v, want ErrNoID", err)
	}
}

func testDeleteAll(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	put(t, s, Rec(record.League, "idLeague", "4328", "strLeague", "English Premier League"))
	err := s.Write(context.Background(), func(tx store.Tx) error {
		if err := tx.DeleteAll(context.Background(), record.Team); err != nil {
			return err
		}
		return tx.Upsert(context.Background(), Rec(record.Team, "idTeam", "9", "strTeam", "After"))
	})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "teams after delete", find(t, s, store.Query{Kind: record.Team}), "9")
	wantIDs(t, "other kinds untouched", find(t, s, store.Query{Kind: record.League}), "4328")
	err = s.Write(context.Background(), func(tx store.Tx) error {
		if err := tx.Upsert(context.Background(), Rec(record.Team, "idTeam", "10", "strTeam", "Gone")); err != nil {
			return err
		}
		return tx.DeleteAll(context.Background(), record.Team)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, record.Team); n != 0 {
		t.Errorf("count after delete all: %d", n)
	}
}

var errStop = errors.New("stop")

// An error of fn keeps nothing of the transaction and leaves the data version alone.
func testRollback(t *testing.T, s store.Store) {
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "Kept"))
	v0 := version(t, s)
	err := s.Write(context.Background(), func(tx store.Tx) error {
		ctx := context.Background()
		if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "2", "strTeam", "Lost")); err != nil {
			return err
		}
		if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "1", "strTeam", "Changed")); err != nil {
			return err
		}
		if err := tx.DeleteAll(ctx, record.League); err != nil {
			return err
		}
		return errStop
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("write: got %v, want the error of fn", err)
	}
	wantIDs(t, "after rollback", find(t, s, store.Query{Kind: record.Team}), "1")
	if got := get(t, s, record.Team, "1").Str("strTeam"); got != "Kept" {
		t.Errorf("rolled back change kept: %q", got)
	}
	if v := version(t, s); v != v0 {
		t.Errorf("data version moved on a failed write: %d -> %d", v0, v)
	}
}

func count(t *testing.T, s store.Store, k *record.Kind) int64 {
	t.Helper()
	n, err := s.Count(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func version(t *testing.T, s store.Store) int64 {
	t.Helper()
	v, err := s.DataVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func testScanCount(t *testing.T, s store.Store) {
	if n := count(t, s, record.Team); n != 0 {
		t.Errorf("count of empty kind: %d", n)
	}
	put(t, s, teams()...)
	put(t, s, Rec(record.Team, "idTeam", "2", "strTeam", "Arsenal FC"), Rec(record.Team, "idTeam", "0", "strTeam", "Last"))
	var got []record.Record
	err := s.Scan(context.Background(), record.Team, func(r record.Record) error {
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs(t, "scan order", ids(t, got), "1", "2", "3", "4", "5", "6", "0")
	if got[1].Str("strTeam") != "Arsenal FC" || got[1].Str("strTeamAlternate") != "Gunners" {
		t.Errorf("scan gives stored records: %v", got[1])
	}
	if n := count(t, s, record.Team); n != 7 {
		t.Errorf("count: %d, want 7", n)
	}
	seen := 0
	err = s.Scan(context.Background(), record.Team, func(record.Record) error {
		seen++
		if seen == 2 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) || seen != 2 {
		t.Errorf("scan stops at fn's error: err %v after %d records", err, seen)
	}
}

func testDataVersion(t *testing.T, s store.Store) {
	v0 := version(t, s)
	put(t, s, Rec(record.Sport, "idSport", "1", "strSport", "Soccer"))
	v1 := version(t, s)
	if v1 == v0 {
		t.Errorf("data version did not advance: %d", v1)
	}
	if err := s.Write(context.Background(), func(store.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if v2 := version(t, s); v2 == v1 || v2 == v0 {
		t.Errorf("data version did not advance on a second write: %d, %d, %d", v0, v1, v2)
	}
}
