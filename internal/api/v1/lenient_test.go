package v1_test

import (
	"encoding/json"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// lenientGoldens are the answers serve --compat lenient adds or changes; strict answers the
// same requests as the public service does (the second column).
var lenientGoldens = []struct {
	name   string
	tier   store.Tier
	path   string
	strict int // the strict status
}{
	{"lenient_eventsround_premium", store.Premium, "eventsround.php?id=4328&r=1&s=2026-2027", 404},
	{"lenient_lookuphonors", store.Free, "lookuphonors.php?id=34145937", 404},
	{"lenient_searchloves", store.Free, "searchloves.php?u=zag", 404},
	{"lenient_searchvenues_t", store.Free, "searchvenues.php?t=Wembley", 200},
	{"lenient_search_all_leagues_l", store.Free, "search_all_leagues.php?l=English%20Premier%20League", 200},
	{"lenient_lookupteam", store.Free, "lookupteam.php?id=133604", 200},
	{"lenient_searchteams_premium", store.Premium, "searchteams.php?t=arsenal", 200},
}

func lenientEnvs(t *testing.T) (strict, lenient *env) {
	extra := []row{
		r(record.Honour, "id", "1", "idPlayer", "34145937", "strPlayer", "Mario Balotelli", "strHonour", "Serie A", "strSeason", "2009-2010"),
		r(record.Venue, "idVenue", "133597", "strVenue", "Emirates Stadium", "strSport", "Soccer"),
	}
	for _, mode := range []string{"strict", "lenient"} {
		e := apitest.New(t, apitest.Options{Imports: []apitest.Import{{Path: apitest.FixturesDir(t)}}, Now: fixtureNow, Compat: mode})
		en := &env{Env: e, st: e.Store}
		put(t, en.st, extra...)
		if mode == "strict" {
			strict = en
		} else {
			lenient = en
		}
	}
	return strict, lenient
}

// TestLenientGolden: each lenient answer, byte for byte, and what strict answers instead.
func TestLenientGolden(t *testing.T) {
	strict, lenient := lenientEnvs(t)
	for _, g := range lenientGoldens {
		t.Run(g.name, func(t *testing.T) {
			res := lenient.get(t, g.tier, g.path)
			if res.Status != 200 {
				t.Fatalf("lenient: status %d: %s", res.Status, res.Body)
			}
			checkGolden(t, g.name, res.Body)
			if s := strict.get(t, g.tier, g.path); s.Status != g.strict || string(s.Body) == string(res.Body) {
				t.Errorf("strict: %d %.200s; want %d and another answer than lenient's", s.Status, s.Body, g.strict)
			}
		})
	}
}

// What each lenient answer holds, as the clients that send it read it.
func TestLenientAnswers(t *testing.T) {
	strict, lenient := lenientEnvs(t)
	records := func(body []byte, key string) []map[string]any {
		var out map[string][]map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return out[key]
	}
	if got := string(lenient.get(t, store.Free, "searchloves.php?u=zag").Body); got != `{"players":null}` {
		t.Errorf("searchloves: %s", got)
	}
	honors := lenient.get(t, store.Free, "lookuphonors.php?id=34145937").Body
	honours := lenient.get(t, store.Free, "lookuphonours.php?id=34145937").Body
	if h := records(honors, "honours"); len(h) != 1 || h[0]["strHonour"] != "Serie A" || len(records(honors, "honors")) != 1 {
		t.Errorf("lookuphonors %s, want lookuphonours' records under honours and honors (%s)", honors, honours)
	}
	premium := lenient.get(t, store.Premium, "eventsround.php?id=4328&r=1&s=2026-2027").Body
	if free := strict.get(t, store.Free, "eventsround.php?id=4328&r=1&s=2026-2027").Body; string(premium) != string(free) {
		t.Errorf("premium round %s, free round %s", premium, free)
	}
	if v := records(lenient.get(t, store.Free, "searchvenues.php?t=Wembley").Body, "venues"); len(v) == 0 || !strings.Contains(v[0]["strVenue"].(string), "Wembley") {
		t.Errorf("searchvenues t=: %v", v)
	}
	if l := records(lenient.get(t, store.Free, "search_all_leagues.php?l=english%20premier%20league").Body, "countries"); len(l) != 1 || l[0]["idLeague"] != "4328" {
		t.Errorf("search_all_leagues l=: %v", l)
	}
	// The record keys bsv798's client reads repeat the records the public service's key holds.
	for file, keys := range map[string][2]string{
		"lookupevent.php?id=441613": {"events", "event"}, "lookuptable.php?l=4328&s=2024-2025": {"table", "tables"},
	} {
		b := lenient.get(t, store.Free, file).Body
		if l := records(b, keys[0]); len(l) == 0 || len(records(b, keys[1])) != len(l) {
			t.Errorf("%s: %.200s, want its records under %s and %s", file, b, keys[0], keys[1])
		}
		if s := strict.get(t, store.Free, file).Body; records(s, keys[1]) != nil {
			t.Errorf("%s under strict: %.200s, has %s", file, s, keys[1])
		}
	}
	// The older team names follow the fields, each equal to the field it became.
	body := lenient.get(t, store.Free, "lookupteam.php?id=133604").Body
	strictBody := strict.get(t, store.Free, "lookupteam.php?id=133604").Body
	if !strings.HasPrefix(string(body), strings.TrimSuffix(string(strictBody), "}]}")) {
		t.Errorf("lenient team does not start with the strict one:\n%.300s\n%.300s", body, strictBody)
	}
	team := records(body, "teams")[0]
	for _, rn := range record.Team.Renames() {
		if team[rn.Old] != team[rn.Current] {
			t.Errorf("%s = %v, %s = %v", rn.Old, team[rn.Old], rn.Current, team[rn.Current])
		}
	}
	if team["strTeamBadge"] == nil || !strings.Contains(string(body), `"strTeamBadge":`) {
		t.Errorf("no strTeamBadge: %.300s", body)
	}
	// A view without a renamed field gains none of its older names.
	for _, p := range records(lenient.get(t, store.Free, "searchplayers.php?t=Arsenal").Body, "player") {
		if _, ok := p["strTeamBadge"]; ok {
			t.Errorf("player gained a team name: %v", p)
		}
	}
}
