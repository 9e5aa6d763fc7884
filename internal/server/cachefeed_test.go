package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// countingStore counts the record reads that reach the database.
type countingStore struct {
	store.Store
	reads atomic.Int64
}

func (s *countingStore) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	s.reads.Add(1)
	return s.Store.Find(ctx, q)
}

func (s *countingStore) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	s.reads.Add(1)
	return s.Store.Get(ctx, k, id)
}

// A change to live scores, imported by another process, leaves cached answers about teams in
// the cache; a change to a team recomputes them; the live score answer is recomputed. An
// answer that read one record by id depends on that record only.
func TestCacheKeepsAnswersAChangeDidNotTouch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	counting := &countingStore{Store: st}
	srv, premium, _ := serveStore(t, counting, nil)
	other, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	upsert(t, other, team("1", "One"), liveScore("11", "Soccer", "Arsenal", "0"), event("5", "A vs B"))

	get := func(path string) (string, int64) {
		t.Helper()
		before := counting.reads.Load()
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, mustRequest(t, path, premium))
		body, _ := io.ReadAll(w.Result().Body)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, w.Code, body)
		}
		return string(body), counting.reads.Load() - before
	}
	steps := []struct {
		name   string
		change func()
		path   string
		want   string // in the body
		reads  bool   // the answer was computed, not served from the cache
	}{
		{"first team answer", nil, "/api/v2/json/lookup/team/1", `"strTeam":"One"`, true},
		{"first live scores", nil, "/api/v2/json/livescore/soccer", `"intHomeScore":"0"`, true},
		{"a goal", func() { upsert(t, other, liveScore("11", "Soccer", "Arsenal", "1")) }, "/api/v2/json/lookup/team/1", `"strTeam":"One"`, false},
		{"live scores after the goal", nil, "/api/v2/json/livescore/soccer", `"intHomeScore":"1"`, true},
		{"an identical import", func() { upsert(t, other, team("1", "One")) }, "/api/v2/json/livescore/soccer", `"intHomeScore":"1"`, false},
		{"the team renamed", func() { upsert(t, other, team("1", "Uno")) }, "/api/v2/json/lookup/team/1", `"strTeam":"Uno"`, true},
		{"live scores after the rename", nil, "/api/v2/json/livescore/soccer", `"intHomeScore":"1"`, false},
		{"first event 5 answer", nil, "/api/v2/json/lookup/event/5", `"strEvent":"A vs B"`, true},
		{"another event changed", func() { upsert(t, other, event("6", "C vs D")) }, "/api/v2/json/lookup/event/5", `"strEvent":"A vs B"`, false},
		{"event 5 changed", func() { upsert(t, other, event("5", "A vs B, replayed")) }, "/api/v2/json/lookup/event/5", `"strEvent":"A vs B, replayed"`, true},
		{"a missing event created", nil, "/api/v2/json/lookup/event/7", `{"Message":"No data found"}`, true},
		{"then created", func() { upsert(t, other, event("7", "E vs F")) }, "/api/v2/json/lookup/event/7", `"strEvent":"E vs F"`, true},
	}
	for _, step := range steps {
		if step.change != nil {
			step.change()
		}
		body, reads := get(step.path)
		if !strings.Contains(body, step.want) {
			t.Errorf("%s: %s lacks %s", step.name, body, step.want)
		}
		if (reads > 0) != step.reads {
			t.Errorf("%s: %d reads of the database; computed = %v, want %v", step.name, reads, reads > 0, step.reads)
		}
	}
}
