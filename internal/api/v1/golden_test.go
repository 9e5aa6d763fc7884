package v1_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// goldens name one request per response shape: every file, each view and variant.
var goldens = []struct {
	name string
	tier store.Tier
	path string // a v1 file and query, or a full path starting with /
}{
	{"searchteams", store.Free, "searchteams.php?t=Arsenal"},
	{"searchteams_premium", store.Premium, "searchteams.php?t=arsenal"},
	{"searchteams_sname", store.Free, "searchteams.php?sname=ars"},
	{"searchevents", store.Free, "searchevents.php?e=Arsenal_vs_Chelsea"},
	{"searchfilename", store.Free, "searchfilename.php?e=English_Premier_League_2026-09-06_Arsenal_vs_Chelsea"},
	{"searchplayers", store.Premium, "searchplayers.php?p=balotelli"},
	{"searchplayers_team", store.Free, "searchplayers.php?t=Arsenal"},
	{"searchplayers_team_name", store.Premium, "searchplayers.php?t=Arsenal&p=b"},
	{"lookup_all_teams", store.Free, "lookup_all_teams.php?id=4328"},
	{"searchvenues", store.Free, "searchvenues.php?v=Wembley"},
	{"lookupleague", store.Free, "lookupleague.php?id=4328"},
	{"lookuptable", store.Free, "lookuptable.php?l=4328"},
	{"lookupteam", store.Free, "lookupteam.php?id=133604"},
	{"lookupequipment", store.Free, "lookupequipment.php?id=133597"},
	{"lookupplayer", store.Free, "lookupplayer.php?id=34145937"},
	{"lookuphonours", store.Free, "lookuphonours.php?id=34145937"},
	{"lookupformerteams", store.Free, "lookupformerteams.php?id=34147178"},
	{"lookupmilestones", store.Free, "lookupmilestones.php?id=34145937"},
	{"lookupcontracts", store.Free, "lookupcontracts.php?id=34145937"},
	{"lookuptv", store.Free, "lookuptv.php?id=2494052"},
	{"playerresults", store.Free, "playerresults.php?id=34160573"},
	{"lookupplayerstats", store.Free, "lookupplayerstats.php?id=34146304"},
	{"lookupevent", store.Free, "lookupevent.php?id=441613"},
	{"eventresults", store.Free, "eventresults.php?id=652890"},
	{"lookuplineup", store.Free, "lookuplineup.php?id=1032723"},
	{"lookuptimeline", store.Free, "lookuptimeline.php?id=1032718"},
	{"lookupeventstats", store.Free, "lookupeventstats.php?id=1032723"},
	{"lookupvenue", store.Free, "lookupvenue.php?id=23604"},
	{"all_sports", store.Free, "all_sports.php"},
	{"all_countries", store.Free, "all_countries.php"},
	{"all_leagues", store.Free, "all_leagues.php"},
	{"all_leagues_premium", store.Premium, "all_leagues.php"},
	{"search_all_leagues", store.Free, "search_all_leagues.php?c=England&s=Soccer"},
	{"search_all_leagues_rejected", store.Free, "search_all_leagues.php?l=4328"},
	{"search_all_seasons", store.Free, "search_all_seasons.php?id=4328"},
	{"search_all_seasons_flags", store.Premium, "search_all_seasons.php?id=4328&badge=1&poster=1&description=1"},
	{"search_all_seasons_rejected", store.Free, "search_all_seasons.php?l=4328"},
	{"search_all_teams", store.Free, "search_all_teams.php?l=English_Premier_League"},
	{"lookup_all_players", store.Free, "lookup_all_players.php?id=133604"},
	{"eventsnext", store.Free, "eventsnext.php?id=133602"},
	{"eventslast", store.Free, "eventslast.php?id=133602"},
	{"eventsnextleague", store.Free, "eventsnextleague.php?id=4328"},
	{"eventspastleague", store.Free, "eventspastleague.php?id=4328"},
	{"eventsday", store.Free, "eventsday.php?d=2026-10-04"},
	{"eventsday_none", store.Free, "eventsday.php?d=2026-10-20"},
	{"eventsseason", store.Free, "eventsseason.php?id=4328&s=2026-2027"},
	{"eventsround", store.Free, "eventsround.php?id=4328&r=1&s=2026-2027"},
	{"eventsround_rejected", store.Free, "eventsround.php?l=4328&r=1&s=2026-2027"},
	{"eventstv", store.Free, "eventstv.php?d=2026-10-05"},
	{"eventshighlights", store.Free, "eventshighlights.php?d=2026-10-04"},
	{"livescore", store.Free, "livescore.php?s=Soccer"},
	{"livescore_v2_alias", store.Premium, "/api/v2/json/{key}/livescore.php?s=Soccer&l=4490"},
	{"not_found", store.Free, "lookuplineups.php?id=1032723"},
}

// TestGolden: one answer per response shape, on every fixture of the public service (plus
// the few kinds no fixture holds), compared byte for byte with testdata/golden.
func TestGolden(t *testing.T) {
	e := newEnv(t, fixtureNow, apitest.Import{Path: apitest.FixturesDir(t)})
	put(t, e.st,
		r(record.Honour, "id", "1", "idPlayer", "34145937", "strPlayer", "Mario Balotelli", "strHonour", "Serie A", "strSeason", "2009-2010"),
		r(record.Milestone, "id", "1", "idPlayer", "34145937", "strPlayer", "Mario Balotelli", "strMilestone", "100 Appearances"),
		r(record.Contract, "id", "1", "idPlayer", "34145937", "strPlayer", "Mario Balotelli", "strYearStart", "2010", "strYearEnd", "2013"),
		r(record.Venue, "idVenue", "133597", "strVenue", "Emirates Stadium", "strSport", "Soccer"))
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			var res *resp
			if g.path[0] == '/' {
				res = e.Get(t, strings.ReplaceAll(g.path, "{key}", e.key(g.tier)))
			} else {
				res = e.get(t, g.tier, g.path)
			}
			if g.name != "not_found" && res.Status != 200 {
				t.Fatalf("status %d: %s", res.Status, res.Body)
			}
			checkGolden(t, g.name, res.Body)
		})
	}
}

// checkGolden compares an answer byte for byte with testdata/golden/NAME.json (-update
// rewrites it).
func checkGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	file := filepath.Join("testdata", "golden", name+".json")
	if testsupport.Update() {
		if err := os.WriteFile(file, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/api/v1 -update)", err)
	}
	if !bytes.Equal(body, want) {
		if d := testsupport.JSONDiff(body, want); d != "" {
			t.Fatal(d)
		}
		t.Fatalf("same JSON, different bytes:\n got: %.300s\nwant: %.300s", body, want)
	}
}
