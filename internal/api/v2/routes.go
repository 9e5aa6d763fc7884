package v2

import (
	"sportsdb/internal/api/caps"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// route is one v2 endpoint. The first path segment is the group, which is also the key of
// the response object. The cap is registered as "v2/" + the path's literal segments
// (v2/search/team, v2/schedule/next/league) unless capName says otherwise.
type route struct {
	path    string
	kind    *record.Kind // the kind the view belongs to
	view    string
	cap     int // records for premium and business keys; caps.Unlimited is "all"
	capName string
	find    finder
}

var (
	teamNames   = []nameMatch{{"strTeam", record.Name}, {"strTeamAlternate", record.List}}
	leagueNames = []nameMatch{{"strLeague", record.Name}, {"strLeagueAlternate", record.List}}
	venueNames  = []nameMatch{{"strVenue", record.Name}, {"strVenueAlternate", record.List}}
	eventNames  = []nameMatch{{"strEvent", record.Name}, {"strFilename", record.Name}}
	playerNames = []nameMatch{{"strPlayer", record.Name}}
)

// all is "every record of that parent"; the caps table bounds it by caps.Ceiling.
const all = caps.Unlimited

// routes lists every v2 endpoint in the order of DECISIONS.md section 2. Views marked
// (ours) in README.md are choices where no recorded response shows the public one.
var routes = []route{
	{path: "search/league/{name}", kind: record.League, view: "full", cap: 10, find: search(record.League, true, leagueNames...)},
	{path: "search/player/{name}", kind: record.Player, view: "search2", cap: 10, find: search(record.Player, true, playerNames...)},
	{path: "search/event/{name}", kind: record.Event, view: "full", cap: 10, find: search(record.Event, false, eventNames...)},
	{path: "search/venue/{name}", kind: record.Venue, view: "full", cap: 10, find: search(record.Venue, true, venueNames...)},
	{path: "search/team/{name}", kind: record.Team, view: "search2", cap: 25, find: search(record.Team, true, teamNames...)},

	{path: "lookup/league/{id}", kind: record.League, view: "full", cap: 1, find: byID(record.League)},
	{path: "lookup/team/{id}", kind: record.Team, view: "full", cap: 1, find: byID(record.Team)},
	{path: "lookup/player/{id}", kind: record.Player, view: "full", cap: 1, find: byID(record.Player)},
	{path: "lookup/event/{id}", kind: record.Event, view: "full", cap: 1, find: byID(record.Event)},
	{path: "lookup/venue/{id}", kind: record.Venue, view: "full", cap: 1, find: byID(record.Venue)},
	{path: "lookup/event_highlights/{id}", kind: record.Highlight, view: "v1", cap: 1, find: highlight},
	{path: "lookup/team_equipment/{id}", kind: record.Equipment, view: "full", cap: all, find: children(record.Equipment, "idTeam")},
	{path: "lookup/player_contracts/{id}", kind: record.Contract, view: "full", cap: all, find: children(record.Contract, "idPlayer")},
	{path: "lookup/player_results/{id}", kind: record.Result, view: "full", cap: all, find: children(record.Result, "idPlayer")},
	{path: "lookup/player_honours/{id}", kind: record.Honour, view: "full", cap: all, find: children(record.Honour, "idPlayer")},
	{path: "lookup/player_milestones/{id}", kind: record.Milestone, view: "full", cap: all, find: children(record.Milestone, "idPlayer")},
	{path: "lookup/player_teams/{id}", kind: record.FormerTeam, view: "full", cap: all, find: children(record.FormerTeam, "idPlayer")},
	{path: "lookup/player_stats/{id}", kind: record.PlayerStat, view: "full", cap: all, find: children(record.PlayerStat, "idPlayer")},
	{path: "lookup/event_lineup/{id}", kind: record.Lineup, view: "v2", cap: all, find: children(record.Lineup, "idEvent")},
	{path: "lookup/event_results/{id}", kind: record.Result, view: "full", cap: all, find: children(record.Result, "idEvent")},
	{path: "lookup/event_stats/{id}", kind: record.EventStat, view: "full", cap: all, find: children(record.EventStat, "idEvent")},
	{path: "lookup/event_timeline/{id}", kind: record.Timeline, view: "full", cap: all, find: children(record.Timeline, "idEvent")},
	{path: "lookup/event_tv/{id}", kind: record.TV, view: "full", cap: all, find: children(record.TV, "idEvent")},

	{path: "list/teams/{id}", kind: record.Team, view: "list2", cap: 100, find: children(record.Team, "idLeague")},
	{path: "list/seasons/{id}", kind: record.Season, view: "v2", cap: 100, find: children(record.Season, "idLeague", store.Order{Field: "strSeason"})},
	{path: "list/players/{id}", kind: record.Player, view: "full", cap: 100, find: children(record.Player, "idTeam")},
	{path: "list/seasonposters/{id}", kind: record.SeasonPoster, view: "full", cap: all, find: children(record.SeasonPoster, "idLeague")},

	{path: "all/countries", kind: record.Country, view: "full", cap: 500, find: every(record.Country)},
	{path: "all/sports", kind: record.Sport, view: "full", cap: 500, find: every(record.Sport)},
	{path: "all/leagues", kind: record.League, view: "listPremium", cap: 3000, find: every(record.League)},

	{path: "schedule/next/league/{id}", kind: record.Event, view: "summary", cap: 20, find: next(inLeague)},
	{path: "schedule/previous/league/{id}", kind: record.Event, view: "summary", cap: 20, find: previous(inLeague)},
	{path: "schedule/next/team/{id}", kind: record.Event, view: "summary", cap: 10, find: next(ofTeam)},
	{path: "schedule/previous/team/{id}", kind: record.Event, view: "summary", cap: 10, find: previous(ofTeam)},
	{path: "schedule/next/venue/{id}", kind: record.Event, view: "summary", cap: 10, find: next(atVenue)},
	{path: "schedule/previous/venue/{id}", kind: record.Event, view: "summary", cap: 10, find: previous(atVenue)},
	{path: "schedule/full/team/{id}", kind: record.Event, view: "summary", cap: 250, find: fullSchedule},
	{path: "schedule/league/{id}/{season}", kind: record.Event, view: "summary", cap: 3000, find: leagueSeason},

	{path: "filter/tv/day/{date}", kind: record.TV, view: "full", cap: 1500, find: tvOn},
	{path: "filter/tv/country/{name}", kind: record.TV, view: "full", cap: 100, find: tvFrom(tvCountry)},
	{path: "filter/tv/sport/{name}", kind: record.TV, view: "full", cap: 500, find: tvFrom(tvSport)},
	{path: "filter/tv/channel/{name}", kind: record.TV, view: "full", cap: 100, find: tvFrom(tvChannel)},
	{path: "filter/tv/channelid/{id}", kind: record.TV, view: "full", cap: 100, find: tvFrom(tvChannelID)},

	{path: "livescore/{sportOrLeague}", kind: record.LiveScore, view: "full", cap: 100, capName: "v2/livescore", find: livescore},
	{path: "livescore/all", kind: record.LiveScore, view: "full", cap: 500, find: every(record.LiveScore)},
}
