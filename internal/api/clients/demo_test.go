package clients_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
)

// demoValues reads, through the API, the ids and names the calls' {placeholders} stand for:
// a league with a season of events, a team of it and its players, one of its events, the
// clock's day, an event shown on TV that day (its channel, country and sport), and the
// records a few calls need found: honours, results, a season that is a year.
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
	v["eventName"], v["filename"] = str(ev, "strEvent"), str(ev, "strFilename")
	team := first("lookupteam.php?id="+v["team"], "teams")
	v["teamName"], v["venue"], v["country"] = str(team, "strTeam"), str(team, "idVenue"), str(team, "strCountry")
	v["teamShort"] = str(team, "strTeamShort")
	v["venueName"] = str(first("lookupvenue.php?id="+v["venue"], "venues"), "strVenue")
	player := first("lookup_all_players.php?id="+v["team"], "player")
	v["player"], v["playerName"] = str(player, "idPlayer"), str(player, "strPlayer")
	v["today"] = e.Clock.Now().UTC().Format(time.DateOnly)
	tv := first("eventstv.php?d="+v["today"], "tvevents")
	v["tvEvent"], v["tvChannel"], v["tvCountry"], v["tvSport"] = str(tv, "idEvent"), str(tv, "strChannel"), str(tv, "strCountry"), str(tv, "strSport")
	// Found by looking: a player of the team with honours; an event with results (a sport of
	// single competitors); a league whose seasons are years (clients that send the season as
	// a number) with a table, and one of its events of that season.
	v["honourPlayer"], v["resultEvent"], v["yearLeague"], v["yearSeason"], v["yearEventName"] = "", "", "", "", ""
	for _, p := range list("lookup_all_players.php?id="+v["team"], "player") {
		if has(t, e, "lookuphonours.php?id="+str(p, "idPlayer"), "honours") {
			v["honourPlayer"] = str(p, "idPlayer")
			break
		}
	}
	for _, l := range list("all_leagues.php", "leagues") {
		id := str(l, "idLeague")
		if v["resultEvent"] == "" && has(t, e, "eventspastleague.php?id="+id, "events") {
			if ev := last("eventspastleague.php?id="+id, "events"); has(t, e, "eventresults.php?id="+str(ev, "idEvent"), "results") {
				v["resultEvent"] = str(ev, "idEvent")
			}
		}
		s := str(last("search_all_seasons.php?id="+id, "seasons"), "strSeason")
		if v["yearLeague"] == "" && strings.Trim(s, "0123456789") == "" && has(t, e, "lookuptable.php?l="+id+"&s="+s, "table") {
			v["yearLeague"], v["yearSeason"] = id, s
			v["yearEventName"] = str(first("eventsseason.php?id="+id+"&s="+s, "events"), "strEvent")
		}
	}
	for k, val := range v {
		if val == "" {
			t.Fatalf("demo data: no %s in %v", k, v)
		}
	}
	return v
}

// has says whether a call answers records under key.
func has(t *testing.T, e *apitest.Env, path, key string) bool {
	t.Helper()
	res := e.V1(t, e.PremiumKey, path)
	var body map[string]json.RawMessage
	if json.Unmarshal(res.Body, &body) != nil {
		return false
	}
	var recs []json.RawMessage
	return json.Unmarshal(body[key], &recs) == nil && len(recs) > 0
}
