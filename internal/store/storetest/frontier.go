package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Frontier checks a store's mirror frontier (store.Frontier, store.FrontierTx): entries
// queued once, outcomes set, due entries in priority then insertion order, and the frontier
// committed or rolled back with the records of the same transaction.
func Frontier(t *testing.T, st store.Store) {
	ctx := context.Background()
	fr, ok := st.(store.Frontier)
	if !ok {
		t.Fatal("the store keeps no frontier")
	}
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	write := func(fn func(store.FrontierTx) error) error {
		return st.Write(ctx, func(tx store.Tx) error { return fn(tx.(store.FrontierTx)) })
	}
	err := write(func(tx store.FrontierTx) error {
		return tx.FrontierAdd(ctx, []store.FrontierEntry{{URL: "a", Priority: 1}, {URL: "b", Priority: 2}, {URL: "c", Priority: 1}})
	})
	if err != nil {
		t.Fatal(err)
	}
	// Adding again changes nothing; setting an outcome does.
	err = write(func(tx store.FrontierTx) error {
		if err := tx.FrontierAdd(ctx, []store.FrontierEntry{{URL: "a", Priority: 9}}); err != nil {
			return err
		}
		return tx.FrontierSet(ctx, store.FrontierEntry{URL: "c", Priority: 5, Fetched: t0, Due: t0.Add(time.Hour), Status: "ok"})
	})
	if err != nil {
		t.Fatal(err)
	}
	due, err := fr.FrontierDue(ctx, t0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(due); got != "b a" {
		t.Errorf("due at t0: %q, want \"b a\"", got)
	}
	c, err := fr.FrontierGet(ctx, "c")
	if err != nil || !c.Fetched.Equal(t0) || !c.Due.Equal(t0.Add(time.Hour)) || c.Status != "ok" || c.Priority != 1 {
		t.Errorf("c: %+v, %v", c, err)
	}
	if _, err := fr.FrontierGet(ctx, "zz"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown entry: %v, want ErrNotFound", err)
	}
	stats, err := fr.FrontierStats(ctx, t0)
	if err != nil || stats.Total != 3 || stats.Due != 2 || !stats.Next.Equal(t0.Add(time.Hour)) {
		t.Errorf("stats %+v, %v", stats, err)
	}
	// A failed transaction keeps neither its records nor its frontier change.
	boom := errors.New("boom")
	err = st.Write(ctx, func(tx store.Tx) error {
		r := record.Sport.NewRecord()
		r.Set("idSport", record.Str("999"))
		if err := tx.Upsert(ctx, r); err != nil {
			return err
		}
		if err := tx.(store.FrontierTx).FrontierSet(ctx, store.FrontierEntry{URL: "a", Fetched: t0, Due: t0.Add(time.Hour), Status: "ok"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("write: %v", err)
	}
	if a, _ := fr.FrontierGet(ctx, "a"); !a.Fetched.IsZero() {
		t.Errorf("a rolled back but marked fetched: %+v", a)
	}
	if _, err := st.Get(ctx, record.Sport, "999"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the rolled back record: %v", err)
	}
}

func urls(es []store.FrontierEntry) string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += " "
		}
		s += e.URL
	}
	return s
}
