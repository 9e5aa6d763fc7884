package v2_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
)

var errFound = errors.New("found")

// pick returns field of the first stored record of k that ok accepts.
func pick(t *testing.T, env *apitest.Env, k *record.Kind, field string, ok func(record.Record) bool) string {
	t.Helper()
	var v string
	err := env.Store.Scan(context.Background(), k, func(r record.Record) error {
		if !r.Get(field).Empty() && (ok == nil || ok(r)) {
			v = r.Str(field)
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		t.Fatalf("demo data: no %s with %s (%v)", k.Name, field, err)
	}
	return v
}

// On the demo dataset every endpoint has something to answer, through the real server.
func TestDemoDataEveryEndpoint(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	now := env.Clock.Now().UTC()
	nowTS, today := now.Format("2006-01-02T15:04:05"), now.Format(time.DateOnly)
	future := func(r record.Record) bool { return r.Str("strTimestamp") > nowTS }
	past := func(r record.Record) bool { ts := r.Str("strTimestamp"); return ts != "" && ts <= nowTS }
	upcomingTV := func(r record.Record) bool { return r.Str("dateEvent") >= today }
	p := func(k *record.Kind, f string, ok ...func(record.Record) bool) string {
		var fn func(record.Record) bool
		if len(ok) > 0 {
			fn = ok[0]
		}
		return pick(t, env, k, f, fn)
	}
	season := p(record.Event, "strSeason")
	paths := []string{
		"search/league/" + p(record.League, "strLeague"), "search/player/" + p(record.Player, "strPlayer"),
		"search/event/" + p(record.Event, "strFilename"), "search/venue/" + p(record.Venue, "strVenue"),
		"search/team/" + p(record.Team, "strTeam"),
		"lookup/league/" + p(record.League, "idLeague"), "lookup/team/" + p(record.Team, "idTeam"),
		"lookup/player/" + p(record.Player, "idPlayer"), "lookup/event/" + p(record.Event, "idEvent"),
		"lookup/venue/" + p(record.Venue, "idVenue"), "lookup/event_highlights/" + p(record.Highlight, "idEvent"),
		"lookup/team_equipment/" + p(record.Equipment, "idTeam"),
		"lookup/player_contracts/" + p(record.Contract, "idPlayer"),
		"lookup/player_results/" + p(record.Result, "idPlayer"),
		"lookup/player_honours/" + p(record.Honour, "idPlayer"),
		"lookup/player_milestones/" + p(record.Milestone, "idPlayer"),
		"lookup/player_teams/" + p(record.FormerTeam, "idPlayer"),
		"lookup/player_stats/" + p(record.PlayerStat, "idPlayer"),
		"lookup/event_lineup/" + p(record.Lineup, "idEvent"), "lookup/event_results/" + p(record.Result, "idEvent"),
		"lookup/event_stats/" + p(record.EventStat, "idEvent"), "lookup/event_timeline/" + p(record.Timeline, "idEvent"),
		"lookup/event_tv/" + p(record.TV, "idEvent"),
		"list/teams/" + p(record.Team, "idLeague"), "list/seasons/" + p(record.Season, "idLeague"),
		"list/players/" + p(record.Player, "idTeam"), "list/seasonposters/" + p(record.SeasonPoster, "idLeague"),
		"all/countries", "all/sports", "all/leagues",
		"schedule/next/league/" + p(record.Event, "idLeague", future),
		"schedule/previous/league/" + p(record.Event, "idLeague", past),
		"schedule/next/team/" + p(record.Event, "idHomeTeam", future),
		"schedule/previous/team/" + p(record.Event, "idAwayTeam", past),
		"schedule/next/venue/" + p(record.Event, "idVenue", future),
		"schedule/previous/venue/" + p(record.Event, "idVenue", past),
		"schedule/full/team/" + p(record.Event, "idHomeTeam"),
		"schedule/league/" + p(record.Event, "idLeague", func(r record.Record) bool { return r.Str("strSeason") == season }) + "/" + season,
		"filter/tv/day/" + p(record.TV, "dateEvent"), "filter/tv/country/" + p(record.TV, "strCountry", upcomingTV),
		"filter/tv/sport/" + p(record.TV, "strSport", upcomingTV), "filter/tv/channel/" + p(record.TV, "strChannel", upcomingTV),
		"filter/tv/channelid/" + p(record.TV, "idChannel", upcomingTV),
		"livescore/" + p(record.LiveScore, "strSport"), "livescore/" + p(record.LiveScore, "idLeague"), "livescore/all",
	}
	for _, path := range paths {
		group, _, _ := strings.Cut(path, "/")
		escaped := strings.ReplaceAll(path, " ", "%20")
		if recs := records(t, answerOf(env.V2(t, escaped)), group); len(recs) == 0 {
			t.Errorf("%s: No data found on the demo dataset", escaped)
		}
	}
}

func answerOf(r *apitest.Response) answer {
	return answer{status: r.Status, header: r.Header, body: r.Body}
}
