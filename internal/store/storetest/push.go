package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// Pushes checks a store's push progress (store.Pushes): one holder of a lease at a time,
// taken over once it expires or is released, a cursor kept across holders, and a holder
// that lost the lease unable to store one.
func Pushes(t *testing.T, st store.Store) {
	ctx := context.Background()
	p, ok := st.(store.Pushes)
	if !ok {
		t.Fatal("the store keeps no push progress")
	}
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	take := func(holder string, at time.Duration) bool {
		t.Helper()
		ok, err := p.TakePushLease(ctx, "mqtt", holder, t0.Add(at), 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if c, err := p.PushCursor(ctx, "mqtt"); err != nil || c != store.NoCursor {
		t.Fatalf("cursor of a new push: %d, %v; want NoCursor", c, err)
	}
	if !take("a", 0) {
		t.Fatal("a free lease refused")
	}
	if take("b", 10*time.Second) {
		t.Fatal("b took a's lease while it ran")
	}
	if !take("a", 20*time.Second) {
		t.Fatal("a could not renew its lease")
	}
	if err := p.SavePushCursor(ctx, "mqtt", "a", 42); err != nil {
		t.Fatal(err)
	}
	if take("b", 49*time.Second) {
		t.Fatal("b took the renewed lease before it expired")
	}
	if !take("b", 50*time.Second) {
		t.Fatal("b could not take the expired lease")
	}
	if err := p.SavePushCursor(ctx, "mqtt", "a", 43); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a stored a cursor after losing the lease: %v", err)
	}
	if c, err := p.PushCursor(ctx, "mqtt"); err != nil || c != 42 {
		t.Fatalf("cursor after takeover: %d, %v; want 42", c, err)
	}
	if err := p.ReleasePushLease(ctx, "mqtt", "b"); err != nil {
		t.Fatal(err)
	}
	if !take("a", 51*time.Second) {
		t.Fatal("a released lease refused")
	}
	other, err := p.TakePushLease(ctx, "other", "b", t0.Add(51*time.Second), 30*time.Second)
	if err != nil || !other {
		t.Fatalf("another push's lease: %v, %v", other, err)
	}
}
