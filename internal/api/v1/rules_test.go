package v1_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// rule is one rule of the spec or docs/CONTRACT.md, checked through one request.
type rule struct {
	name   string
	tier   store.Tier
	path   string // file and query
	body   string // when set, the exact body expected (status 200 unless status is set)
	status int
	key    string   // the record key expected
	field  string   // the field listed from each record
	want   []string // that field's values in order; nil means the key holds null
}

func (c rule) check(t *testing.T, e *env) {
	t.Helper()
	tier := c.tier
	if tier == "" {
		tier = store.Free
	}
	res := e.get(t, tier, c.path)
	status := c.status
	if status == 0 {
		status = 200
	}
	if c.body != "" || status != 200 {
		wantStatus(t, res, status, c.body)
		return
	}
	wantStatus(t, res, 200, "")
	got := listField(t, res.Body, c.key, c.field)
	if !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
		t.Fatalf("%s: %s = %q, want %q\nbody: %.400s", c.path, c.field, got, c.want, res.Body)
	}
}

// listField returns one field of every record under key; nil when the key holds null.
func listField(t testing.TB, body []byte, key, field string) []string {
	t.Helper()
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("body is not a JSON object: %v: %.300s", err, body)
	}
	raw, ok := env[key]
	if !ok || len(env) != 1 {
		t.Fatalf("body should hold exactly the key %q: %.300s", key, body)
	}
	var recs []map[string]*string
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatalf("%s is not an array of records: %v: %.300s", key, err, raw)
	}
	if recs == nil {
		return nil
	}
	out := []string{}
	for _, rec := range recs {
		v := rec[field]
		if v == nil {
			t.Fatalf("record without %s: %v", field, rec)
		}
		out = append(out, *v)
	}
	return out
}

// ids lists n consecutive ids from the first.
func ids(from, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprint(from+i))
	}
	return out
}

