package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// changes reads the whole feed after since, page by page, and describes each change as
// "op kind id".
func changes(t *testing.T, s store.Store, since int64, kinds ...*record.Kind) ([]string, int64) {
	t.Helper()
	out := []string{}
	last := since
	for {
		got, next, err := s.Changes(context.Background(), since, kinds, 1000)
		if err != nil {
			t.Fatalf("changes since %d: %v", since, err)
		}
		for _, c := range got {
			if c.Cursor <= last {
				t.Fatalf("cursor %d after %d: not increasing", c.Cursor, last)
			}
			last = c.Cursor
			out = append(out, c.Op+" "+c.Kind.Name+" "+c.ID)
		}
		if len(got) == 0 {
			return out, next
		}
		since = next
	}
}

// Latest is the store's latest change cursor.
func Latest(t testing.TB, s store.Store) int64 {
	t.Helper()
	n, err := s.LatestCursor(context.Background())
	if err != nil {
		t.Fatalf("latest cursor: %v", err)
	}
	return n
}

func testChangeFeed(t *testing.T, s store.Store) {
	ctx := context.Background()
	got, next := changes(t, s, store.FromOldest)
	wantIDs(t, "empty feed", got)
	if next != 0 || Latest(t, s) != 0 {
		t.Fatalf("empty feed: next %d, latest %d; want 0, 0", next, Latest(t, s))
	}
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"), Rec(record.Team, "idTeam", "2", "strTeam", "Two"))
	got, next = changes(t, s, 0)
	wantIDs(t, "first import", got, "upsert team 1", "upsert team 2")
	if next != Latest(t, s) {
		t.Errorf("next %d, latest %d: want equal", next, Latest(t, s))
	}

	// An identical upsert, or one that merges an empty value, changes nothing.
	before := Latest(t, s)
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"), Rec(record.Team, "idTeam", "2"))
	if got, next = changes(t, s, before); len(got) != 0 || next != before {
		t.Errorf("identical re-import recorded %v (next %d, want %d)", got, next, before)
	}

	put(t, s, Rec(record.Event, "idEvent", "5", "strEvent", "A vs B"), Rec(record.Team, "idTeam", "2", "strTeam", "Deux"))
	got, _ = changes(t, s, before, record.Event)
	wantIDs(t, "kinds filter", got, "upsert event 5")
	got, _ = changes(t, s, before)
	wantIDs(t, "every kind", got, "upsert event 5", "upsert team 2")

	page, next, err := s.Changes(ctx, store.FromOldest, nil, 2)
	if err != nil || len(page) != 2 || next != page[1].Cursor {
		t.Fatalf("page of 2: %d changes, next %d, err %v; want next = the second cursor", len(page), next, err)
	}
	for _, since := range []int64{Latest(t, s) + 1, -5} {
		if _, _, err := s.Changes(ctx, since, nil, 10); !errors.Is(err, store.ErrCursorExpired) {
			t.Errorf("since %d: err %v, want ErrCursorExpired", since, err)
		}
	}

	// A failed write records nothing.
	before = Latest(t, s)
	boom := errors.New("boom")
	err = s.Write(ctx, func(tx store.Tx) error {
		if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", "9", "strTeam", "Nine")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || Latest(t, s) != before {
		t.Errorf("rolled back write: err %v, latest %d, want boom and %d", err, Latest(t, s), before)
	}
}

// testChangeFeedRewrite: a record written in two flushes of one write is one change; a
// record DeleteAll removed and the write put back as it was is none.
func testChangeFeedRewrite(t *testing.T, s store.Store) {
	ctx := context.Background()
	const many = 4500 // more than a flush of either backend, twice
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := 1; i <= many; i++ {
			if err := tx.Upsert(ctx, Rec(record.Team, "idTeam", fmt.Sprint(i), "strTeam", "T")); err != nil {
				return err
			}
		}
		return tx.Upsert(ctx, Rec(record.Team, "idTeam", "1", "strTeam", "Again"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := changes(t, s, 0)
	if len(got) != many || got[0] != "upsert team 1" {
		t.Fatalf("%d changes starting %q; want %d starting with team 1", len(got), got[0], many)
	}

	got = regenerateTeams(t, s, many-2, map[int]string{1: "Again", 2: "Changed"})
	wantIDs(t, "regenerated", got, fmt.Sprintf("delete team %d", many-1), fmt.Sprintf("delete team %d", many), "upsert team 2")
}

// regenerateTeams does what gen does to the team kind in one write: DeleteAll, then teams 1
// to n again, named "T" unless names says otherwise. It returns the changes, sorted.
func regenerateTeams(t *testing.T, s store.Store, n int, names map[int]string) []string {
	t.Helper()
	ctx := context.Background()
	before := Latest(t, s)
	err := s.Write(ctx, func(tx store.Tx) error {
		if err := tx.DeleteAll(ctx, record.Team); err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			name, ok := names[i]
			if !ok {
				name = "T"
			}
			if err := tx.Replace(ctx, Rec(record.Team, "idTeam", fmt.Sprint(i), "strTeam", name)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := changes(t, s, before)
	slices.Sort(got)
	return got
}

// testChangeFeedBulk: a write of more records than a change set keys (an import) into empty
// tables records one change per record it leaves stored, in the order first written, and
// none for a record it wrote and removed again; the same into tables that held records (gen
// regenerating) records only what differs from before.
func testChangeFeedBulk(t *testing.T, s store.Store) {
	ctx := context.Background()
	const many = 12_000 // past the change set's keyed changes
	team := func(i int, name string) record.Record {
		return Rec(record.Team, "idTeam", fmt.Sprint(i), "strTeam", name)
	}
	err := s.Write(ctx, func(tx store.Tx) error {
		if err := tx.Upsert(ctx, Rec(record.Event, "idEvent", "7", "strEvent", "A vs B")); err != nil {
			return err
		}
		for i := many; i >= 1; i-- {
			if err := tx.Upsert(ctx, team(i, "T")); err != nil {
				return err
			}
		}
		if err := tx.Upsert(ctx, team(many, "Again")); err != nil {
			return err
		}
		if err := tx.Upsert(ctx, Rec(record.Player, "idPlayer", "1", "strPlayer", "Gone")); err != nil {
			return err
		}
		if err := tx.DeleteAll(ctx, record.Player); err != nil {
			return err
		}
		return tx.Upsert(ctx, Rec(record.Player, "idPlayer", "2", "strPlayer", "Kept"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := changes(t, s, 0)
	want := []string{"upsert event 7"}
	for i := many; i >= 1; i-- {
		want = append(want, fmt.Sprintf("upsert team %d", i))
	}
	want = append(want, "upsert player 2")
	if !slices.Equal(got, want) {
		if len(got) > 5 {
			got = append(got[:3], fmt.Sprintf("... %d in all ...", len(got)), got[len(got)-1])
		}
		t.Fatalf("import into empty tables recorded %v; want %d changes: event 7, teams %d down to 1, player 2", got, len(want), many)
	}
	if n, err := s.Count(ctx, record.Team); err != nil || n != many {
		t.Fatalf("%d teams stored (err %v), want %d", n, err, many)
	}

	got = regenerateTeams(t, s, many-1, map[int]string{5: "Changed", many - 1: "Again"})
	wantIDs(t, "regenerated", got, fmt.Sprintf("delete team %d", many), fmt.Sprintf("upsert team %d", many-1), "upsert team 5")
}

// testChangeRetention: changes older than the retention go with the next write, and a cursor
// from before them is expired.
func testChangeRetention(t *testing.T, s store.Store) {
	ctx := context.Background()
	now := time.Date(2026, 10, 5, 20, 6, 0, 0, time.UTC)
	s.SetFeedOptions(store.FeedOptions{Retention: time.Hour, Now: func() time.Time { return now }})
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"))
	first, _, err := s.Changes(ctx, store.FromOldest, nil, 10)
	if err != nil || len(first) != 1 || first[0].Time != now {
		t.Fatalf("first change: %v, err %v; want one at %v", first, err, now)
	}
	now = now.Add(2 * time.Hour)
	put(t, s, Rec(record.Team, "idTeam", "2", "strTeam", "Two"))
	got, _ := changes(t, s, store.FromOldest)
	wantIDs(t, "after pruning", got, "upsert team 2")
	if _, _, err := s.Changes(ctx, 0, nil, 10); !errors.Is(err, store.ErrCursorExpired) {
		t.Errorf("since 0 after pruning: err %v, want ErrCursorExpired", err)
	}
	got, _ = changes(t, s, first[0].Cursor)
	wantIDs(t, "since the pruned cursor", got, "upsert team 2")
	if Latest(t, s) <= first[0].Cursor {
		t.Errorf("latest %d not after the pruned %d", Latest(t, s), first[0].Cursor)
	}
}

// testChangeKeys: an upsert's change holds the record's index values before and after it, so
// an event moved from one league to another names both; a replace, whose earlier values the
// write did not read, is not bounded.
func testChangeKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	keysOf := func(since int64) []store.Change {
		t.Helper()
		got, _, err := s.Changes(ctx, since, nil, 100)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	has := func(c store.Change, col, v string) bool {
		return slices.Contains(c.Keys, store.IndexKey{Column: col, Value: v})
	}
	before := Latest(t, s)
	put(t, s, Rec(record.Event, "idEvent", "7", "idLeague", "100", "strEvent", "A vs B", "dateEvent", "2026-01-02"))
	got := keysOf(before)
	if len(got) != 1 || !got[0].Bounded || !has(got[0], "c_idleague", "100") || !has(got[0], "c_dateevent", "2026-01-02") {
		t.Fatalf("new event: %+v; want bounded, with idLeague 100 and dateEvent 2026-01-02", got)
	}
	before = Latest(t, s)
	put(t, s, Rec(record.Event, "idEvent", "7", "idLeague", "200"))
	got = keysOf(before)
	if len(got) != 1 || !got[0].Bounded || !has(got[0], "c_idleague", "100") || !has(got[0], "c_idleague", "200") ||
		!has(got[0], "n_strevent", "a vs b") {
		t.Fatalf("moved event: %+v; want bounded, with idLeague 100 and 200 and its folded name", got)
	}
	before = Latest(t, s)
	err := s.Write(ctx, func(tx store.Tx) error {
		return tx.Replace(ctx, Rec(record.Event, "idEvent", "7", "idLeague", "300"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got = keysOf(before); len(got) != 1 || got[0].Bounded {
		t.Fatalf("replaced event: %+v; want one change, not bounded", got)
	}
	// A replace of a record the transaction holds (the records API's writes) knows what it
	// replaces: its change has the values before and after, as an upsert's.
	before = Latest(t, s)
	err = s.Write(ctx, func(tx store.Tx) error {
		if _, err := tx.(store.HoldTx).Hold(ctx, record.Event, "7"); err != nil {
			return err
		}
		return tx.Replace(ctx, Rec(record.Event, "idEvent", "7", "idLeague", "400", "dateEvent", "2026-01-03"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got = keysOf(before); len(got) != 1 || !got[0].Bounded || !has(got[0], "c_idleague", "300") ||
		!has(got[0], "c_idleague", "400") || !has(got[0], "c_dateevent", "2026-01-03") {
		t.Fatalf("held and replaced event: %+v; want bounded, with idLeague 300 and 400 and dateEvent 2026-01-03", got)
	}
	// A list's values are kept too, folded as the store keeps them: the searches of an item
	// read them.
	before = Latest(t, s)
	put(t, s, Rec(record.Team, "idTeam", "70", "strTeam", "Arsenal", "strTeamAlternate", "The Gunners, AFC"))
	put(t, s, Rec(record.Team, "idTeam", "70", "strTeamAlternate", "Gooners"))
	if got = keysOf(before); len(got) != 2 || !has(got[1], "l_strteamalternate", ",the gunners,afc,") ||
		!has(got[1], "l_strteamalternate", ",gooners,") || !has(got[1], "n_strteam", "arsenal") {
		t.Fatalf("team's alternate names changed: %+v; want both lists and its folded name", got)
	}
	// Held when there was none: the replace creates it, knowing there was none.
	before = Latest(t, s)
	err = s.Write(ctx, func(tx store.Tx) error {
		if _, err := tx.(store.HoldTx).Hold(ctx, record.Event, "8"); !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("hold of a new event: %v", err)
		}
		return tx.Replace(ctx, Rec(record.Event, "idEvent", "8", "idLeague", "500"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got = keysOf(before); len(got) != 1 || !got[0].Bounded || !has(got[0], "c_idleague", "500") || has(got[0], "c_idleague", "400") {
		t.Fatalf("held new event: %+v; want bounded, with idLeague 500 alone", got)
	}
}
