package v2_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// records decodes an answer's records under the group key; nil for "No data found".
func records(t testing.TB, a answer, group string) []map[string]any {
	t.Helper()
	if a.status != http.StatusOK {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	if string(a.body) == `{"Message":"No data found"}` {
		return nil
	}
	var env map[string][]map[string]any
	if err := json.Unmarshal(a.body, &env); err != nil {
		t.Fatalf("body %.200s: %v", a.body, err)
	}
	if len(env) != 1 || env[group] == nil {
		t.Fatalf("want one key %q, got %.200s", group, a.body)
	}
	return env[group]
}

func field(recs []map[string]any, f string) []string {
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprint(r[f]))
	}
	return out
}

// Names match whatever the spaces are written as, in any case, with or without accents.
func TestNameSpellings(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	for _, c := range []struct{ path, field, want string }{
		{"search/team/arsenal", "strTeam", "Arsenal"},
		{"search/team/ARSENAL", "strTeam", "Arsenal"},
		{"search/player/Bruno_Guimaraes", "strPlayer", "Bruno Guimarães"},
		{"search/player/bruno+guimar%C3%A3es", "strPlayer", "Bruno Guimarães"},
		{"search/player/BRUNO%20GUIMARAES", "strPlayer", "Bruno Guimarães"},
		{"search/team/Arsenal_Ceska_Lipa", "strTeam", "Arsenal Česká Lípa"},
		{"search/league/EPL", "strLeague", "English Premier League"},
		{"search/event/english_premier_league_2026-09-06_arsenal_vs_chelsea", "strEvent", "Arsenal vs Chelsea"},
		{"filter/tv/country/canada", "strCountry", "Canada"},
		{"filter/tv/sport/ice%20hockey", "strSport", "Ice Hockey"},
		{"filter/tv/channel/tsn", "strChannel", "TSN 1"},
		{"livescore/SOCCER", "strSport", "Soccer"},
		{"livescore/ice_hockey", "strSport", "Ice Hockey"},
	} {
		group, _, _ := strings.Cut(c.path, "/")
		recs := records(t, e.get(t, "/api/v2/json/"+c.path, store.Premium), group)
		if len(recs) == 0 || recs[0][c.field] != c.want {
			t.Errorf("%s: first %s = %v, want %q", c.path, c.field, field(recs, c.field), c.want)
		}
	}
}

// Search answers carry ids as JSON numbers; every other group sends them as strings.
func TestIDTypes(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	team := records(t, e.get(t, "/api/v2/json/search/team/Arsenal", store.Premium), "search")[0]
	if _, ok := team["idTeam"].(float64); !ok {
		t.Errorf("search idTeam is %T", team["idTeam"])
	}
	if _, ok := team["idLeague"].(float64); !ok {
		t.Errorf("search idLeague is %T", team["idLeague"])
	}
	looked := records(t, e.get(t, "/api/v2/json/lookup/team/133604", store.Premium), "lookup")[0]
	if looked["idTeam"] != "133604" {
		t.Errorf("lookup idTeam = %#v", looked["idTeam"])
	}
}

// An exact name comes first even when looser matches were stored before it, and the
// search event endpoint stays exact.
func TestSearchExactFirst(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	put(t, e.Store, rec(record.Team, "idTeam", "999001", "strTeam", "Tula", "strSport", "Soccer"))
	recs := records(t, e.get(t, "/api/v2/json/search/team/Tula", store.Premium), "search")
	if got := field(recs, "strTeam"); !slices.Equal(got, []string{"Tula", "Arsenal Tula", "Arsenal-2 Tula"}) {
		t.Errorf("search/team/Tula = %v", got)
	}
	if recs := records(t, e.get(t, "/api/v2/json/search/event/Arsenal_vs", store.Premium), "search"); recs != nil {
		t.Errorf("search/event/Arsenal_vs found %v; only exact names match", field(recs, "strEvent"))
	}
	// An event is searched by its file name; its name alone finds nothing, as recorded
	// (v2/search_event_none) although v1 searchevents.php finds it by that name.
	if recs := records(t, e.get(t, "/api/v2/json/search/event/Arsenal%20vs%20Chelsea", store.Premium), "search"); recs != nil {
		t.Errorf("search/event/Arsenal vs Chelsea found %v; only a file name matches", field(recs, "strFilename"))
	}
}

