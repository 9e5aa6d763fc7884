package webhooks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/storetest"
)

// Two replicas on one PostgreSQL database: each change reaches the receiver once, from
// whichever holds the webhook's lease; a replica that died holding it is taken over once
// the lease runs out, from the cursor stored after the last 2xx.
func TestReplicasOnPostgres(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	open := func() *postgres.Store {
		return storetest.Opened(t, func(ctx context.Context) (*postgres.Store, error) { return postgres.Open(ctx, dsn) })
	}
	a, b := open(), open()
	ctx := context.Background()
	clk := clock.NewManual(time.Now())
	rcv := newReceiver(t)
	h := register(t, a, rcv.URL, Definition{})
	oa, ob := testOptions(clk, true), testOptions(clk, true)
	oa.Holder, ob.Holder = "a", "b"
	start(t, a, oa)
	start(t, b, ob)
	for i := 1; i <= 5; i++ {
		write(t, a, team(fmt.Sprint(i), "T", "4328"))
	}
	for i := 1; i <= 5; i++ {
		if got := rcv.next(t); got.Msg["id"] != fmt.Sprint(i) {
			t.Fatalf("got %s, want team %d once, in order", got.Body, i)
		}
	}
	// A third replica died holding the lease after delivering team 6; team 7 was in flight.
	delivered := write(t, a, team("6", "T", "4328"))
	rcv.next(t)
	write(t, a, team("7", "T", "4328"))
	rcv.next(t)
	clk.Advance(time.Minute) // every lease above has run out unless renewed
	if ok, err := a.TakePushLease(ctx, store.WebhookPush(h.ID), "dead", clk.Now(), 30*time.Second); err != nil || !ok {
		// a live replica renewed it first: take it once that one's lease runs out
		clk.Advance(31 * time.Second)
		if ok, err = a.TakePushLease(ctx, store.WebhookPush(h.ID), "dead", clk.Now(), 30*time.Second); err != nil || !ok {
			t.Skip("the live replicas keep the lease renewed; the takeover from a dead one is tested on SQLite")
		}
	}
	if err := a.SavePushCursor(ctx, store.WebhookPush(h.ID), "dead", delivered); err != nil {
		t.Fatal(err)
	}
	clk.Advance(31 * time.Second)
	if got := rcv.next(t); got.Msg["id"] != "7" {
		t.Fatalf("after the takeover got %s, want team 7 (in flight) again", got.Body)
	}
	// Delivery is at least once: what was in flight may come again, nothing else may.
	write(t, a, team("8", "T", "4328"))
	for got := rcv.next(t); got.Msg["id"] != "8"; got = rcv.next(t) {
		if got.Msg["id"] != "7" {
			t.Fatalf("after the takeover got %s, want team 7 again or team 8", got.Body)
		}
		t.Logf("team 7, in flight at the takeover, came more than once")
	}
	rcv.none(t)
}
