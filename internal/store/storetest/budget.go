package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// Budget checks a store's upstream budgets (store.Budget): at most limit slots in any 60 s,
// a slot free again 60 s after it was taken, budgets apart from each other, and no more than
// limit slots taken by many takers at once.
func Budget(t *testing.T, st store.Store) {
	ctx := context.Background()
	b, ok := st.(store.Budget)
	if !ok {
		t.Fatal("the store keeps no upstream budget")
	}
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	take := func(id string, limit int, at time.Duration) (bool, time.Duration) {
		t.Helper()
		ok, wait, err := b.BudgetTake(ctx, id, limit, t0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i := range 3 {
		if ok, _ := take("a", 3, time.Duration(i)*time.Second); !ok {
			t.Fatalf("slot %d of 3 refused", i+1)
		}
	}
	if ok, wait := take("a", 3, 3*time.Second); ok || wait != 57*time.Second {
		t.Errorf("a fourth slot within 60 s: %v, wait %v (want refused, 57s)", ok, wait)
	}
	if ok, _ := take("b", 1, 3*time.Second); !ok {
		t.Error("another budget's slot refused")
	}
	if ok, _ := take("a", 3, 60*time.Second); !ok {
		t.Error("the slot taken at 0 s is not free at 60 s")
	}
	if ok, wait := take("a", 3, 60*time.Second+500*time.Millisecond); ok || wait != 500*time.Millisecond {
		t.Errorf("at 60.5 s: %v, wait %v (want refused, 500ms)", ok, wait)
	}
	if ok, _ := take("a", 2, 121*time.Second); !ok {
		t.Error("a smaller limit later: refused")
	}

	var taken atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				ok, _, err := b.BudgetTake(ctx, "c", 5, t0)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					taken.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := taken.Load(); n != 5 {
		t.Errorf("80 takes at once of a budget of 5 took %d slots", n)
	}
}
