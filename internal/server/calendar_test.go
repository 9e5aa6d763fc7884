package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ingest"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

func calendarPath(key, scope, id string) string {
	return "/calendar/" + key + "/" + scope + "/" + id + ".ics"
}

// The demo data's calendars, through the real server, byte for byte.
func TestCalendarGolden(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	tests := []struct{ file, key, scope, id, query string }{
		{"team-133604-premium.ics", env.PremiumKey, "team", "133604", ""},
		{"league-4328-free.ics", env.FreeKey, "league", "4328", ""},
		{"league-4370-premium.ics", env.PremiumKey, "league", "4370", ""},
		{"team-133604-last-season.ics", env.PremiumKey, "team", "133604", "?season=2025-2026"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := env.Get(t, calendarPath(tt.key, tt.scope, tt.id)+tt.query)
			if r.Status != 200 || r.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
				t.Fatalf("%d %q: %.300s", r.Status, r.Header.Get("Content-Type"), r.Body)
			}
			path := filepath.Join("testdata", "calendar", tt.file)
			if testsupport.Update() {
				if err := os.WriteFile(path, r.Body, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r.Body, want) {
				t.Fatalf("body differs from %s:\n%.2000s", path, r.Body)
			}
		})
	}
}

var dtstart = regexp.MustCompile(`(?m)^DTSTART(?:;VALUE=DATE)?:(\S+)\r$`)

// A free key gets the next 15 events from now; a premium key the whole season.
func TestCalendarFreeAndPremium(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	season, err := env.Store.Find(context.Background(), store.Query{Kind: record.Event,
		Where: []store.Cond{{Field: "idLeague", Op: store.Eq, Value: "4328"}, {Field: "strSeason", Op: store.Eq, Value: "2026-2027"}}})
	if err != nil || len(season) <= 15 {
		t.Fatalf("the demo season: %d events, %v", len(season), err)
	}
	now := apitest.FixtureNow.Format("20060102T150405Z")
	for _, tt := range []struct {
		key  string
		want int
	}{{env.FreeKey, 15}, {env.PremiumKey, len(season)}, {env.BusinessKey, len(season)}} {
		body := string(env.Get(t, calendarPath(tt.key, "league", "4328")).Body)
		if n := strings.Count(body, "BEGIN:VEVENT\r\n"); n != tt.want {
			t.Errorf("%d events, want %d", n, tt.want)
		}
		if tt.key != env.FreeKey {
			continue
		}
		for _, m := range dtstart.FindAllStringSubmatch(body, -1) {
			if m[1] < now {
				t.Errorf("a free calendar holds an event of %s, before now (%s)", m[1], now)
			}
		}
	}
}

func TestCalendarETagAnd304(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	path := calendarPath(env.PremiumKey, "team", "133604")
	first := env.Get(t, path)
	etag := first.Header.Get("ETag")
	if first.Status != 200 || etag == "" {
		t.Fatalf("%d etag=%q", first.Status, etag)
	}
	if again := env.Get(t, path); again.Header.Get("ETag") != etag || !bytes.Equal(again.Body, first.Body) {
		t.Fatal("the same calendar twice gave another ETag or body")
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		r := env.Get(t, path, "If-None-Match", inm)
		if r.Status != 304 || len(r.Body) != 0 || r.Header.Get("ETag") != etag || r.Header.Get("X-RateLimit-Limit") == "" {
			t.Errorf("If-None-Match %s: %d %.80q %v", inm, r.Status, r.Body, r.Header)
		}
	}
	if r := env.Get(t, path, "If-None-Match", `"other"`); r.Status != 200 || len(r.Body) == 0 {
		t.Fatalf("another ETag: %d", r.Status)
	}
	if r := env.Get(t, calendarPath(env.FreeKey, "team", "133604")); r.Header.Get("ETag") == etag {
		t.Fatal("the free calendar has the premium one's ETag")
	}
	gz := env.Get(t, path, "Accept-Encoding", "gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") != etag || len(gz.Body) >= len(first.Body) {
		t.Fatalf("gzip: %v, %d bytes", gz.Header, len(gz.Body))
	}
}

