package records_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// recordOf reads the record of an answer {"record":{...}}.
func recordOf(t *testing.T, r []byte) map[string]any {
	t.Helper()
	var got struct{ Record map[string]any }
	if err := json.Unmarshal(r, &got); err != nil || got.Record == nil {
		t.Fatalf("not a record answer: %v %s", err, r)
	}
	return got.Record
}

func wantFields(t *testing.T, what string, rec map[string]any, fields map[string]any) {
	t.Helper()
	for f, v := range fields {
		if rec[f] != v {
			t.Errorf("%s: %s is %#v, want %#v", what, f, rec[f], v)
		}
	}
}

// The recorded event of the public service, written with its derived fields left out and its
// teams and league as records, comes back as the public service wrote it: strEvent,
// strEventAlternate, strFilename, strTimestamp, the team and league names and the sport are
// derived in its formats.
func TestDeriveRecordedEvent(t *testing.T) {
	e := newEnv(t)
	b, err := os.ReadFile("../../../testdata/recorded/v1-free/lookup_event.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct{ Events []map[string]any }
	if err := json.Unmarshal(b, &recorded); err != nil || len(recorded.Events) != 1 {
		t.Fatalf("%v %s", err, b)
	}
	ev := recorded.Events[0]
	want(t, "league", e.send(t, "PUT", "/api/v2/json/records/league/4328", e.editor,
		`{"strLeague":"English Premier League","strSport":"Soccer","strBadge":"`+ev["strLeagueBadge"].(string)+`"}`), 201, "")
	want(t, "home", e.send(t, "PUT", "/api/v2/json/records/team/133602", e.editor, `{"strTeam":"Liverpool"}`), 201, "")
	want(t, "away", e.send(t, "PUT", "/api/v2/json/records/team/133614", e.editor, `{"strTeam":"Swansea"}`), 201, "")
	sent := map[string]any{}
	derived := []string{"strEvent", "strEventAlternate", "strFilename", "strTimestamp", "strLeague", "strLeagueBadge", "strSport", "strHomeTeam", "strAwayTeam"}
	for f, v := range ev {
		sent[f] = v
	}
	for _, f := range derived {
		sent[f] = nil
	}
	body, _ := json.Marshal(sent)
	r := e.send(t, "PUT", "/api/v2/json/records/event/441613", e.editor, string(body))
	want(t, "event", r, 201, "")
	got := recordOf(t, r.Body)
	for _, f := range derived {
		if got[f] != ev[f] {
			t.Errorf("%s: %#v, the public service wrote %#v", f, got[f], ev[f])
		}
	}

	// And back: strTimestamp alone gives dateEvent and strTime.
	sent["strTimestamp"], sent["dateEvent"], sent["strTime"] = ev["strTimestamp"], nil, nil
	body, _ = json.Marshal(sent)
	got = recordOf(t, e.send(t, "PUT", "/api/v2/json/records/event/441613", e.editor, string(body)).Body)
	wantFields(t, "from strTimestamp", got, map[string]any{"dateEvent": ev["dateEvent"], "strTime": ev["strTime"]})
}

// fixture writes a league, its two teams with badges and an event that names them and little
// else, as a scorekeeper creates a fixture.
func (e *env) fixture(t *testing.T, event string) *recordsResponse {
	t.Helper()
	want(t, "league", e.send(t, "PUT", "/api/v2/json/records/league/9100001", e.editor,
		`{"strLeague":"Riverside League","strSport":"Soccer","strCurrentSeason":"2026-2027","intDivision":"4","strBadge":"https://img.example/league.png"}`), 201, "")
	for id, name := range map[string]string{"9000001": "Riverside FC", "9000002": "Hillside United"} {
		want(t, "team", e.send(t, "PUT", "/api/v2/json/records/team/"+id, e.editor,
			`{"strTeam":"`+name+`","strSport":"Soccer","idLeague":"9100001","strBadge":"https://img.example/`+id+`.png"}`), 201, "")
	}
	r := e.send(t, "PUT", "/api/v2/json/records/event/9200001", e.editor, event)
	want(t, "event", r, 201, "")
	return &recordsResponse{r.Body}
}

type recordsResponse struct{ body []byte }

const fixtureEvent = `{"idLeague":"9100001","strSeason":"2026-2027","idHomeTeam":"9000001","idAwayTeam":"9000002","dateEvent":"2026-10-10","strTime":"19:45"}`

// A fixture written with ids, a date and a time has its names, badges and timestamp filled,
// and answers at once, by its derived names, on the v1 searches (strEvent) and v2 ones
// (strFilename), the next events, the
// day, the season and the calendar.
func TestDeriveFixtureAnswersEverywhere(t *testing.T) {
	e := newEnv(t)
	// Fill the response cache with the answers before the write.
	const name = "Riverside FC vs Hillside United"
	v1 := []string{"searchevents.php?e=Riverside_FC_vs_Hillside_United", "eventsnextleague.php?id=9100001",
		"eventsday.php?d=2026-10-10", "eventsseason.php?id=9100001&s=2026-2027"}
	// v2 searches events by strFilename, as the public service does.
	v2 := []string{"search/event/riverside_league_2026-10-10_riverside_fc_vs_hillside_united", "schedule/next/league/9100001", "schedule/league/9100001/2026-2027"}
	for _, p := range v1 {
		e.V1(t, e.PremiumKey, p)
	}
	for _, p := range v2 {
		e.V2(t, p)
	}
	got := recordOf(t, e.fixture(t, fixtureEvent).body)
	wantFields(t, "fixture", got, map[string]any{
		"strEvent": name, "strEventAlternate": "Hillside United @ Riverside FC",
		"strFilename":  "Riverside League 2026-10-10 Riverside FC vs Hillside United",
		"strTimestamp": "2026-10-10T19:45:00", "strTime": "19:45", "dateEventLocal": nil, "strTimeLocal": nil,
		"strLeague": "Riverside League", "strLeagueBadge": "https://img.example/league.png", "strSport": "Soccer",
		"strHomeTeam": "Riverside FC", "strAwayTeam": "Hillside United",
		"strHomeTeamBadge": "https://img.example/9000001.png", "strAwayTeamBadge": "https://img.example/9000002.png",
	})
	for _, p := range v1 {
		if r := e.V1(t, e.PremiumKey, p); !strings.Contains(string(r.Body), `"strEvent":"`+name+`"`) {
			t.Errorf("v1 %s: %d %s", p, r.Status, r.Body)
		}
	}
	for _, p := range v2 {
		if r := e.V2(t, p); !strings.Contains(string(r.Body), `"strEvent":"`+name+`"`) {
			t.Errorf("v2 %s: %d %s", p, r.Status, r.Body)
		}
	}
	cal := e.Get(t, "/calendar/"+e.PremiumKey+"/league/9100001.ics")
	if !strings.Contains(string(cal.Body), "UID:9200001@sportsdb") || !strings.Contains(string(cal.Body), "Riverside FC") ||
		!strings.Contains(string(cal.Body), "Hillside United") {
		t.Errorf("calendar: %d %s", cal.Status, cal.Body)
	}
}

// What the writer set is kept: its names, its filename, its timestamp; the rest is derived
// around them. An id that names no record leaves its names empty, and a date that is not one
// derives no timestamp: neither is an error.
func TestDeriveKeepsWhatTheWriterSet(t *testing.T) {
	e := newEnv(t)
	got := recordOf(t, e.fixture(t, `{"idLeague":"9100001","idHomeTeam":"9000001","idAwayTeam":"9000002",`+
		`"strHomeTeam":"Riverside","strEvent":"The Derby","strFilename":"mine","strTimestamp":"2026-10-10T20:00:00",`+
		`"dateEvent":"2026-10-10","strTime":"19:45:00","strHomeTeamBadge":"https://img.example/old.png"}`).body)
	wantFields(t, "kept", got, map[string]any{
		"strEvent": "The Derby", "strFilename": "mine", "strTimestamp": "2026-10-10T20:00:00", "strTime": "19:45:00",
		"strHomeTeam": "Riverside", "strHomeTeamBadge": "https://img.example/old.png",
		"strEventAlternate": "Hillside United @ Riverside", "strAwayTeam": "Hillside United",
	})
	r := e.send(t, "PUT", "/api/v2/json/records/event/9200002", e.editor,
		`{"idHomeTeam":"9999998","idAwayTeam":"9000002","idLeague":"9999999","dateEvent":"2026-13-45","strTime":"noon"}`)
	want(t, "unknown ids", r, 201, "")
	wantFields(t, "unknown ids", recordOf(t, r.Body), map[string]any{
		"strHomeTeam": nil, "strAwayTeam": "Hillside United", "strEvent": nil, "strLeague": nil, "strTimestamp": nil, "strFilename": nil,
	})
	// A patch derives too: what it clears is filled again from the ids.
	r = e.send(t, "PATCH", "/api/v2/json/records/event/9200001", e.editor, `{"strHomeTeam":null,"strEvent":null,"strEventAlternate":null}`)
	want(t, "patch", r, 200, "")
	wantFields(t, "patch", recordOf(t, r.Body), map[string]any{
		"strHomeTeam": "Riverside FC", "strEvent": "Riverside FC vs Hillside United", "strEventAlternate": "Hillside United @ Riverside FC", "strFilename": "mine",
	})
}

// recorded reads the first record under key of a recorded answer of the public service.
func recorded(t *testing.T, file, key string) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../../../testdata/recorded/v1-free/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var answer map[string][]map[string]any
	if err := json.Unmarshal(b, &answer); err != nil || len(answer[key]) == 0 {
		t.Fatalf("%s: %v", file, err)
	}
	return answer[key][0]
}

