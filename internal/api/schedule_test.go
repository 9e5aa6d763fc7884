package api_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// An event that starts exactly now has started: both versions list it among the previous
// events of its league and team, and neither among the next ones. A second earlier it is
// the next event.
func TestEventStartingNowIsPrevious(t *testing.T) {
	start := time.Date(2026, 10, 5, 20, 5, 0, 0, time.UTC)
	for _, c := range []struct {
		now        time.Time
		next, past []string
	}{
		{start, []string{"3"}, []string{"2", "1"}},
		{start.Add(-time.Second), []string{"2", "3"}, []string{"1"}},
	} {
		env := scheduleEnv(t, c.now, event("1", start.Add(-time.Hour)), event("2", start), event("3", start.Add(time.Second)))
		for _, p := range []struct {
			name, path, key string
			next            bool
		}{
			{"v1 league next", "/api/v1/json/{key}/eventsnextleague.php?id=4328", "events", true},
			{"v1 league past", "/api/v1/json/{key}/eventspastleague.php?id=4328", "events", false},
			{"v1 team next", "/api/v1/json/{key}/eventsnext.php?id=133602", "events", true},
			{"v1 team last", "/api/v1/json/{key}/eventslast.php?id=133602", "results", false},
			{"v2 league next", "/api/v2/json/{key}/schedule/next/league/4328", "schedule", true},
			{"v2 league previous", "/api/v2/json/{key}/schedule/previous/league/4328", "schedule", false},
			{"v2 team next", "/api/v2/json/{key}/schedule/next/team/133602", "schedule", true},
			{"v2 team previous", "/api/v2/json/{key}/schedule/previous/team/133602", "schedule", false},
		} {
			want := c.past
			if p.next {
				want = c.next
			}
			got := eventIDs(t, env.Get(t, strings.Replace(p.path, "{key}", env.PremiumKey, 1)), p.key)
			if !slices.Equal(got, want) {
				t.Errorf("%s at %s: %v, want %v", p.name, c.now.Format(time.TimeOnly), got, want)
			}
		}
	}
}

// scheduleEnv is a server whose clock stands at now, holding the events.
func scheduleEnv(t *testing.T, now time.Time, events ...record.Record) *apitest.Env {
	t.Helper()
	env := apitest.New(t, apitest.Options{Now: now})
	err := env.Store.Write(context.Background(), func(tx store.Tx) error {
		for _, r := range events {
			if err := tx.Upsert(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// event is a league 4328 game of team 133602 at home, starting at.
func event(id string, at time.Time) record.Record {
	r := record.Event.NewRecord()
	for f, v := range map[string]string{"idEvent": id, "idLeague": "4328", "idHomeTeam": "133602",
		"idAwayTeam": "133604", "strEvent": "Liverpool vs Arsenal", "strTimestamp": at.Format(api.TimestampLayout),
		"dateEvent": at.Format(time.DateOnly)} {
		r.Set(f, record.Str(v))
	}
	return r
}

// eventIDs reads the idEvent of the records under key; nil for no records (v1 null, v2
// "No data found").
func eventIDs(t *testing.T, r *apitest.Response, key string) []string {
	t.Helper()
	var body map[string]json.RawMessage
	if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var recs []map[string]any
	if raw, ok := body[key]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &recs); err != nil {
			t.Fatalf("%s: %v", r.Body, err)
		}
	}
	var ids []string
	for _, rec := range recs {
		ids = append(ids, rec["idEvent"].(string))
	}
	return ids
}
