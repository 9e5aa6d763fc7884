package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func team(id, name string) record.Record {
	r := record.Team.NewRecord()
	r.Set("idTeam", record.Str(id))
	r.Set("strTeam", record.Str(name))
	return r
}

func event(id, name string) record.Record {
	r := record.Event.NewRecord()
	r.Set("idEvent", record.Str(id))
	r.Set("strEvent", record.Str(name))
	return r
}

// The changes endpoint pages through the feed with the exact body of docs/CONTRACT.md section 9,
// and answers bad parameters with a 400 that says what is wrong.
func TestChangesEndpoint(t *testing.T) {
	e := newLiveEnv(t, nil)
	at := time.Date(2026, 10, 5, 20, 6, 0, 0, time.UTC)
	e.store.SetFeedOptions(store.FeedOptions{Now: func() time.Time { return at }})
	upsert(t, e.store, team("1", "One"), event("441613", "A vs B"))
	upsert(t, e.store, team("1", "Uno"))
	const ch1 = `{"cursor":"1","kind":"team","id":"1","op":"upsert","time":"2026-10-05 20:06:00"}`
	const ch2 = `{"cursor":"2","kind":"event","id":"441613","op":"upsert","time":"2026-10-05 20:06:00"}`
	const ch3 = `{"cursor":"3","kind":"team","id":"1","op":"upsert","time":"2026-10-05 20:06:00"}`
	tests := []struct {
		name, path, key string
		status          int
		body            string
	}{
		{"from the oldest", "/api/v2/json/changes", "premium", 200, `{"changes":[` + ch1 + `,` + ch2 + `,` + ch3 + `],"next":"3"}`},
		{"since", "/api/v2/json/changes?since=1", "premium", 200, `{"changes":[` + ch2 + `,` + ch3 + `],"next":"3"}`},
		{"kinds", "/api/v2/json/changes?kinds=event,livescore", "premium", 200, `{"changes":[` + ch2 + `],"next":"3"}`},
		{"limit", "/api/v2/json/changes?limit=1&since=1", "premium", 200, `{"changes":[` + ch2 + `],"next":"2"}`},
		{"nothing new", "/api/v2/json/changes?since=3", "premium", 200, `{"changes":[],"next":"3"}`},
		{"key in the path", "/api/v2/json/{key}/changes?since=2", "", 200, `{"changes":[` + ch3 + `],"next":"3"}`},
		{"large limit is the most", "/api/v2/json/changes?limit=5000&since=2", "premium", 200, `{"changes":[` + ch3 + `],"next":"3"}`},
		{"never issued", "/api/v2/json/changes?since=4", "premium", 410, `{"Message":"Cursor expired"}`},
		{"bad since", "/api/v2/json/changes?since=abc", "premium", 400, `{"Message":"Invalid since: want a cursor (digits) from an earlier answer"}`},
		{"negative since", "/api/v2/json/changes?since=-1", "premium", 400, `{"Message":"Invalid since: want a cursor (digits) from an earlier answer"}`},
		{"bad kind", "/api/v2/json/changes?kinds=event,goal", "premium", 400, `{"Message":"Unknown kind \"goal\" in kinds: want names like event,livescore,team"}`},
		{"zero limit", "/api/v2/json/changes?limit=0", "premium", 400, `{"Message":"Invalid limit: want a number from 1 to 1000"}`},
		{"bad limit", "/api/v2/json/changes?limit=ten", "premium", 400, `{"Message":"Invalid limit: want a number from 1 to 1000"}`},
		{"escaped kinds", "/api/v2/json/changes?kinds=event%2Clivescore", "premium", 200, `{"changes":[` + ch2 + `],"next":"3"}`},
		{"bad escape in since", "/api/v2/json/changes?since=%zz", "premium", 400, `{"Message":"Invalid since: bad percent escape"}`},
		{"bad escape in kinds", "/api/v2/json/changes?kinds=%", "premium", 400, `{"Message":"Invalid kinds: bad percent escape"}`},
		{"bad escape in a name", "/api/v2/json/changes?%zz=1", "premium", 400, `{"Message":"Invalid query: bad percent escape in \"%zz\""}`},
		{"semicolon", "/api/v2/json/changes?since=1;limit=2", "premium", 400, `{"Message":"Invalid query: separate parameters with &, not ;"}`},
		{"since twice", "/api/v2/json/changes?since=1&since=2", "premium", 400, `{"Message":"Invalid since: given more than once"}`},
		{"signed limit", "/api/v2/json/changes?limit=+5", "premium", 400, `{"Message":"Invalid limit: want a number from 1 to 1000"}`},
		{"plus-signed limit", "/api/v2/json/changes?limit=%2B5", "premium", 400, `{"Message":"Invalid limit: want a number from 1 to 1000"}`},
		{"spaced limit", "/api/v2/json/changes?limit=%205", "premium", 400, `{"Message":"Invalid limit: want a number from 1 to 1000"}`},
		{"bad escape on a stream", "/api/v2/json/stream/changes?kinds=%", "premium", 400, `{"Message":"Invalid kinds: bad percent escape"}`},
		{"semicolon on a stream", "/api/v2/json/{key}/stream/livescore?since=1;kinds=x", "", 400, `{"Message":"Invalid query: separate parameters with &, not ;"}`},
		{"free key", "/api/v2/json/changes", "123", 400, `{"Message":"Premium API key required"}`},
		{"no key", "/api/v2/json/changes", "", 400, `{"Message":"Invalid API key"}`},
		{"bad stream kind", "/api/v2/json/stream/changes?kinds=x", "premium", 400, `{"Message":"Unknown kind \"x\" in kinds: want names like event,livescore,team"}`},
		{"bad Last-Event-ID", "/api/v2/json/{key}/stream/livescore?since=x", "", 400, `{"Message":"Invalid since: want a cursor (digits) from an earlier answer"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "http://sportsdb.test"+strings.ReplaceAll(tc.path, "{key}", e.premium), nil)
			// A stream opened where a refusal is due ends with the test's patience, as a 200.
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			r = r.WithContext(ctx)
			switch tc.key {
			case "premium":
				r.Header.Set("X-API-KEY", e.premium)
			case "":
			default:
				r.Header.Set("X-API-KEY", tc.key)
			}
			w := httptest.NewRecorder()
			e.srv.ServeHTTP(w, r)
			if w.Code != tc.status || w.Body.String() != tc.body {
				t.Errorf("%s: %d %s\nwant %d %s", tc.path, w.Code, w.Body, tc.status, tc.body)
			}
		})
	}
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !strings.Contains(w.Body.String(), `sportsdb_http_requests_total{code="200",route="v2/changes"}`) {
		t.Errorf("the changes endpoint is not counted under its route:\n%s", w.Body)
	}
}

// A cursor older than the retention is 410.
func TestChangesExpiredCursor(t *testing.T) {
	e := newLiveEnv(t, nil)
	now := time.Date(2026, 10, 5, 20, 6, 0, 0, time.UTC)
	e.store.SetFeedOptions(store.FeedOptions{Retention: 24 * time.Hour, Now: func() time.Time { return now }})
	upsert(t, e.store, team("1", "One"))
	now = now.Add(48 * time.Hour)
	upsert(t, e.store, team("2", "Two"))
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, mustRequest(t, "/api/v2/json/changes?since=0", e.premium))
	if w.Code != http.StatusGone || w.Body.String() != `{"Message":"Cursor expired"}` {
		t.Fatalf("expired cursor: %d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	e.srv.ServeHTTP(w, mustRequest(t, "/api/v2/json/changes", e.premium))
	if !strings.HasPrefix(w.Body.String(), `{"changes":[{"cursor":"2","kind":"team","id":"2"`) {
		t.Fatalf("from the oldest kept: %s", w.Body)
	}
}
