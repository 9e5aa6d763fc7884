package sportarr_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/api/sportarr"
	"sportsdb/internal/apitest"
	"sportsdb/internal/ingest"
	"sportsdb/internal/openapi/openapitest"
	"sportsdb/internal/server"
)

// sample records the demo data lacks: a player with TheSportsDB's height and weight text and
// no birth date, a TV listing with its timestamp, and a lineup.
const sample = `{"players":[{"idPlayer":"990001","strPlayer":"Sam Sample","strSport":"Soccer","idTeam":"133604","strTeam":"Arsenal","strHeight":"1.85 m (6 ft 1 in)","strWeight":"176 lbs","dateBorn":""}]}
{"tvevents":[{"id":"990002","idEvent":"%EVENT%","strEvent":"Sample vs Example","strSport":"Soccer","idChannel":"990009","strChannel":"Sample TV","strCountry":"United Kingdom","dateEvent":"2026-10-05","strTime":"19:00:00","strTimeStamp":"2026-10-05 19:00:00"}]}
{"lineup":[{"idLineup":"990003","idEvent":"%EVENT%","idPlayer":"990001","strPlayer":"Sam Sample","strTeam":"Arsenal","strHome":"Yes","strPosition":"Goalkeeper","intSquadNumber":"1"}]}`

// env is a demo server with the sample records, and the demo ids the calls use.
func env(t *testing.T, opts apitest.Options) (*apitest.Env, map[string]string) {
	t.Helper()
	opts.Demo = true
	e := apitest.New(t, opts)
	ids := map[string]string{}
	var teams struct{ Data []map[string]any }
	get(t, e, "/sportarr/{key}/lookup/team/133604", &teams)
	if len(teams.Data) != 1 {
		t.Fatalf("demo data: no team 133604")
	}
	var sched struct{ Data []map[string]any }
	get(t, e, "/sportarr/{key}/schedule/team/prev10/133604", &sched)
	if len(sched.Data) == 0 {
		t.Fatal("demo data: no previous events of 133604")
	}
	ids["event"] = sched.Data[0]["idEvent"].(string)
	ids["league"] = sched.Data[0]["idLeague"].(string)
	ids["season"] = sched.Data[0]["strSeason"].(string)
	load(t, e, strings.Split(strings.ReplaceAll(sample, "%EVENT%", ids["event"]), "\n")...)
	return e, ids
}