// Schedules are relative to the server's clock: moving it moves next and previous.
func TestScheduleFollowsClock(t *testing.T) {
	clk := clock.NewManual(fixtureNow)
	e := fullEnv(t, apitest.Options{Clock: clk})
	next := records(t, e.get(t, "/api/v2/json/schedule/next/league/4328", store.Premium), "schedule")
	if field(next, "idEvent")[0] != "2494052" {
		t.Fatalf("next league at %s: %v", fixtureNow, field(next, "idEvent"))
	}
	for _, r := range next {
		if r["strTimestamp"].(string) <= "2026-10-05T20:05:00" {
			t.Errorf("next holds a past event %v", r["strTimestamp"])
		}
	}
	full := records(t, e.get(t, "/api/v2/json/schedule/full/team/133602", store.Premium), "schedule")
	latestFirst := func(a, b string) int { return strings.Compare(b, a) }
	if ts := field(full, "strTimestamp"); !slices.IsSortedFunc(ts, latestFirst) || ts[0] <= "2026-10-05" || ts[len(ts)-1] > "2026-10-05" {
		t.Errorf("full schedule must run from the future back into the past, latest first: %v", ts)
	}
	for _, r := range full {
		if _, ok := r["idVenue"]; !ok || len(r) != 27 {
			t.Errorf("full schedule record has %d fields, idVenue present %v; want the recorded 27", len(r), ok)
			break
		}
	}
	clk.Advance(time.Date(2026, 10, 10, 12, 0, 0, 0, time.UTC).Sub(fixtureNow))
	prev := records(t, e.get(t, "/api/v2/json/schedule/previous/league/4328", store.Premium), "schedule")
	if field(prev, "idEvent")[0] != "2494052" {
		t.Errorf("previous league after the game: %v", field(prev, "idEvent"))
	}
	ts := field(prev, "strTimestamp")
	if !slices.IsSortedFunc(ts, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("previous not latest first: %v", ts)
	}
}

