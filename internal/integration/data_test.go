package integration

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/gen"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

var demo struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// demoSQLite returns a new SQLite file holding the demo dataset (seed 1 at demoNow) and the
// published keys. The dataset is generated once per run and copied for each test.
func demoSQLite(t testing.TB) string {
	t.Helper()
	demo.once.Do(func() {
		demo.dir, demo.err = os.MkdirTemp("", "sportsdb-demo-")
		if demo.err != nil {
			return
		}
		demo.path = filepath.Join(demo.dir, "demo.db")
		demo.err = generateDemo(demo.path)
	})
	if demo.err != nil {
		t.Fatalf("demo dataset: %v", demo.err)
	}
	dst := filepath.Join(t.TempDir(), "sportsdb.db")
	if err := copyFile(demo.path, dst); err != nil {
		t.Fatalf("copy demo dataset: %v", err)
	}
	return dst
}

func generateDemo(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	if _, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: demoNow}); err != nil {
		st.Close()
		return err
	}
	if err := auth.EnsurePublished(ctx, st); err != nil {
		st.Close()
		return err
	}
	// Closing checkpoints the WAL, so the .db file alone holds everything.
	return st.Close()
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

var errFound = errors.New("found")

// picker reads values for request parameters out of a dataset.
type picker struct {
	t  testing.TB
	st store.Records
}