var rules = []rule{
	// Team search: free keys find the exact name only; case, accents, `_`, `+`, `%20` do not matter.
	{name: "free exact team", path: "searchteams.php?t=arsenal", key: "teams", field: "idTeam", want: []string{"133604"}},
	{name: "free no partial team", path: "searchteams.php?t=Arsen", key: "teams", field: "idTeam", want: nil},
	{name: "free alternate name", path: "searchteams.php?t=afc", key: "teams", field: "idTeam", want: []string{"133604"}},
	{name: "accents and underscore", path: "searchteams.php?t=ATLETICO_madrid", key: "teams", field: "strTeam", want: []string{"Atlético Madrid"}},
	{name: "plus as space", path: "searchteams.php?t=Atletico+Madrid", key: "teams", field: "idTeam", want: []string{"134700"}},
	{name: "%20 as space", path: "searchteams.php?t=Atletico%20Madrid", key: "teams", field: "idTeam", want: []string{"134700"}},
	{name: "premium partial team", tier: store.Premium, path: "searchteams.php?t=arsen", key: "teams", field: "strTeam", want: []string{"Arsenal", "Arsenal Tula"}},
	{name: "premium exact first", tier: store.Premium, path: "searchteams.php?t=Arsenal", key: "teams", field: "strTeam", want: []string{"Arsenal", "Arsenal Tula"}},
	{name: "business like premium", tier: store.Business, path: "searchteams.php?t=tula", key: "teams", field: "strTeam", want: []string{"Arsenal Tula"}},
	{name: "empty team name", path: "searchteams.php?t=", body: `{"teams":null}`},
	{name: "only spaces", path: "searchteams.php?t=___", body: `{"teams":null}`},

	// Schedules follow the clock (2026-10-05 20:05 UTC); free keys get home games only.
	{name: "free next home only", path: "eventsnext.php?id=133602", key: "events", field: "idEvent", want: []string{"1001"}},
	{name: "premium next", tier: store.Premium, path: "eventsnext.php?id=133602", key: "events", field: "idEvent", want: []string{"1002", "1001"}},
	{name: "free last under results", path: "eventslast.php?id=133602", key: "results", field: "idEvent", want: []string{"1003"}},
	{name: "premium last", tier: store.Premium, path: "eventslast.php?id=133602", key: "results", field: "idEvent", want: []string{"1004", "1003"}},
	{name: "league next", path: "eventsnextleague.php?id=4328", key: "events", field: "idEvent", want: []string{"1002"}},
	{name: "league past", path: "eventspastleague.php?id=4328", key: "events", field: "idEvent", want: []string{"1006"}},

	// Events on a day: UTC date, l as id or name, no events gives null.
	{name: "day", path: "eventsday.php?d=2026-10-04", key: "events", field: "idEvent", want: []string{"1006"}},
	{name: "day is UTC", path: "eventsday.php?d=2026-10-05", key: "events", field: "idEvent", want: []string{"1005"}},
	{name: "day league id", path: "eventsday.php?d=2026-10-05&l=4380", key: "events", field: "idEvent", want: []string{"1005"}},
	{name: "day league name", path: "eventsday.php?d=2026-10-05&l=nhl", key: "events", field: "idEvent", want: []string{"1005"}},
	{name: "day sport", path: "eventsday.php?d=2026-10-04&s=Ice_Hockey", body: `{"events":null}`},
	{name: "day without events", path: "eventsday.php?d=2026-10-06", body: `{"events":null}`},
	{name: "day not a date", path: "eventsday.php?d=2026-13-01", body: `{"events":null}`},

	// Rounds: the whole round to free keys, 404 to premium keys; l= is rejected.
	{name: "whole round", path: "eventsround.php?id=4328&r=1&s=2026-2027", key: "events", field: "idEvent", want: ids(3000, 12)},
	{name: "round premium 404", tier: store.Premium, path: "eventsround.php?id=4328&r=1&s=2026-2027", status: 404, body: `{"Message":"Not found"}`},
	{name: "round business 404", tier: store.Business, path: "eventsround.php?id=4328&r=1&s=2026-2027", status: 404, body: `{"Message":"Not found"}`},
	{name: "round l rejected", path: "eventsround.php?l=4328&r=1&s=2026-2027", body: `{"events":"Invalid League ID or no round passed"}`},
	{name: "round without r rejected", path: "eventsround.php?id=4328&s=2026-2027", body: `{"events":"Invalid League ID or no round passed"}`},
	{name: "old lineup file 404", path: "lookuplineups.php?id=1", status: 404, body: `{"Message":"Not found"}`},
	{name: "old lineup file 404 premium", tier: store.Premium, path: "lookuplineups.php?id=1", status: 404, body: `{"Message":"Not found"}`},
	{name: "unknown file", path: "nosuchfile.php", status: 404, body: `{"Message":"Not found"}`},

	// Highlights stop at 50 for premium keys, 2 for free keys.
	{name: "highlights premium 50", tier: store.Premium, path: "eventshighlights.php?d=2026-10-04", key: "tvhighlights", field: "idEvent", want: ids(5000, 50)},
	{name: "highlights free 2", path: "eventshighlights.php?d=2026-10-04&l=4328&s=soccer", key: "tvhighlights", field: "idEvent", want: ids(5000, 2)},

	// Live scores: l is ignored, free keys get the whole feed.
	{name: "live sport", path: "livescore.php?s=Soccer", key: "livescore", field: "idLiveScore", want: []string{"1", "2"}},
	{name: "live l ignored", path: "livescore.php?l=4328", key: "livescore", field: "idLiveScore", want: []string{"1", "2", "3"}},
	{name: "live l ignored with s", path: "livescore.php?s=Soccer&l=4380", key: "livescore", field: "idLiveScore", want: []string{"1", "2"}},

	// TV listings: by date (with sport, with sport and country), by channel name or id.
	// By listing id, not by time: the recorded eventstv.php?d=2026-10-05 answer is the day's
	// lowest listing id (00:20), not its earliest listing (00:00).
	{name: "tv day free", path: "eventstv.php?d=2026-10-05", key: "tvevents", field: "id", want: []string{"1"}},
	{name: "tv day premium", tier: store.Premium, path: "eventstv.php?d=2026-10-05", key: "tvevents", field: "id", want: []string{"1", "2", "3"}},
	{name: "tv day sport", tier: store.Premium, path: "eventstv.php?d=2026-10-05&s=Ice_Hockey", key: "tvevents", field: "id", want: []string{"2", "3"}},
	{name: "tv day sport country", tier: store.Premium, path: "eventstv.php?d=2026-10-05&s=Ice_Hockey&a=Canada", key: "tvevents", field: "id", want: []string{"2"}},
	{name: "tv a without s", path: "eventstv.php?d=2026-10-05&a=Canada", body: "-"},
	{name: "tv channel partial", tier: store.Premium, path: "eventstv.php?c=tsn", key: "tvevents", field: "id", want: []string{"2"}},
	{name: "tv channel id", tier: store.Premium, path: "eventstv.php?id=8631", key: "tvevents", field: "id", want: []string{"1"}},
	{name: "tv two forms", path: "eventstv.php?d=2026-10-05&c=tsn", body: "-"},
	{name: "tv one event", tier: store.Premium, path: "lookuptv.php?id=1005", key: "tvevent", field: "id", want: []string{"2", "3"}},

	// Seasons: names only unless a flag is set; several flags in the v2 order.
	{name: "season names", path: "search_all_seasons.php?id=4328", body: `{"seasons":[{"strSeason":"2024-2025"},{"strSeason":"2025-2026"}]}`},
	{name: "season badge", path: "search_all_seasons.php?id=4328&badge=1", body: `{"seasons":[{"strSeason":"2024-2025","strBadge":"b24"},{"strSeason":"2025-2026","strBadge":"b25"}]}`},
	{name: "season flag off", path: "search_all_seasons.php?id=4328&badge=0", body: `{"seasons":[{"strSeason":"2024-2025"},{"strSeason":"2025-2026"}]}`},
	{name: "season all flags", path: "search_all_seasons.php?id=4328&description=1&badge=1&poster=1",
		body: `{"seasons":[{"strSeason":"2024-2025","strPoster":"p24","strBadge":"b24","strDescriptionEN":"d24"},{"strSeason":"2025-2026","strPoster":"p25","strBadge":"b25","strDescriptionEN":"d25"}]}`},
	{name: "season l rejected", path: "search_all_seasons.php?l=4328", body: `{"seasons":"Invalid League ID passed"}`},

	// Leagues of a country answer under countries; l= is rejected.
	{name: "leagues of country", path: "search_all_leagues.php?c=england&s=Soccer", key: "countries", field: "idLeague", want: []string{"4328"}},
	{name: "leagues l rejected", path: "search_all_leagues.php?l=4328", body: `{"countries":"Invalid country passed"}`},
	{name: "all leagues free", path: "all_leagues.php", body: `{"leagues":[{"idLeague":"4328","strLeague":"English Premier League","strSport":"Soccer"},{"idLeague":"4335","strLeague":"Spanish La Liga","strSport":"Soccer"},{"idLeague":"4380","strLeague":"NHL","strSport":"Ice Hockey"}]}`},
	{name: "all leagues premium", tier: store.Premium, path: "all_leagues.php", body: `{"leagues":[{"idLeague":"4328","strLeague":"English Premier League","strSport":"Soccer","strLeagueAlternate":"Premier League, EPL"},{"idLeague":"4335","strLeague":"Spanish La Liga","strSport":"Soccer","strLeagueAlternate":null},{"idLeague":"4380","strLeague":"NHL","strSport":"Ice Hockey","strLeagueAlternate":null}]}`},

	// Tables: without s the league's current season, ranks in numeric order.
	{name: "table current season", path: "lookuptable.php?l=4328", key: "table", field: "idStanding", want: []string{"9101", "9102", "9103", "9104", "9105"}},
	{name: "table season", tier: store.Premium, path: "lookuptable.php?l=4328&s=2025-2026", key: "table", field: "intRank", want: ids(1, 12)},

	// Ids: unknown, non-numeric, negative give null; the last of repeated values wins.
	{name: "unknown id", path: "lookupteam.php?id=999", body: `{"teams":null}`},
	{name: "non-numeric id", path: "lookupteam.php?id=abc", body: `{"teams":null}`},
	{name: "negative id", path: "lookupteam.php?id=-133604", body: `{"teams":null}`},
	{name: "missing id", path: "lookupplayer.php", body: `{"players":null}`},
	{name: "last value wins", path: "lookupteam.php?id=999&id=133604", key: "teams", field: "strTeam", want: []string{"Arsenal"}},
	{name: "player key plural", path: "lookupplayer.php?id=34145937", key: "players", field: "strPlayer", want: []string{"Mario Balotelli"}},

	// Lists and searches.
	{name: "squad by name", path: "lookup_all_players.php?id=133604", key: "player", field: "strPlayer", want: []string{"Mario", "Mario Balotelli"}},
	{name: "teams of league", path: "search_all_teams.php?l=English_Premier_League", key: "teams", field: "strTeam", want: []string{"Arsenal", "Chelsea", "Liverpool"}},
	{name: "teams of sport and country", path: "search_all_teams.php?s=Soccer&c=spain", key: "teams", field: "strTeam", want: []string{"Atlético Madrid"}},
	{name: "teams sport without country", path: "search_all_teams.php?s=Soccer", body: `{"teams":null}`},
	{name: "venue partial", path: "searchvenues.php?v=emirates", key: "venues", field: "idVenue", want: []string{"133597"}},
	{name: "venue alternate", path: "searchvenues.php?v=arsenal_stadium", key: "venues", field: "idVenue", want: []string{"133597"}},
	{name: "event latest first", path: "searchevents.php?e=Arsenal_vs_Chelsea", key: "event", field: "idEvent", want: []string{"1006"}},
	{name: "event by season", path: "searchevents.php?e=Arsenal_vs_Chelsea&s=2016-2017", key: "event", field: "idEvent", want: []string{"1007"}},
	{name: "event by date", path: "searchevents.php?e=arsenal+vs+chelsea&d=2017-05-27", key: "event", field: "idEvent", want: []string{"1007"}},
	{name: "event season and date", path: "searchevents.php?e=Arsenal_vs_Chelsea&s=2016-2017&d=2017-05-27", body: "-"},
	{name: "event by filename", path: "searchfilename.php?e=English_Premier_League_2017-05-27_Arsenal_vs_Chelsea", key: "event", field: "idEvent", want: []string{"1007"}},
	{name: "players free best", path: "searchplayers.php?p=mario", key: "player", field: "idPlayer", want: []string{"34145938"}},
	{name: "players premium ranked", tier: store.Premium, path: "searchplayers.php?p=MARIO", key: "player", field: "relevance", want: []string{"20", "13.333333333333334", "12.777777777777779"}},
}

func TestRules(t *testing.T) {
	e := newEnv(t, fixtureNow)
	put(t, e.st, world()...)
	for _, c := range rules {
		t.Run(c.name, func(t *testing.T) {
			if c.body == "-" { // the documented empty body
				res := e.get(t, tierOr(c.tier), c.path)
				if res.Status != 200 || len(res.Body) != 0 || res.Header.Get("Content-Length") != "0" {
					t.Fatalf("want an empty 200 answer, got %d %q", res.Status, res.Body)
				}
				return
			}
			c.check(t, e)
		})
	}
}

func tierOr(t store.Tier) store.Tier {
	if t == "" {
		return store.Free
	}
	return t
}

// TestClock: next and previous follow the server's clock, not the wall clock.
func TestClock(t *testing.T) {
	e := newEnv(t, time.Date(2026, 10, 9, 0, 0, 0, 0, time.UTC))
	put(t, e.st, world()...)
	rule{tier: store.Premium, path: "eventsnext.php?id=133602", key: "events", field: "idEvent", want: []string{"1001"}}.check(t, e)
	rule{tier: store.Premium, path: "eventslast.php?id=133602", key: "results", field: "idEvent", want: []string{"1002", "1004", "1003"}}.check(t, e)
}
