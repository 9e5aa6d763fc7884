package v2

import (
	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/match"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// endpoint is one v2 route. The first path segment is the group, which is also the key of
// the response object. The route name, for caps, logs and metrics, is "v2/" + the path's
// literal segments (v2/search/team, v2/schedule/next/league) unless Route says otherwise.
type endpoint = api.Endpoint[args]

// answerFunc is the answer function of a v2 row.
type answerFunc = func(*api.Request, args) (api.Answer, error)

// c is a v2 cap: the same records for premium and business keys (free keys get none).
func c(n int) caps.Cap { return caps.Cap{Free: n, Premium: n} }

var (
	// Teams are found by strTeam alone: the recorded search/team/Arsenal answer holds the
	// twelve teams whose name contains "Arsenal" and none known only by an alternate name.
	teamNames   = []nameMatch{{"strTeam", record.Name}}
	leagueNames = []nameMatch{{"strLeague", record.Name}, {"strLeagueAlternate", record.List}}
	venueNames  = []nameMatch{{"strVenue", record.Name}, {"strVenueAlternate", record.List}}
	// Events are found by strFilename alone, as the public documentation's example
	// (search/event/fifa_world_cup_2022-12-18_argentina_vs_france) does; the recorded
	// search/event/Arsenal%20vs%20Chelsea, an event name and not a file name, found nothing.
	eventNames  = []nameMatch{{"strFilename", record.Name}}
	playerNames = []nameMatch{{"strPlayer", record.Name}}
)

// Orders of the rows, as the recorded answers show them (testdata/recorded): lists by id,
// ascending, unless a recording shows another order (lineups by idPlayer, season posters
// latest season first, countries by code, a live feed by status and progress).
func o(orders ...store.Order) []store.Order { return orders }

func idOrder(field string) []store.Order { return o(api.ByID(field)) }

func byName(name, id string) []store.Order { return o(api.ByName(name), api.ByID(id)) }

// latestFirst is a full schedule's order: the latest events first, which the cap keeps.
var latestFirst = o(api.Desc("strTimestamp"), store.Order{Field: "idEvent", Numeric: true, Desc: true})

// all is "every record of that parent"; the caps table bounds it by caps.Ceiling.
const all = caps.Unlimited

// routes lists every v2 endpoint in the order of docs/CONTRACT.md section 2. Views marked
// (ours) in README.md are choices where no recorded response shows the public one.
var routes = []endpoint{
	{Path: "search/league/{name}", Kind: record.League, View: "search2", Order: idOrder("idLeague"), Cap: c(10), Answer: search(true, leagueNames...)},
	{Path: "search/player/{name}", Kind: record.Player, View: "search2", Order: idOrder("idPlayer"), Cap: c(10), Answer: search(true, playerNames...)},
	{Path: "search/event/{name}", Kind: record.Event, View: "full", Order: idOrder("idEvent"), Cap: c(10), Answer: search(false, eventNames...)},
	{Path: "search/venue/{name}", Kind: record.Venue, View: "search2", Order: idOrder("idVenue"), Cap: c(10), Answer: search(true, venueNames...)},
	{Path: "search/team/{name}", Kind: record.Team, View: "search2", Order: idOrder("idTeam"), Cap: c(25), Answer: search(true, teamNames...)},

	{Path: "lookup/league/{id}", Kind: record.League, View: "full", Cap: c(1), Answer: byID},
	{Path: "lookup/team/{id}", Kind: record.Team, View: "full", Cap: c(1), Answer: byID},
	{Path: "lookup/player/{id}", Kind: record.Player, View: "full", Cap: c(1), Answer: byID},
	{Path: "lookup/event/{id}", Kind: record.Event, View: "full", Cap: c(1), Answer: byID},
	{Path: "lookup/venue/{id}", Kind: record.Venue, View: "full", Cap: c(1), Answer: byID},
	{Path: "lookup/event_highlights/{id}", Kind: record.Event, View: "full", Cap: c(1), Answer: highlight},
	{Path: "lookup/team_equipment/{id}", Kind: record.Equipment, View: "full", Order: idOrder("idEquipment"), Cap: c(all), Answer: children("idTeam")},
	{Path: "lookup/player_contracts/{id}", Kind: record.Contract, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/player_results/{id}", Kind: record.Result, View: "full", Order: o(api.Desc("dateEvent"), api.ByID("idResult")), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/player_honours/{id}", Kind: record.Honour, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/player_milestones/{id}", Kind: record.Milestone, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/player_teams/{id}", Kind: record.FormerTeam, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/player_stats/{id}", Kind: record.PlayerStat, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idPlayer")},
	{Path: "lookup/event_lineup/{id}", Kind: record.Lineup, View: "v2", Order: idOrder("idPlayer"), Cap: c(all), Answer: children("idEvent")},
	{Path: "lookup/event_results/{id}", Kind: record.Result, View: "full", Order: idOrder("idResult"), Cap: c(all), Answer: children("idEvent")},
	{Path: "lookup/event_stats/{id}", Kind: record.EventStat, View: "full", Order: idOrder("idStatistic"), Cap: c(all), Answer: children("idEvent")},
	{Path: "lookup/event_timeline/{id}", Kind: record.Timeline, View: "full", Order: idOrder("idTimeline"), Cap: c(all), Answer: children("idEvent")},
	{Path: "lookup/event_tv/{id}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(all), Answer: children("idEvent")},

	{Path: "list/teams/{id}", Kind: record.Team, View: "list2", Order: byName("strTeam", "idTeam"), Cap: c(100), Answer: children("idLeague")},
	{Path: "list/seasons/{id}", Kind: record.Season, View: "v2", Order: o(api.Asc("strSeason")), Cap: c(100), Answer: children("idLeague")},
	{Path: "list/players/{id}", Kind: record.Player, View: "list2", Order: idOrder("idPlayer"), Cap: c(100), Answer: children("idTeam")},
	{Path: "list/seasonposters/{id}", Kind: record.SeasonPoster, View: "full", Order: o(api.Desc("strSeason"), api.ByID("idArt")), Cap: c(all), Answer: children("idLeague")},

	{Path: "all/countries", Kind: record.Country, View: "full", Order: o(api.Asc("code")), Cap: c(500), Answer: every},
	{Path: "all/sports", Kind: record.Sport, View: "full", Order: idOrder("idSport"), Cap: c(500), Answer: every},
	{Path: "all/leagues", Kind: record.League, View: "listPremium", Order: idOrder("idLeague"), Cap: c(3000), Answer: every},

	{Path: "schedule/next/league/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.SoonestFirst, Cap: c(20), Answer: next(inLeague)},
	{Path: "schedule/previous/league/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.LatestFirst, Cap: c(20), Answer: previous(inLeague)},
	{Path: "schedule/next/team/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.SoonestFirst, Cap: c(10), Answer: next(ofTeam)},
	{Path: "schedule/previous/team/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.LatestFirst, Cap: c(10), Answer: previous(ofTeam)},
	{Path: "schedule/next/venue/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.SoonestFirst, Cap: c(10), Answer: next(atVenue)},
	{Path: "schedule/previous/venue/{id}", Clock: true, Kind: record.Event, View: "schedule2", Order: api.LatestFirst, Cap: c(10), Answer: previous(atVenue)},
	{Path: "schedule/full/team/{id}", Kind: record.Event, View: "fullSchedule2", Order: latestFirst, Cap: c(250), Answer: fullSchedule},
	{Path: "schedule/league/{id}/{season}", Kind: record.Event, View: "schedule2", Order: api.SoonestFirst, Cap: c(3000), Answer: leagueSeason},

	{Path: "filter/tv/day/{date}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(1500), Answer: tvOn},
	{Path: "filter/tv/country/{name}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(100), Answer: tvFrom(tvCountry)},
	{Path: "filter/tv/sport/{name}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(500), Answer: tvFrom(tvSport)},
	{Path: "filter/tv/channel/{name}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(100), Answer: tvFrom(tvChannel)},
	{Path: "filter/tv/channelid/{id}", Kind: record.TV, View: "full", Order: idOrder("id"), Cap: c(100), Answer: tvFrom(tvChannelID)},

	{Path: "livescore/{sportOrLeague}", Clock: true, Kind: record.LiveScore, View: "full", Order: api.LiveOrder, Cap: c(100), Route: "v2/livescore", Answer: livescore},
	{Path: "livescore/all", Clock: true, Kind: record.LiveScore, View: "full", Order: api.LiveByID, Cap: c(500), Answer: every},

	// Ours (docs/CONTRACT.md section 17): the events a media file's name records, best first.
	{Path: "match/event", Params: "q", Local: true, Kind: record.Event, View: "full", Cap: c(match.Max), Answer: matchEvent},
}