// pick returns field of the first stored record of k that ok (when given) accepts.
func (p picker) pick(k *record.Kind, field string, ok ...func(record.Record) bool) string {
	p.t.Helper()
	var v string
	err := p.st.Scan(context.Background(), k, func(r record.Record) error {
		if !r.Get(field).Empty() && (len(ok) == 0 || ok[0](r)) {
			v = r.Str(field)
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		p.t.Fatalf("dataset: no %s with %s (%v)", k.Name, field, err)
	}
	return v
}

// request is one URL of the comparison list. path holds "{key}" where a v1 key goes.
type request struct {
	path string
	// v2 requests carry the key in X-API-KEY; v1 ones are asked with a free and a premium key.
	v2 bool
}

// endpointRequests lists a request for every v1 file of docs/CONTRACT.md section 1 and every v2
// path of section 2, with parameters taken from the dataset so that they find records.
func endpointRequests(t testing.TB, st store.Records) []request {
	p := picker{t: t, st: st}
	nowTS, today := demoNow.Format("2006-01-02T15:04:05"), demoNow.Format(time.DateOnly)
	future := func(r record.Record) bool { return r.Str("strTimestamp") > nowTS }
	past := func(r record.Record) bool { ts := r.Str("strTimestamp"); return ts != "" && ts <= nowTS }
	upcomingTV := func(r record.Record) bool { return r.Str("dateEvent") >= today }
	q := url.QueryEscape
	seg := func(s string) string { return strings.ReplaceAll(url.PathEscape(s), "%20", "_") }

	team, league := p.pick(record.Team, "strTeam"), p.pick(record.League, "strLeague")
	player, venue := p.pick(record.Player, "strPlayer"), p.pick(record.Venue, "strVenue")
	event := p.pick(record.Event, "strEvent", past)
	filename := p.pick(record.Event, "strFilename", past)
	season := p.pick(record.Event, "strSeason")
	seasonLeague := p.pick(record.Event, "idLeague", func(r record.Record) bool { return r.Str("strSeason") == season })
	roundEvent := func(r record.Record) bool { return r.Str("intRound") != "" && r.Str("strSeason") == season }
	tvDay := p.pick(record.TV, "dateEvent", upcomingTV)
	hl := func(f string) string { return p.pick(record.Highlight, f) }
	v1 := []string{
		"searchteams.php?t=" + q(team), "searchteams.php?t=" + q(record.Fold(team)), "searchteams.php?t=" + q(strings.ToLower(firstWord(team))),
		"searchevents.php?e=" + q(event), "searchevents.php?e=" + q(event) + "&s=" + q(p.pick(record.Event, "strSeason", func(r record.Record) bool { return r.Str("strEvent") == event })),
		"searchfilename.php?e=" + q(p.pick(record.Event, "strFilename")),
		"searchplayers.php?p=" + q(player), "searchplayers.php?p=" + q(record.Fold(player)), "searchplayers.php?p=" + q(strings.ToUpper(firstWord(player))),
		"searchvenues.php?v=" + q(venue), "searchvenues.php?v=" + q(firstWord(venue)),
		"lookupleague.php?id=" + p.pick(record.League, "idLeague"),
		"lookuptable.php?l=" + p.pick(record.Standing, "idLeague"),
		"lookuptable.php?l=" + p.pick(record.Standing, "idLeague") + "&s=" + q(p.pick(record.Standing, "strSeason")),
		"lookupteam.php?id=" + p.pick(record.Team, "idTeam"),
		"lookupequipment.php?id=" + p.pick(record.Equipment, "idTeam"),
		"lookupplayer.php?id=" + p.pick(record.Player, "idPlayer"),
		"lookuphonours.php?id=" + p.pick(record.Honour, "idPlayer"),
		"lookupformerteams.php?id=" + p.pick(record.FormerTeam, "idPlayer"),
		"lookupmilestones.php?id=" + p.pick(record.Milestone, "idPlayer"),
		"lookupcontracts.php?id=" + p.pick(record.Contract, "idPlayer"),
		"lookuptv.php?id=" + p.pick(record.TV, "idEvent"),
		"playerresults.php?id=" + p.pick(record.Result, "idPlayer"),
		"lookupplayerstats.php?id=" + p.pick(record.PlayerStat, "idPlayer"),
		"lookupevent.php?id=" + p.pick(record.Event, "idEvent"),
		"eventresults.php?id=" + p.pick(record.Result, "idEvent"),
		"lookuplineup.php?id=" + p.pick(record.Lineup, "idEvent"),
		"lookuptimeline.php?id=" + p.pick(record.Timeline, "idEvent"),
		"lookupeventstats.php?id=" + p.pick(record.EventStat, "idEvent"),
		"lookupvenue.php?id=" + p.pick(record.Venue, "idVenue"),
		"all_sports.php", "all_countries.php", "all_leagues.php",
		"search_all_leagues.php?c=" + q(p.pick(record.League, "strCountry")),
		"search_all_leagues.php?s=" + q(p.pick(record.League, "strSport")),
		"search_all_seasons.php?id=" + p.pick(record.Season, "idLeague"),
		"search_all_seasons.php?id=" + p.pick(record.Season, "idLeague") + "&badge=1&poster=1&description=1",
		"search_all_teams.php?l=" + q(league),
		"search_all_teams.php?s=" + q(p.pick(record.Team, "strSport")) + "&c=" + q(p.pick(record.Team, "strCountry")),
		"lookup_all_players.php?id=" + p.pick(record.Player, "idTeam"),
		"eventsnext.php?id=" + p.pick(record.Event, "idHomeTeam", future),
		"eventslast.php?id=" + p.pick(record.Event, "idHomeTeam", past),
		"eventsnextleague.php?id=" + p.pick(record.Event, "idLeague", future),
		"eventspastleague.php?id=" + p.pick(record.Event, "idLeague", past),
		"eventsday.php?d=" + p.pick(record.Event, "dateEvent", past),
		"eventsday.php?d=" + p.pick(record.Event, "dateEvent", past) + "&s=" + q(p.pick(record.Event, "strSport", past)),
		"eventsseason.php?id=" + seasonLeague + "&s=" + q(season),
		"eventsround.php?id=" + p.pick(record.Event, "idLeague", roundEvent) + "&r=" + p.pick(record.Event, "intRound", roundEvent) + "&s=" + q(season),
		"eventstv.php?d=" + tvDay, "eventstv.php?d=" + tvDay + "&s=" + q(p.pick(record.TV, "strSport", upcomingTV)),
		"eventstv.php?c=" + q(p.pick(record.TV, "strChannel")), "eventstv.php?id=" + p.pick(record.TV, "idChannel"),
		"eventshighlights.php?d=" + hl("dateEvent"), "eventshighlights.php?d=" + hl("dateEvent") + "&l=" + hl("idLeague"),
		"eventshighlights.php?d=" + hl("dateEvent") + "&s=" + q(hl("strSport")),
		"livescore.php", "livescore.php?s=" + q(p.pick(record.LiveScore, "strSport")),
	}
	v2 := []string{
		"search/league/" + seg(league), "search/player/" + seg(player), "search/player/" + seg(strings.ToLower(firstWord(player))),
		"search/event/" + seg(filename), "search/venue/" + seg(venue), "search/team/" + seg(team),
		"search/team/" + seg(strings.ToUpper(firstWord(team))),
		"lookup/league/" + p.pick(record.League, "idLeague"), "lookup/team/" + p.pick(record.Team, "idTeam"),
		"lookup/player/" + p.pick(record.Player, "idPlayer"), "lookup/event/" + p.pick(record.Event, "idEvent"),
		"lookup/venue/" + p.pick(record.Venue, "idVenue"), "lookup/event_highlights/" + hl("idEvent"),
		"lookup/team_equipment/" + p.pick(record.Equipment, "idTeam"),
		"lookup/player_contracts/" + p.pick(record.Contract, "idPlayer"),
		"lookup/player_results/" + p.pick(record.Result, "idPlayer"),
		"lookup/player_honours/" + p.pick(record.Honour, "idPlayer"),
		"lookup/player_milestones/" + p.pick(record.Milestone, "idPlayer"),
		"lookup/player_teams/" + p.pick(record.FormerTeam, "idPlayer"),
		"lookup/player_stats/" + p.pick(record.PlayerStat, "idPlayer"),
		"lookup/event_lineup/" + p.pick(record.Lineup, "idEvent"), "lookup/event_results/" + p.pick(record.Result, "idEvent"),
		"lookup/event_stats/" + p.pick(record.EventStat, "idEvent"), "lookup/event_timeline/" + p.pick(record.Timeline, "idEvent"),
		"lookup/event_tv/" + p.pick(record.TV, "idEvent"),
		"list/teams/" + p.pick(record.Team, "idLeague"), "list/seasons/" + p.pick(record.Season, "idLeague"),
		"list/players/" + p.pick(record.Player, "idTeam"), "list/seasonposters/" + p.pick(record.SeasonPoster, "idLeague"),
		"all/countries", "all/sports", "all/leagues",
		"schedule/next/league/" + p.pick(record.Event, "idLeague", future),
		"schedule/previous/league/" + p.pick(record.Event, "idLeague", past),
		"schedule/next/team/" + p.pick(record.Event, "idHomeTeam", future),
		"schedule/previous/team/" + p.pick(record.Event, "idAwayTeam", past),
		"schedule/next/venue/" + p.pick(record.Event, "idVenue", future),
		"schedule/previous/venue/" + p.pick(record.Event, "idVenue", past),
		"schedule/full/team/" + p.pick(record.Event, "idHomeTeam"),
		"schedule/league/" + seasonLeague + "/" + seg(season),
		"filter/tv/day/" + tvDay, "filter/tv/country/" + seg(p.pick(record.TV, "strCountry", upcomingTV)),
		"filter/tv/sport/" + seg(p.pick(record.TV, "strSport", upcomingTV)),
		"filter/tv/channel/" + seg(p.pick(record.TV, "strChannel", upcomingTV)),
		"filter/tv/channelid/" + p.pick(record.TV, "idChannel", upcomingTV),
		"livescore/" + seg(p.pick(record.LiveScore, "strSport")), "livescore/" + p.pick(record.LiveScore, "idLeague"), "livescore/all",
	}
	var out []request
	for _, f := range v1 {
		out = append(out, request{path: "/api/v1/json/{key}/" + f})
	}
	// The v2 aliases of section 5 answer v1 files too.
	out = append(out, request{path: "/api/v2/json/{key}/livescore.php"}, request{path: "/api/v2/json/{key}/" + v1[0]})
	for _, s := range v2 {
		out = append(out, request{path: "/api/v2/json/" + s, v2: true})
	}
	return out
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w
}

// hasData says whether a body carries records: not a null, a string, "No data found" or empty.
func hasData(body []byte) bool {
	s := string(body)
	return len(s) > 0 && !strings.HasSuffix(s, ":null}") && !strings.Contains(s, `"Message":`) && strings.Contains(s, ":[{")
}
