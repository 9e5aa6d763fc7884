package server_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
)

// Two replicas on one PostgreSQL database: a change written through either one's store
// reaches the streams of both (LISTEN/NOTIFY, with polling behind it).
func TestStreamAcrossPostgresReplicas(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	var stores []store.Store
	var bases, keys []string
	for range 2 {
		st, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		srv, premium, _ := serveStore(t, st, nil)
		hs := httptest.NewServer(srv)
		t.Cleanup(hs.Close)
		stores, bases, keys = append(stores, st), append(bases, hs.URL), append(keys, premium)
	}
	a := openStream(t, bases[0], "/api/v2/json/stream/livescore/soccer", keys[0])
	b := openStream(t, bases[1], "/api/v2/json/stream/livescore/soccer", keys[1])
	upsert(t, stores[0], liveScore("7", "Soccer", "Arsenal", "1"))
	upsert(t, stores[1], liveScore("7", "Soccer", "Arsenal", "2"))
	for name, c := range map[string]*sseClient{"first replica": a, "second replica": b} {
		first, second := c.nextEvent(t), c.nextEvent(t)
		if first.id >= second.id || first.name != "livescore" || second.name != "livescore" {
			t.Errorf("%s: %+v then %+v, want two livescore events in cursor order", name, first, second)
		}
	}
}