// putWithout writes rec to path with fields null and answers the stored record.
func (e *env) putWithout(t *testing.T, path string, rec map[string]any, fields ...string) map[string]any {
	t.Helper()
	sent := map[string]any{}
	for f, v := range rec {
		sent[f] = v
	}
	for _, f := range fields {
		sent[f] = nil
	}
	body, _ := json.Marshal(sent)
	r := e.send(t, "PUT", path, e.editor, string(body))
	want(t, path, r, 201, "")
	return recordOf(t, r.Body)
}

// A recorded team written without its league names and sport gets them from the leagues
// its idLeague to idLeague7 name; a recorded player without its team name and sport gets
// them from its team: as the public service's records show them.
func TestDeriveRecordedTeamAndPlayer(t *testing.T) {
	e := newEnv(t)
	team := recorded(t, "search_all_teams_league.json", "teams")
	derived := []string{"strSport"}
	for _, n := range []string{"", "2", "3", "4", "5", "6", "7"} {
		sport := ""
		if n == "" {
			sport = `,"strSport":"Soccer"`
		}
		derived = append(derived, "strLeague"+n)
		want(t, "league", e.send(t, "PUT", "/api/v2/json/records/league/"+team["idLeague"+n].(string), e.editor,
			`{"strLeague":"`+team["strLeague"+n].(string)+`"`+sport+`}`), 201, "")
	}
	got := e.putWithout(t, "/api/v2/json/records/team/"+team["idTeam"].(string), team, derived...)
	for _, f := range derived {
		if got[f] != team[f] {
			t.Errorf("team %s: %#v, the public service wrote %#v", f, got[f], team[f])
		}
	}

	player := recorded(t, "lookup_player.json", "players")
	want(t, "player's team", e.send(t, "PUT", "/api/v2/json/records/team/"+player["idTeam"].(string), e.editor,
		`{"strTeam":"`+player["strTeam"].(string)+`","strSport":"`+player["strSport"].(string)+`"}`), 201, "")
	got = e.putWithout(t, "/api/v2/json/records/player/"+player["idPlayer"].(string), player, "strTeam", "strSport")
	wantFields(t, "player", got, map[string]any{"strTeam": player["strTeam"], "strSport": player["strSport"]})
}
