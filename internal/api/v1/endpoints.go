package v1

import (
	"sportsdb/internal/api/caps"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// endpoint is one row of the v1 table: a file, what it reads, what it answers with.
type endpoint struct {
	file   string // the .php file after the key segment
	params string // the parameters it reads, as DECISIONS.md lists them
	key    string // the record key of the answer
	kind   *record.Kind
	view   string // the view records are written with
	cap    caps.Cap
	// capAs names another file whose cap applies (the older live score feed).
	capAs string
	build func(*request) (answer, error)
}

func (ep *endpoint) capFile() string {
	if ep.capAs != "" {
		return ep.capAs
	}
	return ep.file
}

func c(free, premium int) caps.Cap { return caps.Cap{Free: free, Premium: premium} }

// uncapped answers every record (bounded by caps.Ceiling).
var uncapped = c(caps.Unlimited, caps.Unlimited)

// endpoints lists every v1 file in the order of DECISIONS.md section 1 (the spec's tables).
var endpoints = []*endpoint{
	{"searchteams.php", "t", "teams", record.Team, "full", c(1, 100), "", searchTeams},
	{"searchevents.php", "e, s or d, f", "event", record.Event, "full", c(1, 10), "", searchEvents},
	{"searchfilename.php", "e, s", "event", record.Event, "full", c(1, 10), "", searchFilename},
	{"searchplayers.php", "p", "player", record.Player, "search", c(1, 10), "", searchPlayers},
	{"searchvenues.php", "v", "venues", record.Venue, "full", c(1, 10), "", searchVenues},
	{"lookupleague.php", "id", "leagues", record.League, "full", c(1, 1), "", lookup},
	{"lookuptable.php", "l, s", "table", record.Standing, "full", c(5, 100), "", lookupTable},
	{"lookupteam.php", "id", "teams", record.Team, "full", c(1, 1), "", lookup},
	{"lookupequipment.php", "id", "equipment", record.Equipment, "full", c(2, 100), "", childrenOf("idTeam")},
	{"lookupplayer.php", "id", "players", record.Player, "full", c(1, 1), "", lookup},
	{"lookuphonours.php", "id", "honours", record.Honour, "full", c(5, 500), "", childrenOf("idPlayer")},
	{"lookupformerteams.php", "id", "formerteams", record.FormerTeam, "full", c(5, 100), "", childrenOf("idPlayer")},
	{"lookupmilestones.php", "id", "milestones", record.Milestone, "full", c(5, 100), "", childrenOf("idPlayer")},
	{"lookupcontracts.php", "id", "contracts", record.Contract, "full", c(1, 100), "", childrenOf("idPlayer")},
	{"lookuptv.php", "id", "tvevent", record.TV, "full", c(2, 100), "", childrenOf("idEvent")},
	{"playerresults.php", "id", "results", record.Result, "full", c(5, 500), "", childrenOf("idPlayer")},
	{"lookupplayerstats.php", "id", "playerstats", record.PlayerStat, "full", c(10, 10000), "", childrenOf("idPlayer")},
	{"lookupevent.php", "id", "events", record.Event, "full", c(1, 1), "", lookup},
	{"eventresults.php", "id", "results", record.Result, "full", c(5, 100), "", childrenOf("idEvent")},
	{"lookuplineup.php", "id", "lineup", record.Lineup, "v1", c(5, 100), "", childrenOf("idEvent")},
	{"lookuptimeline.php", "id", "timeline", record.Timeline, "full", c(5, 100), "", childrenOf("idEvent")},
	{"lookupeventstats.php", "id", "eventstats", record.EventStat, "full", c(5, 100), "", childrenOf("idEvent")},
	{"lookupvenue.php", "id", "venues", record.Venue, "full", c(1, 1), "", lookup},
	{"all_sports.php", "", "sports", record.Sport, "full", c(2, 50), "", all},
	{"all_countries.php", "", "countries", record.Country, "v1", c(50, 500), "", all},
	{"all_leagues.php", "", "leagues", record.League, "list", c(10, 3000), "", allLeagues},
	{"search_all_leagues.php", "c, s", "countries", record.League, "full", c(10, 100), "", leaguesOfCountry},
	{"search_all_seasons.php", "id, badge, poster, description", "seasons", record.Season, "name", c(5, 500), "", seasons},
	{"search_all_teams.php", "l, or s and c", "teams", record.Team, "full", c(10, 3000), "", teamsOf},
	{"lookup_all_players.php", "id", "player", record.Player, "full", c(10, 3000), "", squad},
	{"eventsnext.php", "id", "events", record.Event, "full", c(1, 10), "", teamEvents(true)},
	{"eventslast.php", "id", "results", record.Event, "full", c(1, 10), "", teamEvents(false)},
	{"eventsnextleague.php", "id", "events", record.Event, "full", c(1, 20), "", leagueEvents(true)},
	{"eventspastleague.php", "id", "events", record.Event, "full", c(1, 20), "", leagueEvents(false)},
	{"eventsday.php", "d, s, l", "events", record.Event, "full", c(3, 1500), "", eventsDay},
	{"eventsseason.php", "id, s", "events", record.Event, "summary", c(15, 3000), "", eventsSeason},
	{"eventsround.php", "id, r, s", "events", record.Event, "full", uncapped, "", eventsRound},
	{"eventstv.php", "d [s [a]], or c, or id", "tvevents", record.TV, "full", c(1, 1500), "", eventsTV},
	{"eventshighlights.php", "d, l, s", "tvhighlights", record.Highlight, "v1", c(2, 50), "", highlights},
	{"livescore.php", "s (l ignored)", "livescore", record.LiveScore, "full", uncapped, "", livescore(false)},
}

// legacyLivescore is /api/v2/json/{key}/livescore.php, served by ServeV2Livescore. It shares
// the cap of livescore.php and is not a v1 file.
var legacyLivescore = &endpoint{"livescore.php", "s, l", "events", record.LiveScore, "full", uncapped, "livescore.php", livescore(true)}

// Query building blocks. Name conditions are folded by the store.

func eq(field, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }

func eqName(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Eq, Value: v}
}

func containsName(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Contains, Value: v}
}

func listHas(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.List, Op: store.ListHas, Value: v}
}

func listContains(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.List, Op: store.ListContains, Value: v}
}

func compare(field string, op store.Op, v string) store.Cond {
	return store.Cond{Field: field, Op: op, Value: v}
}

func or(conds ...store.Cond) store.Cond { return store.Cond{Or: conds} }

func where(conds ...store.Cond) store.Query { return store.Query{Where: conds} }

// sorted returns q with its sort keys.
func sorted(q store.Query, orders ...store.Order) store.Query {
	q.OrderBy = orders
	return q
}

func asc(field string) store.Order  { return store.Order{Field: field} }
func desc(field string) store.Order { return store.Order{Field: field, Desc: true} }

// byName sorts on a folded name, so accents and case do not change the order.
func byName(field string) store.Order { return store.Order{Field: field, Norm: record.Name} }
