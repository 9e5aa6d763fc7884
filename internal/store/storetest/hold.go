package storetest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// testHold: Hold sees the transaction's own writes, buffered or not, and says ErrNotFound
// for a record there is none of.
func testHold(t *testing.T, s store.Store) {
	ctx := context.Background()
	put(t, s, Rec(record.Team, "idTeam", "1", "strTeam", "One"))
	err := s.Write(ctx, func(tx store.Tx) error {
		h := tx.(store.HoldTx)
		if r, err := h.Hold(ctx, record.Team, "1"); err != nil || r.Str("strTeam") != "One" {
			t.Errorf("hold a stored team: %v, %v", r, err)
		}
		if _, err := h.Hold(ctx, record.Team, "2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("hold a team there is none of: %v, want ErrNotFound", err)
		}
		if err := tx.Replace(ctx, Rec(record.Team, "idTeam", "2", "strTeam", "Two")); err != nil {
			return err
		}
		if r, err := h.Hold(ctx, record.Team, "2"); err != nil || r.Str("strTeam") != "Two" {
			t.Errorf("hold a team written earlier in the transaction: %v, %v", r, err)
		}
		if _, err := h.Hold(ctx, nil, "1"); !errors.Is(err, store.ErrBadQuery) {
			t.Errorf("hold without a kind: %v, want ErrBadQuery", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testHoldConcurrent: transactions that read a count through Hold and write it back plus
// one, all at once, lose no increment: on a record that exists and on one the first of
// them creates.
func testHoldConcurrent(t *testing.T, s store.Store) {
	ctx := context.Background()
	put(t, s, Rec(record.Event, "idEvent", "1", "intHomeScore", "0"))
	const writers, each = 6, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for _, id := range []string{"1", "2"} {
					if err := increment(ctx, s, id); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, id := range []string{"1", "2"} {
		if got := get(t, s, record.Event, id).Str("intHomeScore"); got != strconv.Itoa(writers*each) {
			t.Errorf("event %s: intHomeScore %s after %d increments", id, got, writers*each)
		}
	}
}

// increment adds one to event id's intHomeScore, creating the event at 1.
func increment(ctx context.Context, s store.Store, id string) error {
	return s.Write(ctx, func(tx store.Tx) error {
		r, err := tx.(store.HoldTx).Hold(ctx, record.Event, id)
		n := 0
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		default:
			if n, err = strconv.Atoi(r.Str("intHomeScore")); err != nil {
				return err
			}
		}
		return tx.Replace(ctx, Rec(record.Event, "idEvent", id, "intHomeScore", strconv.Itoa(n+1)))
	})
}
