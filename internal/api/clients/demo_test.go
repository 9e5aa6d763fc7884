package clients_test

import (
	"encoding/json"
	"testing"
	"time"

	"sportsdb/internal/apitest"
)

// demoValues reads, through the API, the ids and names the calls' {placeholders} stand for:
// a league with a season of events, a team of it and its players, one of its events, the
// clock's day and an event shown on TV that day.
func demoValues(t *testing.T, e *apitest.Env) map[string]string {
	t.Helper()
	list := func(path, key string) []map[string]any {
		t.Helper()
		res := e.V1(t, e.PremiumKey, path)
		var body map[string][]map[string]any
		if err := json.Unmarshal(res.Body, &body); err != nil || len(body[key]) == 0 {
			t.Fatalf("demo data: %s: %d %.200s", path, res.Status, res.Body)
		}
		return body[key]
	}
	first := func(path, key string) map[string]any { return list(path, key)[0] }
	last := func(path, key string) map[string]any { l := list(path, key); return l[len(l)-1] }
	str := func(m map[string]any, f string) string { s, _ := m[f].(string); return s }
	v := map[string]string{}
	league := first("all_leagues.php", "leagues")
	v["league"], v["leagueName"], v["sport"] = str(league, "idLeague"), str(league, "strLeague"), str(league, "strSport")
	v["season"] = str(last("search_all_seasons.php?id="+v["league"], "seasons"), "strSeason")
	ev := first("eventsseason.php?id="+v["league"]+"&s="+v["season"], "events")
	v["event"], v["date"], v["round"], v["team"] = str(ev, "idEvent"), str(ev, "dateEvent"), str(ev, "intRound"), str(ev, "idHomeTeam")
	v["eventName"] = str(ev, "strEvent")
	team := first("lookupteam.php?id="+v["team"], "teams")
	v["teamName"], v["venue"], v["country"] = str(team, "strTeam"), str(team, "idVenue"), str(team, "strCountry")
	v["teamShort"] = str(team, "strTeamShort")
	v["venueName"] = str(first("lookupvenue.php?id="+v["venue"], "venues"), "strVenue")
	player := first("lookup_all_players.php?id="+v["team"], "player")
	v["player"], v["playerName"] = str(player, "idPlayer"), str(player, "strPlayer")
	v["today"] = e.Clock.Now().UTC().Format(time.DateOnly)
	v["tvEvent"] = str(first("eventstv.php?d="+v["today"], "tvevents"), "idEvent")
	for k, val := range v {
		if val == "" {
			t.Fatalf("demo data: no %s in %v", k, v)
		}
	}
	return v
}
