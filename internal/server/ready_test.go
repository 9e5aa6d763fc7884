package server_test

import (
	"strings"
	"testing"

	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// warming is a store that builds something in memory at start (as the name index does) and
// says when it has: Warmed is closed then.
type warming struct {
	store.Store
	done chan struct{}
}

func (w warming) Warmed() <-chan struct{} { return w.done }

// A server whose store is still building its in-memory index at start is not ready: /readyz
// says 503 "starting" (a load balancer waits), while its API already answers; once built,
// /readyz says ready.
func TestReadyWaitsForTheStoreToWarm(t *testing.T) {
	done := make(chan struct{})
	c := newConfigured(t, func(cfg *server.Config) { cfg.Store = warming{Store: cfg.Store, done: done} })

	r := c.get("/readyz", "192.0.2.1:1")
	if r.Code != 503 || !strings.Contains(r.Body.String(), `"status":"starting"`) || !strings.Contains(r.Body.String(), `"database":"ok"`) {
		t.Fatalf("/readyz while warming: %d %s, want 503 starting with the database ok", r.Code, r.Body)
	}
	if a := c.get("/api/v1/json/123/all_sports.php", "192.0.2.1:1"); a.Code != 200 {
		t.Fatalf("API while warming: %d %s, want 200", a.Code, a.Body)
	}
	close(done)
	if r := c.get("/readyz", "192.0.2.1:1"); r.Code != 200 || !strings.Contains(r.Body.String(), `"status":"ready"`) {
		t.Fatalf("/readyz once warm: %d %s, want 200 ready", r.Code, r.Body)
	}
}
