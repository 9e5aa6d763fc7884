package v1

import (
	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// endpoint is one row of the v1 table: a file, what it reads, what it answers with.
type endpoint = api.Endpoint[params]

// answerFunc is the answer function of a v1 row.
type answerFunc = func(*api.Request, params) (api.Answer, error)

func c(free, premium int) caps.Cap { return caps.Cap{Free: free, Premium: premium} }

// Orders of the rows, read from the recorded answers (testdata/recorded): most lists come
// by id, ascending; names sort folded, ties by id; an event's results by position, a
// player's latest first; countries by code. A row without Order keeps stored order.
func o(orders ...store.Order) []store.Order { return orders }

func byID(field string) []store.Order { return o(api.ByID(field)) }

func byName(name, id string) []store.Order { return o(api.ByName(name), api.ByID(id)) }

// Results: an event's by intPosition, a player's latest first.
var (
	byPosition    = o(store.Order{Field: "intPosition", Numeric: true}, api.ByID("idResult"))
	latestResults = o(api.Desc("dateEvent"), api.ByID("idResult"))
)

// latest: the latest event first, then by id.
var latest = api.LatestFirst

// uncapped answers every record (bounded by caps.Ceiling).
var uncapped = c(caps.Unlimited, caps.Unlimited)

// endpoints lists every v1 file in the order of docs/CONTRACT.md section 1 (the spec's tables).
var endpoints = []*endpoint{
	{Path: "searchteams.php", Params: "t, or sname", Key: "teams", Kind: record.Team, View: "full", Order: byName("strTeam", "idTeam"), Cap: c(1, 100), Answer: searchTeams},
	{Path: "searchevents.php", Params: "e, s or d, f", Key: "event", Kind: record.Event, View: "full", Order: latest, Cap: c(1, 10), Answer: searchEvents},
	{Path: "searchfilename.php", Params: "e, s", Key: "event", Kind: record.Event, View: "full", Order: latest, Cap: c(1, 10), Answer: searchFilename},
	{Path: "searchplayers.php", Params: "p, or t [and p]", Key: "player", Kind: record.Player, View: "search", Cap: c(1, 10), Answer: searchPlayers},
	{Path: "searchvenues.php", Params: "v", Key: "venues", Kind: record.Venue, View: "full", Order: byName("strVenue", "idVenue"), Cap: c(1, 10), Answer: searchVenues},
	{Path: "lookupleague.php", Params: "id", Key: "leagues", Kind: record.League, View: "full", Cap: c(1, 1), Answer: lookup},
	{Path: "lookuptable.php", Params: "l, s", Key: "table", Kind: record.Standing, View: "full", Order: o(store.Order{Field: "intRank", Numeric: true}, api.ByID("idStanding")), Cap: c(5, 100), Answer: lookupTable},
	{Path: "lookupteam.php", Params: "id", Key: "teams", Kind: record.Team, View: "full", Cap: c(1, 1), Answer: lookup},
	{Path: "lookupequipment.php", Params: "id", Key: "equipment", Kind: record.Equipment, View: "full", Order: byID("idEquipment"), Cap: c(2, 100), Answer: childrenOf("idTeam")},
	{Path: "lookupplayer.php", Params: "id", Key: "players", Kind: record.Player, View: "full", Cap: c(1, 1), Answer: lookup},
	{Path: "lookuphonours.php", Params: "id", Key: "honours", Kind: record.Honour, View: "full", Order: byID("id"), Cap: c(5, 500), Answer: childrenOf("idPlayer")},
	{Path: "lookupformerteams.php", Params: "id", Key: "formerteams", Kind: record.FormerTeam, View: "full", Order: byID("id"), Cap: c(5, 100), Answer: childrenOf("idPlayer")},
	{Path: "lookupmilestones.php", Params: "id", Key: "milestones", Kind: record.Milestone, View: "full", Order: byID("id"), Cap: c(5, 100), Answer: childrenOf("idPlayer")},
	{Path: "lookupcontracts.php", Params: "id", Key: "contracts", Kind: record.Contract, View: "full", Order: byID("id"), Cap: c(1, 100), Answer: childrenOf("idPlayer")},
	{Path: "lookuptv.php", Params: "id", Key: "tvevent", Kind: record.TV, View: "full", Order: byID("id"), Cap: c(2, 100), Answer: childrenOf("idEvent")},
	{Path: "playerresults.php", Params: "id", Key: "results", Kind: record.Result, View: "full", Order: latestResults, Cap: c(5, 500), Answer: childrenOf("idPlayer")},
	{Path: "lookupplayerstats.php", Params: "id", Key: "playerstats", Kind: record.PlayerStat, View: "full", Order: byID("id"), Cap: c(10, 10000), Answer: childrenOf("idPlayer")},
	{Path: "lookupevent.php", Params: "id", Key: "events", Kind: record.Event, View: "full", Cap: c(1, 1), Answer: lookup},
	{Path: "eventresults.php", Params: "id", Key: "results", Kind: record.Result, View: "full", Order: byPosition, Cap: c(5, 100), Answer: childrenOf("idEvent")},
	{Path: "lookuplineup.php", Params: "id", Key: "lineup", Kind: record.Lineup, View: "v1", Order: byID("idPlayer"), Cap: c(5, 100), Answer: childrenOf("idEvent")},
	{Path: "lookuptimeline.php", Params: "id", Key: "timeline", Kind: record.Timeline, View: "full", Order: byID("idTimeline"), Cap: c(5, 100), Answer: childrenOf("idEvent")},
	{Path: "lookupeventstats.php", Params: "id", Key: "eventstats", Kind: record.EventStat, View: "full", Order: byID("idStatistic"), Cap: c(5, 100), Answer: childrenOf("idEvent")},
	{Path: "lookupvenue.php", Params: "id", Key: "venues", Kind: record.Venue, View: "full", Cap: c(1, 1), Answer: lookup},
	{Path: "all_sports.php", Params: "", Key: "sports", Kind: record.Sport, View: "full", Order: byID("idSport"), Cap: c(2, 50), Answer: all},
	{Path: "all_countries.php", Params: "", Key: "countries", Kind: record.Country, View: "v1", Order: o(api.Asc("code")), Cap: c(50, 500), Answer: all},
	{Path: "all_leagues.php", Params: "", Key: "leagues", Kind: record.League, View: "list", Order: byID("idLeague"), Cap: c(10, 3000), Answer: allLeagues},
	{Path: "search_all_leagues.php", Params: "c, s", Key: "countries", Kind: record.League, View: "full", Order: byName("strLeague", "idLeague"), Cap: c(10, 100), Answer: leaguesOfCountry},
	{Path: "search_all_seasons.php", Params: "id, badge, poster, description", Key: "seasons", Kind: record.Season, View: "name", Order: o(api.Asc("strSeason")), Cap: c(5, 500), Answer: seasons},
	{Path: "search_all_teams.php", Params: "l, or s and c", Key: "teams", Kind: record.Team, View: "full", Order: byName("strTeam", "idTeam"), Cap: c(10, 3000), Answer: teamsOf},
	// lookup_all_teams.php, the t form of searchplayers.php and the sname form of
	// searchteams.php are older calls real clients still send (docs/CONTRACT.md section 5).
	{Path: "lookup_all_teams.php", Params: "id", Key: "teams", Kind: record.Team, View: "full", Order: byID("idTeam"), CapOf: "v1/search_all_teams.php", Answer: childrenOf("idLeague")},
	{Path: "lookup_all_players.php", Params: "id", Key: "player", Kind: record.Player, View: "full", Order: byName("strPlayer", "idPlayer"), Cap: c(10, 3000), Answer: squad},
	{Path: "eventsnext.php", Clock: true, Params: "id", Key: "events", Kind: record.Event, View: "full", Order: api.SoonestFirst, Cap: c(1, 10), Answer: teamEvents(true)},
	{Path: "eventslast.php", Clock: true, Params: "id", Key: "results", Kind: record.Event, View: "full", Order: api.LatestFirst, Cap: c(1, 10), Answer: teamEvents(false)},
	{Path: "eventsnextleague.php", Clock: true, Params: "id", Key: "events", Kind: record.Event, View: "full", Order: api.SoonestFirst, Cap: c(1, 20), Answer: leagueEvents(true)},
	{Path: "eventspastleague.php", Clock: true, Params: "id", Key: "events", Kind: record.Event, View: "full", Order: api.LatestFirst, Cap: c(1, 20), Answer: leagueEvents(false)},
	{Path: "eventsday.php", Params: "d, s, l", Key: "events", Kind: record.Event, View: "full", Order: byID("idEvent"), Cap: c(3, 1500), Answer: eventsDay},
	{Path: "eventsseason.php", Params: "id, s", Key: "events", Kind: record.Event, View: "summary", Order: api.SoonestFirst, Cap: c(15, 3000), Answer: eventsSeason},
	{Path: "eventsround.php", Params: "id, r, s", Key: "events", Kind: record.Event, View: "full", Order: byID("idEvent"), Cap: uncapped, Answer: eventsRound},
	{Path: "eventstv.php", Params: "d [s [a]], or c, or id", Key: "tvevents", Kind: record.TV, View: "full", Order: byID("id"), Cap: c(1, 1500), Answer: eventsTV},
	{Path: "eventshighlights.php", Params: "d, l, s", Key: "tvhighlights", Kind: record.Highlight, View: "v1", Order: byID("idEvent"), Cap: c(2, 50), Answer: highlights},
	{Path: "livescore.php", Clock: true, Params: "s (l ignored)", Key: "livescore", Kind: record.LiveScore, View: "full", Order: api.LiveOrder, Cap: uncapped, Answer: livescore(false)},
}

// legacyLivescore is the older premium live score feed, /api/v2/json/{key}/livescore.php?s=&l=
// (docs/CONTRACT.md section 5): premium keys only, the record key "events", l selects a league.
// It shares the cap of livescore.php.
var legacyLivescore = &endpoint{Path: "livescore.php", Clock: true, Params: "s, l", Key: "events", Kind: record.LiveScore, View: "full", Order: api.LiveOrder,
	PremiumOnly: true, Route: "v2/livescore.php", CapOf: "v1/livescore.php", Answer: livescore(true)}
