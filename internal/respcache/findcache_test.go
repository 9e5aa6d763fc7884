package respcache

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
)

// Kept Finds brought up to date from the feed select what the store selects, write after
// write: score updates, moves between leagues, days and teams, renames, new events, deletes
// and writes of two records at once, against queries of equalities, alternatives, names,
// ranges, sort keys and limits; and most of them are answered from the kept records, which
// a test of the store's answers alone would not show.
func TestKeptFindsSelectWhatTheStoreSelects(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "finds.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		testKeptFinds(t, st)
	})
	t.Run("postgres", func(t *testing.T) {
		st, err := postgres.Open(context.Background(), pgtest.FreshSchema(t))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		testKeptFinds(t, st)
	})
}

func testKeptFinds(t *testing.T, st store.Store) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 7))
	event := func(id int) record.Record {
		r := record.Event.NewRecord()
		league := 4328 + rng.IntN(3)
		home, away := 100+rng.IntN(6), 100+rng.IntN(6)
		day := fmt.Sprintf("2026-11-%02d", 27+rng.IntN(4))
		r.Set("idEvent", record.Str(fmt.Sprint(id)))
		r.Set("idLeague", record.Str(fmt.Sprint(league)))
		r.Set("strSeason", record.Str("2026-2027"))
		r.Set("idHomeTeam", record.Str(fmt.Sprint(home)))
		r.Set("idAwayTeam", record.Str(fmt.Sprint(away)))
		r.Set("strEvent", record.Str(fmt.Sprintf("Team %d vs Team %d", home, away)))
		r.Set("dateEvent", record.Str(day))
		r.Set("strTimestamp", record.Str(day+"T1"+fmt.Sprint(rng.IntN(10))+":00:00"))
		r.Set("intRound", record.Str(fmt.Sprint(1+rng.IntN(3))))
		r.Set("strSport", record.Str("Soccer"))
		return r
	}
	score := func(id int) record.Record {
		r := record.Event.NewRecord()
		r.Set("idEvent", record.Str(fmt.Sprint(id)))
		r.Set("intHomeScore", record.Str(fmt.Sprint(rng.IntN(9))))
		r.Set("strStatus", record.Str([]string{"1H", "HT", "2H", "FT"}[rng.IntN(4)]))
		return r
	}
	write := func(fn func(tx store.Tx) error) {
		t.Helper()
		if err := st.Write(ctx, fn); err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
	}
	next := 1
	write(func(tx store.Tx) error {
		for ; next <= 60; next++ {
			if err := tx.Upsert(ctx, event(next)); err != nil {
				return err
			}
		}
		return nil
	})

	eq := func(field, v string) store.Cond { return store.Cond{Field: field, Value: v} }
	byTime := []store.Order{{Field: "strTimestamp"}}
	queries := []store.Query{
		{Kind: record.Event, Where: []store.Cond{eq("idLeague", "4328"), eq("strSeason", "2026-2027")}, OrderBy: byTime},
		{Kind: record.Event, Where: []store.Cond{eq("dateEvent", "2026-11-28")}},
		{Kind: record.Event, Where: []store.Cond{{Or: []store.Cond{eq("idHomeTeam", "101"), eq("idAwayTeam", "101")}}}, OrderBy: byTime, Limit: 5},
		{Kind: record.Event, Where: []store.Cond{eq("idLeague", "4329"), {Field: "strTimestamp", Op: store.Ge, Value: "2026-11-29"}}, OrderBy: byTime, Limit: 4},
		{Kind: record.Event, Where: []store.Cond{eq("idLeague", "4330"), eq("intRound", "2")}, OrderBy: []store.Order{{Field: "intRound", Numeric: true, Desc: true}}},
		{Kind: record.Event, Where: []store.Cond{{Field: "strEvent", Norm: record.Name, Value: "team 102 vs team 103"}}},
		{Kind: record.Event, Where: []store.Cond{{Field: "strEvent", Norm: record.Name, Op: store.Contains, Value: "team 104"}}, Limit: 6},
		{Kind: record.Event, Where: []store.Cond{{Field: "strSport", Norm: record.Name, Value: "soccer"}}, OrderBy: byTime, Limit: 10},
	}
	feed := &feedTracker{src: st}
	finds := newFindCache(findCacheBytes)
	asked, kept := 0, 0
	finds.kept = func() { kept++ }
	for round := range 400 {
		id := 1 + rng.IntN(next-1)
		switch n := rng.IntN(20); {
		case n < 12: // a score update: what the kept records can follow
			write(func(tx store.Tx) error { return tx.Upsert(ctx, score(id)) })
		case n < 15: // moved: league, teams, day, time
			write(func(tx store.Tx) error {
				r := event(0)
				r.Set("idEvent", record.Str(fmt.Sprint(id)))
				return tx.Upsert(ctx, r)
			})
		case n < 17: // a new event
			write(func(tx store.Tx) error { next++; return tx.Upsert(ctx, event(next-1)) })
		case n < 18:
			write(func(tx store.Tx) error { return tx.(store.DeleteTx).Delete(ctx, record.Event, fmt.Sprint(id)) })
		case n < 19: // deleted, then written again as it was: it comes last in insertion order
			was, err := st.Get(ctx, record.Event, fmt.Sprint(id))
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			write(func(tx store.Tx) error { return tx.(store.DeleteTx).Delete(ctx, record.Event, fmt.Sprint(id)) })
			write(func(tx store.Tx) error { return tx.Upsert(ctx, was) })
		default: // two records in one write
			write(func(tx store.Tx) error {
				if err := tx.Upsert(ctx, score(id)); err != nil {
					return err
				}
				return tx.Upsert(ctx, score(1+rng.IntN(next-1)))
			})
		}
		version, err := st.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cursor, err := feed.sync(ctx, version)
		if err != nil {
			t.Fatal(err)
		}
		scope := findScope{cache: finds, feed: feed, cursor: cursor}
		for qi, q := range queries {
			got, err := scope.find(ctx, st, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := st.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			asked++
			if g, w := describe(got), describe(want); g != w {
				t.Fatalf("round %d, query %d: kept records\n%s\nthe store's\n%s", round, qi, g, w)
			}
		}
	}
	if kept < asked/2 {
		t.Errorf("%d of %d Finds answered from kept records, want at least half", kept, asked)
	}
	t.Logf("%d of %d Finds answered from kept records", kept, asked)
}

// describe is the records as a test compares them: ids, scores and statuses, in order.
func describe(recs []record.Record) string {
	var b strings.Builder
	for _, r := range recs {
		fmt.Fprintf(&b, "%s:%s:%s ", r.Str("idEvent"), r.Str("intHomeScore"), r.Str("strStatus"))
	}
	return b.String()
}
