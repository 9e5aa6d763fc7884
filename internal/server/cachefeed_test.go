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

	"sportsdb/internal/apitest"
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

// leagueEvent is an event of a league, season and day.
func leagueEvent(id, league, day, name string) record.Record {
	r := event(id, name)
	r.Set("idLeague", record.Str(league))
	r.Set("strSeason", record.Str("2025-2026"))
	r.Set("dateEvent", record.Str(day))
	return r
}

// A change to an event of league A recomputes the cached lists of league A's events and
// leaves those of league B served from the cache; an event moved from league A to league B
// refreshes both, and one moved to another day refreshes the lists of both days. On the
// database apitest runs on (SPORTSDB_TEST_API_DB=postgres: PostgreSQL).
func TestCacheKeepsListsOfOtherLeagues(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	upsert(t, env.Store, leagueEvent("1", "100", "2026-01-10", "A1 vs A2"), leagueEvent("2", "200", "2026-01-11", "B1 vs B2"))
	seasonA := "eventsseason.php?id=100&s=2025-2026"
	seasonB := "eventsseason.php?id=200&s=2025-2026"
	day10, day11 := "eventsday.php?d=2026-01-10", "eventsday.php?d=2026-01-11"
	none, ptr := (*record.Record)(nil), func(r record.Record) *record.Record { return &r }
	steps := []struct {
		name     string
		change   *record.Record
		file     string
		want     []string // in the body
		unwanted string   // not in the body
		cached   bool     // served from the cache
	}{
		{"league A", none, seasonA, []string{`"A1 vs A2"`}, "B1", false},
		{"league B", none, seasonB, []string{`"B1 vs B2"`}, "A1", false},
		{"day 10", none, day10, []string{`"A1 vs A2"`}, "B1", false},
		{"day 11", none, day11, []string{`"B1 vs B2"`}, "A1", false},
		{"league B again", none, seasonB, []string{`"B1 vs B2"`}, "A1", true},
		{"league A's event renamed: league B", ptr(leagueEvent("1", "100", "2026-01-10", "A1 vs A2, replayed")), seasonB, []string{`"B1 vs B2"`}, "A1", true},
		{"league A after the rename", none, seasonA, []string{`"A1 vs A2, replayed"`}, "B1", false},
		{"day 11 after the rename", none, day11, []string{`"B1 vs B2"`}, "A1", true},
		{"day 10 after the rename", none, day10, []string{`"A1 vs A2, replayed"`}, "B1", false},
		{"the event moved to league B: league A", ptr(leagueEvent("1", "200", "2026-01-10", "A1 vs A2, replayed")), seasonA, nil, "A1", false},
		{"league B after the move", none, seasonB, []string{`"B1 vs B2"`, `"A1 vs A2, replayed"`}, "", false},
		{"day 11 after the move", none, day11, []string{`"B1 vs B2"`}, "A1", true},
		{"league B's event moved to day 10: day 11", ptr(leagueEvent("2", "200", "2026-01-10", "B1 vs B2")), day11, nil, "B1", false},
		{"day 10 after the day moved", none, day10, []string{`"A1 vs A2, replayed"`, `"B1 vs B2"`}, "", false},
		{"league A after the day moved", none, seasonA, nil, "B1", true},
	}
	for _, step := range steps {
		if step.change != nil {
			upsert(t, env.Store, *step.change)
		}
		hits := cacheCount(t, env, "hit")
		r := env.V1(t, env.PremiumKey, step.file)
		body := string(r.Body)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", step.name, r.Status, body)
		}
		for _, w := range step.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: %s lacks %s", step.name, body, w)
			}
		}
		if step.unwanted != "" && strings.Contains(body, step.unwanted) {
			t.Errorf("%s: %s holds %s", step.name, body, step.unwanted)
		}
		if cached := cacheCount(t, env, "hit") > hits; cached != step.cached {
			t.Errorf("%s: served from the cache %v, want %v", step.name, cached, step.cached)
		}
	}
}