func TestCalendarErrors(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	tests := []struct {
		name, path string
		status     int
		body       string
	}{
		{"unknown key", calendarPath("not-a-key", "team", "133604"), 400, `{"Message":"Invalid API key"}`},
		{"unknown team", calendarPath(env.PremiumKey, "team", "999999999"), 404, `{"Message":"Not found"}`},
		{"unknown league", calendarPath(env.FreeKey, "league", "1"), 404, `{"Message":"Not found"}`},
		{"a team id that is no id", calendarPath(env.PremiumKey, "team", "arsenal"), 404, `{"Message":"Not found"}`},
		{"a negative id", calendarPath(env.PremiumKey, "league", "-4328"), 404, `{"Message":"Not found"}`},
		{"an empty id", calendarPath(env.PremiumKey, "league", ""), 404, `{"Message":"Not found"}`},
		{"no .ics", "/calendar/" + env.PremiumKey + "/team/133604", 404, `{"Message":"Not found"}`},
		{"another scope", calendarPath(env.PremiumKey, "player", "34161934"), 404, `{"Message":"Not found"}`},
		{"no key", "/calendar/team/133604.ics", 404, `{"Message":"Not found"}`},
		{"a key that is no key", "/calendar/%zz/team/133604.ics", 400, `{"Message":"Invalid API key"}`},
		{"too deep", calendarPath(env.PremiumKey, "team", "133604") + "/x", 404, `{"Message":"Not found"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := env.Get(t, tt.path)
			if r.Status != tt.status || string(r.Body) != tt.body || r.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %q %s", r.Status, r.Header.Get("Content-Type"), r.Body)
			}
		})
	}
	// A season with no events is an empty calendar, not an error.
	r := env.Get(t, calendarPath(env.PremiumKey, "league", "4328")+"?season=1899-1900")
	if r.Status != 200 || strings.Contains(string(r.Body), "BEGIN:VEVENT") || !strings.HasSuffix(string(r.Body), "END:VCALENDAR\r\n") {
		t.Fatalf("empty season: %d %.300s", r.Status, r.Body)
	}
}

// Calendars count against the key's rate limit like any request, with the same headers.
func TestCalendarIsRateLimited(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.Fixed(apitest.FixtureNow)),
		Limits: map[store.Tier]int{store.Free: 3, store.Premium: 100, store.Business: 120}})
	env.V1(t, env.FreeKey, "all_sports.php")
	for i, want := range []string{"1", "0"} {
		r := env.Get(t, calendarPath(env.FreeKey, "team", "133604"))
		if r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "3" || r.Header.Get("X-RateLimit-Remaining") != want ||
			r.Header.Get("RateLimit-Policy") != `"default";q=3;w=60` {
			t.Fatalf("request %d: %d %v", i+2, r.Status, r.Header)
		}
	}
	r := env.Get(t, calendarPath(env.FreeKey, "team", "133604"))
	want := `{"message":"Rate limit exceeded. Please keep below 3 requests per 1 minute.","error":429}`
	if r.Status != 429 || string(r.Body) != want || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %s", r.Status, r.Body)
	}
}

// The access log and the metrics name the route, never the key or the id.
func TestCalendarLogsAndMetricsHoldNoKey(t *testing.T) {
	var logs testsupport.LogBuffer
	env := apitest.New(t, apitest.Options{Demo: true, AccessLog: server.NewAccessLog(&logs, true)})
	env.Get(t, calendarPath(env.PremiumKey, "team", "133604"))
	env.Get(t, calendarPath(env.PremiumKey, "league", "4328"))
	env.Get(t, calendarPath("wrong-key-value", "league", "4328"))
	env.Get(t, "/calendar/"+env.PremiumKey+"/nothing")
	out := logs.String()
	for _, k := range []string{env.PremiumKey, "wrong-key-value"} {
		if strings.Contains(out, k) {
			t.Fatalf("a key reached the log: %s", out)
		}
	}
	if !strings.Contains(out, "/calendar/{key}/team/133604.ics") {
		t.Fatalf("no request line: %s", out)
	}
	body := string(env.Get(t, "/metrics").Body)
	for _, want := range []string{`sportsdb_http_requests_total{code="200",route="calendar/team"} 1`,
		`sportsdb_http_requests_total{code="200",route="calendar/league"} 1`,
		`sportsdb_http_requests_total{code="400",route="calendar/league"} 1`} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(body, env.PremiumKey) || strings.Contains(body, "133604") {
		t.Fatal("a key or an id reached the metrics")
	}
}

// SEQUENCE and LAST-MODIFIED stay when an event is imported again as it was, and move when
// it comes back with a new time.
func TestCalendarRevisionFollowsReimports(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	path := calendarPath(env.PremiumKey, "team", "133604")
	id := nextEventOf(t, env, "133604")
	lookup := env.V1(t, env.PremiumKey, "lookupevent.php?id="+id)
	before := veventOf(t, env.Get(t, path).Body, id)

	reimport(t, env, lookup.Body)
	if again := veventOf(t, env.Get(t, path).Body, id); again != before {
		t.Fatalf("an identical import changed the event:\n%s\n%s", before, again)
	}

	var rec struct{ Events []map[string]any }
	decodeJSON(t, lookup.Body, &rec)
	ts := rec.Events[0]["strTimestamp"].(string)
	moved := bytes.ReplaceAll(lookup.Body, []byte(ts), []byte(ts[:11]+"21:00:00"))
	reimport(t, env, moved)
	after := veventOf(t, env.Get(t, path).Body, id)
	for _, prop := range []string{"DTSTART", "LAST-MODIFIED", "SEQUENCE"} {
		if propOf(before, prop) == propOf(after, prop) {
			t.Errorf("%s stayed %s after the time moved", prop, propOf(after, prop))
		}
	}
	if want := strings.ReplaceAll(ts[:11]+"210000Z", "-", ""); propOf(after, "DTSTART") != want {
		t.Errorf("DTSTART %s, want %s", propOf(after, "DTSTART"), want)
	}
}

func nextEventOf(t *testing.T, env *apitest.Env, team string) string {
	t.Helper()
	var next struct{ Events []map[string]any }
	decodeJSON(t, env.V1(t, env.PremiumKey, "eventsnext.php?id="+team).Body, &next)
	if len(next.Events) == 0 {
		t.Fatal("no next event")
	}
	return next.Events[0]["idEvent"].(string)
}

func reimport(t *testing.T, env *apitest.Env, body []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(context.Background(), env.Store, []string{file}, ingest.Options{}); err != nil {
		t.Fatalf("import: %v", err)
	}
}

// veventOf returns the unfolded VEVENT of an event.
func veventOf(t *testing.T, body []byte, id string) string {
	t.Helper()
	text := strings.ReplaceAll(string(body), "\r\n ", "")
	start := strings.Index(text, "UID:"+id+"@sportsdb\r\n")
	if start < 0 {
		t.Fatalf("no event %s in the calendar", id)
	}
	end := strings.Index(text[start:], "END:VEVENT\r\n")
	return text[start : start+end]
}

func propOf(vevent, name string) string {
	for _, line := range strings.Split(vevent, "\r\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			return v
		}
	}
	return ""
}

func decodeJSON(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("not JSON (%v): %.300s", err, body)
	}
}

// FuzzCalendar: any path under /calendar/ and any season get a calendar or a documented JSON
// error, never a 5xx or a panic.
func FuzzCalendar(f *testing.F) {
	env := apitest.New(f, apitest.Options{Demo: true})
	for _, seed := range []struct{ key, rest, season string }{
		{env.PremiumKey, "team/133604.ics", ""}, {"123", "league/4328.ics", "2026-2027"},
		{env.PremiumKey, "league/4328.ics", "\x00"}, {"123", "team/%00.ics", "a;b"},
		{"", "team/1.ics", ""}, {"123", "team/99999999999999999999.ics", ""}, {"%", "league/.ics", "%zz"},
	} {
		f.Add(seed.key, seed.rest, seed.season)
	}
	f.Fuzz(func(t *testing.T, key, rest, season string) {
		path := "/calendar/" + key + "/" + rest
		if season != "" {
			path += "?season=" + url.QueryEscape(season)
		}
		if strings.ContainsAny(path, " \r\n") {
			t.Skip("no client sends such a request line")
		}
		r := env.Get(t, path)
		switch ct := r.Header.Get("Content-Type"); {
		case r.Status == 200 && ct == "text/calendar; charset=utf-8" && strings.HasSuffix(string(r.Body), "END:VCALENDAR\r\n"):
		case (r.Status == 400 || r.Status == 404 || r.Status == 429) && ct == "application/json" && json.Valid(r.Body):
		default:
			t.Fatalf("%s: %d %q %.200s", path, r.Status, ct, r.Body)
		}
	})
}
