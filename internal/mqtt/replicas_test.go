package mqtt

import (
	"context"
	"testing"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/storetest"
)

// Two replicas on one PostgreSQL database: one publishes each change once; when it stops,
// the other takes over from the stored cursor.
func TestReplicasOnPostgres(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	dsn := pgtest.FreshSchema(t)
	open := func() *postgres.Store {
		return storetest.Opened(t, func(ctx context.Context) (*postgres.Store, error) { return postgres.Open(ctx, dsn) })
	}
	a, other := open(), open()
	sub := subscribe(t, b, prefix+"/#")
	leases := clock.NewManual(t0)
	first := start(t, a, testOptions(b, prefix, leases))
	first.waitStored(t, 0)
	second := start(t, other, testOptions(b, prefix, leases))

	first.waitStored(t, write(t, a, team("1", "A"), team("2", "B")))
	first.stop()
	cursor := write(t, other, team("3", "C"))
	second.waitStored(t, cursor)
	for _, id := range []string{"1", "2", "3"} {
		if m := sub.next(t); m.Topic != prefix+"/team/"+id || m.Payload != payload(t, other, record.Team, id) {
			t.Fatalf("%+v, want team %s once", m, id)
		}
	}
	if err := await(context.Background(), sub.c.Publish(prefix+"/zz-marker", 1, false, "x"), waitFor); err != nil {
		t.Fatal(err)
	}
	if m := sub.next(t); m.Topic != prefix+"/zz-marker" {
		t.Fatalf("%+v came twice", m)
	}
}