// The caps registered are the ones of docs/CONTRACT.md section 2, by the names the caps file uses,
// and an operator's override is obeyed.
func TestCaps(t *testing.T) {
	table := caps.New()
	v2.New(api.Deps{Caps: table})
	want := map[string]int{"v2/search/team": 25, "v2/search/player": 10, "v2/lookup/league": 1,
		"v2/lookup/event_lineup": caps.Ceiling, "v2/list/teams": 100, "v2/list/seasonposters": caps.Ceiling,
		"v2/all/leagues": 3000, "v2/schedule/next/league": 20, "v2/schedule/previous/team": 10,
		"v2/schedule/full/team": 250, "v2/schedule/league": 3000, "v2/filter/tv/day": 1500,
		"v2/filter/tv/sport": 500, "v2/filter/tv/channelid": 100, "v2/livescore": 100, "v2/livescore/all": 500}
	for name, n := range want {
		if got := table.Limit(name, store.Business); got != n {
			t.Errorf("%s: cap %d, want %d", name, got, n)
		}
	}
	// The paths of section 2, and match/event (section 17).
	if got := len(table.Names()); got != len(specPaths)+1 {
		t.Errorf("%d caps for %d endpoints: %v", got, len(specPaths), table.Names())
	}
	file := filepath.Join(t.TempDir(), "caps.json")
	if err := os.WriteFile(file, []byte(`{"v2/search/team":{"free":1,"premium":3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := fullEnv(t, apitest.Options{CapsFile: file})
	if n := len(records(t, e.get(t, "/api/v2/json/search/team/Arsenal", store.Premium), "search")); n != 3 {
		t.Errorf("with cap 3: %d records", n)
	}
}

func TestTiersAndFailures(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	prem := e.get(t, "/api/v2/json/lookup/league/4328", store.Premium)
	if biz := e.get(t, "/api/v2/json/lookup/league/4328", store.Business); string(biz.body) != string(prem.body) {
		t.Error("business keys must be served like premium keys")
	}
	if free := e.get(t, "/api/v2/json/lookup/league/4328", store.Free); free.status != http.StatusBadRequest ||
		string(free.body) != `{"Message":"Premium API key required"}` {
		t.Errorf("free key: %d %s", free.status, free.body)
	}
	get := direct(failing{e.Store, fmt.Errorf("disk on fire: %w", store.ErrUnavailable)})
	for _, path := range []string{"lookup/league/4328", "search/team/Arsenal", "schedule/full/team/1", "lookup/event_highlights/1"} {
		a := get(t, "/api/v2/json/"+path)
		if a.status != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" ||
			string(a.body) != `{"Message":"Service unavailable"}` {
			t.Errorf("%s with the store down: %d %s", path, a.status, a.body)
		}
	}
}

// Paths that are almost endpoints: the literal route wins, trailing slashes are tolerated,
// ids are integers whatever their leading zeros.
func TestPathForms(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	all := records(t, e.get(t, "/api/v2/json/livescore/all", store.Premium), "livescore")
	soccer := records(t, e.get(t, "/api/v2/json/livescore/soccer", store.Premium), "livescore")
	if len(all) <= len(soccer) {
		t.Errorf("livescore/all %d entries, soccer %d", len(all), len(soccer))
	}
	if n := len(records(t, e.get(t, "/api/v2/json/all/countries/", store.Premium), "all")); n != 256 {
		t.Errorf("all/countries/: %d", n)
	}
	if recs := records(t, e.get(t, "/api/v2/json/lookup/team/000133604", store.Premium), "lookup"); len(recs) != 1 {
		t.Errorf("lookup/team/000133604: %d", len(recs))
	}
	for _, p := range []string{"", "search", "search/team", "Search/team/Arsenal", "all", "lookup/team/1/2", "schedule/league/4328"} {
		if a := e.get(t, "/api/v2/json/"+p, store.Premium); a.status != http.StatusNotFound {
			t.Errorf("%q: %d %s", p, a.status, a.body)
		}
	}
}

// firstKeys is the field names of an answer's first record, in wire order.
func firstKeys(t testing.TB, a answer) []string {
	t.Helper()
	var env map[string][]json.RawMessage
	if err := json.Unmarshal(a.body, &env); err != nil || len(env) != 1 {
		t.Fatalf("body %.200s: %v", a.body, err)
	}
	for _, recs := range env {
		if len(recs) == 0 {
			t.Fatalf("no records in %.200s", a.body)
		}
		dec := json.NewDecoder(strings.NewReader(string(recs[0])))
		var keys []string
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		return keys
	}
	return nil
}

// The v2 paths testdata/recorded has no recording of answer the field lists, in their order,
// of the public answers published on the same day (internal/api/v2/README.md, "Field lists
// without a recording here"); list/teams has the published 14 fields in an order of ours.
func TestPublishedFieldLists(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	schedule := []string{"idEvent", "strEvent", "strEventAlternate", "strSeason", "idLeague", "strLeague", "strLeagueBadge", "strSport", "strHomeTeam", "strAwayTeam", "idHomeTeam", "idAwayTeam", "intRound", "intHomeScore", "intAwayScore", "strTimestamp", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strHomeTeamBadge", "strAwayTeamBadge", "idVenue", "strVenue", "strCountry", "strThumb", "strPoster", "strVideo", "strPostponed", "strFilename", "strStatus"}
	for _, c := range []struct {
		path string
		want []string
	}{
		{"list/players/133604", []string{"idPlayer", "strPlayer", "idTeam", "strTeam", "strThumb", "strCutout", "strRender", "dateBorn", "strPosition"}},
		{"search/league/English_Premier_League", []string{"idLeague", "strLeague", "strSport", "strBadge", "strCountry", "strCurrentSeason", "strGender"}},
		{"search/venue/Wembley", []string{"idVenue", "strVenue", "strLocation", "strCountry", "strThumb", "strSport"}},
		{"schedule/full/team/133604", []string{"idEvent", "strEvent", "idLeague", "strLeague", "strSport", "strHomeTeam", "strAwayTeam", "idHomeTeam", "idAwayTeam", "intRound", "intHomeScore", "intAwayScore", "strTimestamp", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strHomeTeamBadge", "strAwayTeamBadge", "idVenue", "strVenue", "strCountry", "strThumb", "strPoster", "strPostponed", "strFilename", "strStatus"}},
		{"schedule/league/4328/2026-2027", schedule},
		{"schedule/next/league/4328", schedule},
		{"schedule/previous/team/133604", schedule},
	} {
		if got := firstKeys(t, e.get(t, "/api/v2/json/"+c.path, store.Premium)); !slices.Equal(got, c.want) {
			t.Errorf("%s fields\n got %v\nwant %v", c.path, got, c.want)
		}
	}
	// lookup/event_highlights answers the event as lookup/event does, although event 441613
	// has no video (published: its 49 event fields, strVideo empty).
	hl := e.get(t, "/api/v2/json/lookup/event_highlights/441613", store.Premium)
	if got, want := firstKeys(t, hl), firstKeys(t, e.get(t, "/api/v2/json/lookup/event/441613", store.Premium)); len(want) != 49 || !slices.Equal(got, want) {
		t.Errorf("lookup/event_highlights/441613 fields %v, want lookup/event's %v", got, want)
	}
	if recs := records(t, hl, "lookup"); recs[0]["idEvent"] != "441613" {
		t.Errorf("lookup/event_highlights/441613 answered %v", recs[0]["idEvent"])
	}
	// Rows in the published order: an event's results by idResult (v1 orders them by
	// position), a team's players by idPlayer.
	for path, id := range map[string]string{"lookup/event_results/652890": "idResult", "list/players/133604": "idPlayer"} {
		group, _, _ := strings.Cut(path, "/")
		ids := field(records(t, e.get(t, "/api/v2/json/"+path, store.Premium), group), id)
		if len(ids) < 2 || !slices.IsSortedFunc(ids, func(a, b string) int { return cmpNum(a, b) }) {
			t.Errorf("%s not by %s: %v", path, id, ids)
		}
	}
	got := firstKeys(t, e.get(t, "/api/v2/json/list/teams/4328", store.Premium))
	slices.Sort(got)
	want := []string{"idLeague", "idTeam", "strBadge", "strBanner", "strColour1", "strColour2", "strColour3", "strCountry", "strEquipment", "strFanart1", "strLeague", "strLogo", "strTeam", "strTeamShort"}
	if !slices.Equal(got, want) {
		t.Errorf("list/teams fields %v, want the published %v", got, want)
	}
}

// cmpNum compares two decimal ids as numbers.
func cmpNum(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
