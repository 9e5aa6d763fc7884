package server_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/app"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// nameSpy is a store that says it answers name searches with the names alone
// (store.NameFinder) and counts how often it is asked; it answers none, so the search reads
// the records instead.
type nameSpy struct {
	store.Store
	asked atomic.Int64
}

func (s *nameSpy) FindNames(ctx context.Context, q store.Query, field string) (store.Names, bool, error) {
	s.asked.Add(1)
	return store.Names{}, false, nil
}

func (s *nameSpy) RecordsBySeqs(context.Context, *record.Kind, []int64, int64) ([]record.Record, bool, error) {
	return nil, false, nil
}

// The player search reaches a store's name search through the mounts, which read the store
// wrapped to note what each answer read.
func TestPlayerSearchAsksTheStoreForNames(t *testing.T) {
	var spy *nameSpy
	c := newConfigured(t, func(cfg *server.Config) {
		spy = &nameSpy{Store: cfg.Store}
		cfg.Store, cfg.Mounts = spy, app.Mounts(api.Deps{Store: spy, Clock: cfg.Clock, Caps: caps.New()})
	})
	w := c.get("/api/v1/json/123/searchplayers.php?p=Mario", "192.0.2.1:1234")
	if w.Code != http.StatusOK || w.Body.String() != `{"player":null}` {
		t.Fatalf("search: %d %s", w.Code, w.Body)
	}
	if spy.asked.Load() == 0 {
		t.Error("the player search never asked the store for names")
	}
}
