package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
)

// A key revoked through one replica's database: until the lookups of the key expire, its
// requests and streams go on alike on every replica; once they have, new requests are
// refused and its open streams (key in the header, key in the path, on either replica) end.
func TestRevokedKeyEndsItsStreams(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "db.sqlite")
		revokedStreamsEnd(t, func() store.Store {
			st, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.FreshSchema(t)
		revokedStreamsEnd(t, func() store.Store {
			st, err := postgres.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
}

func revokedStreamsEnd(t *testing.T, open func() store.Store) {
	start := time.Date(2026, 10, 5, 20, 0, 0, 0, time.UTC)
	var stores []store.Store
	var clocks []*clock.Manual
	var bases []string
	var key string
	for i := range 2 {
		st, clk := open(), clock.NewManual(start)
		srv, premium, _ := serveStoreKeys(t, st, nil, ratelimit.NewMemory(clock.System{}), clk)
		hs := httptest.NewServer(srv)
		t.Cleanup(hs.Close)
		stores, clocks, bases = append(stores, st), append(clocks, clk), append(bases, hs.URL)
		if i == 0 {
			key = premium
		}
	}
	inHeader := openStream(t, bases[0], "/api/v2/json/stream/livescore", key)
	inPath := openStream(t, bases[1], "/api/v2/json/"+key+"/stream/livescore/soccer", "")
	if err := stores[0].RevokeKey(context.Background(), auth.Hash(key), start); err != nil {
		t.Fatal(err)
	}

	upsert(t, stores[1], liveScore("7", "Soccer", "Arsenal", "1"))
	for name, c := range map[string]*sseClient{"key in the header": inHeader, "key in the path": inPath} {
		if ev := c.nextEvent(t); ev.name != "livescore" {
			t.Fatalf("%s, before the lookup expired: %+v, want the live score", name, ev)
		}
	}
	for i, base := range bases {
		if code := status(t, base, key); code != http.StatusOK {
			t.Fatalf("replica %d, before the lookup expired: %d, want 200 as the streams go on", i, code)
		}
	}

	for _, clk := range clocks {
		clk.Advance(auth.MaxTTL)
	}
	for i, base := range bases {
		if code := status(t, base, key); code != http.StatusBadRequest {
			t.Fatalf("replica %d, once the lookup expired: %d, want 400", i, code)
		}
	}
	for name, c := range map[string]*sseClient{"key in the header": inHeader, "key in the path": inPath} {
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Fatalf("%s: the stream of the revoked key is still open", name)
		}
	}
}

// status is the status of a change feed request with key.
func status(t *testing.T, base, key string) int {
	t.Helper()
	resp := streamRequest(t, base, "/api/v2/json/changes?limit=1", key)
	resp.Body.Close()
	return resp.StatusCode
}