// load imports answers of the public service, each a file, in one write.
func load(t *testing.T, e *apitest.Env, bodies ...string) {
	t.Helper()
	dir := t.TempDir()
	for i, body := range bodies {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Import(context.Background(), e.Store, []string{dir}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
}

// get asks a path with the premium key and decodes its 200 answer into v.
func get(t *testing.T, e *apitest.Env, path string, v any) []byte {
	t.Helper()
	res := e.Get(t, strings.ReplaceAll(path, "{key}", e.PremiumKey))
	if res.Status != 200 {
		t.Fatalf("%s: %d %s", path, res.Status, res.Body)
	}
	if v != nil {
		if err := json.Unmarshal(res.Body, v); err != nil {
			t.Fatalf("%s: %v: %s", path, err, res.Body)
		}
	}
	return res.Body
}

// Every call of Sportarr's client is answered in its envelope, and validates against the
// OpenAPI document, whose schemas say the type .NET reads each member as (a number where
// Sportarr's model has a number, a date only where one is), so Sportarr's reader takes it.
func TestEveryCallInSportarrsShape(t *testing.T) {
	e, ids := env(t, apitest.Options{})
	v := openapitest.New(t)
	calls := map[string]string{ // path: the member that holds the objects
		"search/league/English Premier League":                       "data.search",
		"search/league/ping":                                         "data.search",
		"search/team/Arsenal":                                        "data.search",
		"search/player/Sam Sample":                                   "data.search",
		"search/event/Arsenal":                                       "data.search",
		"lookup/league/{league}":                                     "data.lookup",
		"lookup/team/133604":                                         "data",
		"lookup/player/990001":                                       "data",
		"lookup/event/{event}":                                       "data",
		"schedule/all/player/990001":                                 "data",
		"schedule/team/next10/133604":                                "data",
		"schedule/team/prev10/133604":                                "data",
		"list/leagues/team/133604":                                   "data.leagues",
		"list/seasons/{league}":                                      "list",
		"list/seasons/{league}?cb=1700000000":                        "list",
		"list/seasonposters/{league}":                                "list",
		"list/teams/{league}":                                        "list",
		"schedule/league/{league}/{season}":                          "data.schedule",
		"tv/event/{event}":                                           "data.tvschedule",
		"filter/tv/day/2026-10-05":                                   "data.tvschedule",
		"livescore/sport/Soccer":                                     "data",
		"livescore/league/{league}":                                  "data",
		"all/leagues":                                                "data.all",
		"all/sports":                                                 "data",
		"all/countries":                                              "data",
		"all/teams?sport=Soccer%2CBasketball":                        "list",
		"api/metadata/agents/episode/{event}":                        "players",
		"api/metadata/plex/series/{league}/season/{season}/episodes": "episodes",
		"changes?since=0&limit=500":                                  "changes",
	}
	for call, member := range calls {
		for k, id := range ids {
			call = strings.ReplaceAll(call, "{"+k+"}", id)
		}
		path := "/sportarr/{key}/" + strings.ReplaceAll(call, " ", "%20")
		var body map[string]any
		raw := get(t, e, path, &body)
		if err := v.Check(path, 200, raw); err != nil {
			t.Errorf("%s: %v", call, err)
		}
		var at any = body
		for _, m := range strings.Split(member, ".") {
			obj, _ := at.(map[string]any)
			at = obj[m]
		}
		if _, ok := at.([]any); !ok {
			t.Errorf("%s: %s is not a list: %.300s", call, member, raw)
		}
	}
}

// What Sportarr reads is what the records hold, in its names and types.
func TestValuesInSportarrsTypes(t *testing.T) {
	e, ids := env(t, apitest.Options{})
	var player struct{ Data []map[string]any }
	get(t, e, "/sportarr/{key}/lookup/player/990001", &player)
	p := player.Data[0]
	if p["strHeight"] != 185.0 || p["strWeight"] != 79.8 || p["dateBorn"] != nil || p["strPlayer"] != "Sam Sample" {
		t.Errorf("player: height %v, weight %v, born %v, name %v; want 185, 79.8, null, Sam Sample",
			p["strHeight"], p["strWeight"], p["dateBorn"], p["strPlayer"])
	}
	var tv struct {
		Data struct{ TVSchedule []map[string]any }
	}
	get(t, e, "/sportarr/{key}/tv/event/"+ids["event"], &tv)
	if l := find(tv.Data.TVSchedule, "channel", "Sample TV"); l == nil || l["broadcastTime"] != "2026-10-05T19:00:00Z" || l["network"] != "Sample TV" || l["eventId"] != ids["event"] {
		t.Errorf("tv/event: %v", tv.Data.TVSchedule)
	}
	var cast struct{ Players []map[string]any }
	get(t, e, "/sportarr/{key}/api/metadata/agents/episode/"+ids["event"], &cast)
	if p := find(cast.Players, "name", "Sam Sample"); p == nil || p["side"] != "home" || p["number"] != "1" || p["position"] != "Goalkeeper" {
		t.Errorf("cast: %v", cast.Players)
	}
	var team struct{ Data []map[string]any }
	get(t, e, "/sportarr/{key}/lookup/team/133604", &team)
	if tm := team.Data[0]; tm["strTeam"] != "Arsenal" || tm["tsdbId"] != "133604" || tm["strTeamBadge"] == nil {
		t.Errorf("team: %v", tm)
	}
	if _, isNumber := team.Data[0]["intFormedYear"].(float64); !isNumber {
		t.Errorf("team intFormedYear %#v, want a number", team.Data[0]["intFormedYear"])
	}
	var eps struct{ Episodes []map[string]any }
	get(t, e, "/sportarr/{key}/api/metadata/plex/series/"+ids["league"]+"/season/"+ids["season"]+"/episodes", &eps)
	if len(eps.Episodes) == 0 || eps.Episodes[0]["episode_number"] != 1.0 || eps.Episodes[len(eps.Episodes)-1]["episode_number"] != float64(len(eps.Episodes)) {
		t.Errorf("episodes are not numbered 1 to n: %.300v", eps.Episodes)
	}
	// The base URL as Sportarr's default is written, with /api/v2/json, reaches the same rows.
	if a, b := get(t, e, "/sportarr/{key}/api/v2/json/lookup/team/133604", nil), get(t, e, "/sportarr/{key}/lookup/team/133604", nil); !bytes.Equal(a, b) {
		t.Errorf("the base URL with api/v2/json answers otherwise:\n%s\n%s", a, b)
	}
}

// The change feed in Sportarr's names: a new consumer is told to resync from the latest
// cursor, a later change of an event comes with its league and season (also when an answer to
// the same poll was cached before it), and a bad parameter is a 400 in the JSON shape.
func TestChangeFeed(t *testing.T) {
	e, ids := env(t, apitest.Options{})
	type page struct {
		Changes []struct {
			Seq                                int64
			Entity, ID, League, Season, Change string
		}
		Next         int64
		More, Resync bool
	}
	var first page
	get(t, e, "/sportarr/{key}/changes?since=0&limit=500", &first)
	if !first.Resync || first.Next <= 0 || len(first.Changes) != 0 {
		t.Fatalf("a new consumer: %+v, want resync with the latest cursor", first)
	}
	poll := "/sportarr/{key}/changes?since=" + jsonInt(first.Next) + "&limit=500"
	var none page
	get(t, e, poll, &none)
	if none.Resync || len(none.Changes) != 0 || none.Next != first.Next {
		t.Fatalf("nothing changed: %+v", none)
	}
	load(t, e, `{"events":[{"idEvent":"`+ids["event"]+`","idLeague":"`+ids["league"]+`","strSeason":"`+ids["season"]+`","strEvent":"Renamed vs Event","strSport":"Soccer"}]}`)
	var after page
	get(t, e, poll, &after)
	if len(after.Changes) != 1 {
		t.Fatalf("after an event changed: %+v", after)
	}
	c := after.Changes[0]
	if c.Entity != "event" || c.ID != ids["event"] || c.League != ids["league"] || c.Season != ids["season"] || c.Change != "updated" || after.Next != c.Seq || after.Resync {
		t.Errorf("the change: %+v, next %d", c, after.Next)
	}
	for _, bad := range []string{"since=abc", "since=-1", "since=1;limit=2", "since=%zz", "limit=0", "since=1&since=2"} {
		res := e.Get(t, "/sportarr/"+e.PremiumKey+"/changes?"+bad)
		if res.Status != 400 || !bytes.HasPrefix(res.Body, []byte(`{"Message":"Invalid `)) {
			t.Errorf("changes?%s: %d %s, want 400 Invalid ...", bad, res.Status, res.Body)
		}
	}
}

// find is the first object whose member holds the value.
func find(l []map[string]any, member string, value any) map[string]any {
	for _, o := range l {
		if o[member] == value {
			return o
		}
	}
	return nil
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// Keys are checked as on v2 (premium and business), unknown paths and the lists sportsdb
// does not have are 404, a bad id is an empty list; answers carry the CORS fields and an ETag,
// are counted in the metrics by route, and the access log never shows the key.
func TestKeysErrorsAndLogs(t *testing.T) {
	var logs bytes.Buffer
	e, _ := env(t, apitest.Options{AccessLog: server.NewAccessLog(&logs, true)})
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/sportarr/" + e.FreeKey + "/all/sports", 400, `{"Message":"Premium API key required"}`},
		{"/sportarr/nokey/all/sports", 400, `{"Message":"Invalid API key"}`},
		{"/sportarr/" + e.PremiumKey + "/all/nothing", 404, `{"Message":"Not found"}`},
		{"/sportarr/" + e.PremiumKey, 404, `{"Message":"Not found"}`},
		{"/sportarr/" + e.PremiumKey + "/api/public/v1/lists/my-list", 404, `{"Message":"Not found"}`},
		{"/sportarr/" + e.PremiumKey + "/lookup/team/Arsenal", 200, `{"data":[]}`},
		{"/sportarr/" + e.BusinessKey + "/lookup/league/-1", 200, `{"data":{"lookup":[]}}`},
		{"/sportarr/" + e.PremiumKey + "/list/teams/%ff", 200, `{"list":[]}`},
	} {
		res := e.Get(t, c.path)
		if res.Status != c.status || string(res.Body) != c.body {
			t.Errorf("%s: %d %s, want %d %s", c.path, res.Status, res.Body, c.status, c.body)
		}
	}
	if res := e.Do(t, "POST", "/sportarr/"+e.PremiumKey+"/api/metadata/suggestions/team-aliases"); res.Status != 405 {
		t.Errorf("POST of team aliases: %d %s, want 405", res.Status, res.Body)
	}
	res := e.Get(t, "/sportarr/"+e.PremiumKey+"/all/sports", "Origin", "https://sportarr.example")
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("Sportarr's settings page (a browser) cannot read the answer: no Access-Control-Allow-Origin")
	}
	if etag := res.Header.Get("ETag"); etag == "" || e.Get(t, "/sportarr/"+e.PremiumKey+"/all/sports", "If-None-Match", etag).Status != 304 {
		t.Errorf("the answer is not kept in the response cache (ETag %q, If-None-Match not 304)", etag)
	}
	if m := string(e.Get(t, "/metrics").Body); !strings.Contains(m, `sportsdb_http_requests_total{code="200",route="sportarr/all/sports"}`) {
		t.Errorf("the metrics count no sportarr/all/sports: %.500s", m)
	}
	for _, key := range []string{e.PremiumKey, e.BusinessKey, e.FreeKey, "nokey"} {
		if strings.Contains(logs.String(), "/"+key+"/") {
			t.Errorf("the access log shows a key: %s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), `"/sportarr/{key}/all/sports"`) || !strings.Contains(logs.String(), `"sportarr/all/sports"`) {
		t.Errorf("the access log names no path or route: %s", logs.String())
	}
}

// Every route of the dialect is one the table names, under its prefix.
func TestRoutes(t *testing.T) {
	s := sportarr.NewSurface(nil, nil, nil, nil)
	docs := sportarr.Docs()
	if len(s.Routes()) != len(docs) {
		t.Fatalf("%d routes, %d docs", len(s.Routes()), len(docs))
	}
	for i, r := range s.Routes() {
		if !strings.HasPrefix(r, "sportarr/") || docs[i].Route != r || !strings.HasPrefix(docs[i].Path, sportarr.Prefix+"{key}/") {
			t.Errorf("route %s, doc %+v", r, docs[i])
		}
	}
}

// Hostile parameters on every path get a JSON answer a client can read: the empty list, a
// 400 or a 404, never a server error.
func TestBadInputNeverFails(t *testing.T) {
	e, _ := env(t, apitest.Options{})
	hostile := []string{"", "%00", "%ff", "-1", "1.5", "99999999999999999999999", "%2e%2e", "a%2Fb", strings.Repeat("x", 600), "%E2%80%AE", "'%20OR%201=1"}
	for _, d := range sportarr.Docs() {
		for _, h := range hostile {
			path := d.Path
			for _, p := range d.Params {
				path = strings.ReplaceAll(path, "{"+p+"}", h)
			}
			path = strings.ReplaceAll(path, "{key}", e.PremiumKey)
			for _, q := range append([]string{""}, d.Query...) {
				full := path
				if q != "" {
					full += "?" + q + "=" + h
				}
				res := e.Get(t, full)
				if res.Status >= 500 || !json.Valid(res.Body) {
					t.Errorf("%s: %d %.200s", full, res.Status, res.Body)
				}
			}
		}
	}
}
