package gen

import "fmt"

// scale sets the size of a dataset. Every scale holds the fixed leagues below; larger ones add
// generated leagues around them.
type scale struct {
	name            string
	countries       int // countries listed; beyond the real ones, names are made up
	extraSports     int // sports beyond the detailed ones
	extraLeagues    int
	minTeams        int // teams per generated team-sport league
	maxTeams        int
	doubleUpTo      int // generated leagues with at most this many teams play home and away
	eventSeasons    int // seasons that have events: the current one and the ones before it
	listedSeasons   int // season records per league
	detailedLeagues int // generated leagues with full squads, lineups, timelines, statistics, TV
	thinSquad       int // players per team elsewhere
	detailDays      int // played events this recent get lineups, timelines and statistics
	statSeasons     int // seasons of player statistics, counting back from the last finished one
	liveLeagues     int // generated leagues that have games in progress
	chunk           int // records per transaction; 0 writes everything in one
}

var scales = map[string]scale{
	"demo": {name: "demo", countries: 22, eventSeasons: 2, listedSeasons: 5, detailDays: 14, statSeasons: 1},
	"small": {name: "small", countries: len(countries), extraSports: 6, extraLeagues: 70, minTeams: 10, maxTeams: 18,
		doubleUpTo: 18, eventSeasons: 2, listedSeasons: 8, detailedLeagues: 70, thinSquad: 10, detailDays: 35, statSeasons: 2, liveLeagues: 70},
	"full": {name: "full", countries: 256, extraSports: len(extraSportNames), extraLeagues: 1538, minTeams: 18, maxTeams: 54,
		doubleUpTo: 26, eventSeasons: 2, listedSeasons: 12, detailedLeagues: 150, thinSquad: 10, detailDays: 60, statSeasons: 2, liveLeagues: 60, chunk: 250000},
}

func lookupScale(name string) (scale, error) {
	s, ok := scales[name]
	if !ok {
		return scale{}, fmt.Errorf("gen: unknown scale %q (want demo, small or full)", name)
	}
	return s, nil
}

// fixedLeague is a league every dataset holds, with names and ids that documentation and
// client tests can rely on.
type fixedLeague struct {
	id        int
	name, alt string
	sport     string
	country   string
	teams     int
	split     bool // seasons named "2026-2027" rather than "2026"
	double    bool // home and away
	interval  int  // days between rounds
	division  int
	known     []fixedTeam
}

type fixedTeam struct {
	id                   int
	name, short, alt, kw string
	venueID              int
	venue, city          string
	formed               int
	players              []fixedPlayer
}

type fixedPlayer struct {
	slot        int
	id          int
	first, last string
	nationality string
}

var fixedLeagues = []fixedLeague{
	{id: 4328, name: "English Premier League", alt: "Premier League, EPL, England", sport: "Soccer", country: "England", teams: 20, split: true, double: true, interval: 7,
		known: []fixedTeam{
			{id: 133604, name: "Arsenal", short: "ARS", alt: "Arsenal Football Club, AFC, Arsenal FC", kw: "Gunners, Gooners", venueID: 15528, venue: "Emirates Stadium", city: "London", formed: 1892,
				players: []fixedPlayer{{slot: 8, id: 34161934, first: "Bukayo", last: "Saka", nationality: "England"}}},
			{id: 133602, name: "Liverpool", short: "LIV", alt: "Liverpool FC, LFC", kw: "Reds", venueID: 15407, venue: "Anfield", city: "Liverpool", formed: 1892},
		}},
	{id: 4335, name: "Spanish La Liga", alt: "LaLiga, La Liga EA Sports", sport: "Soccer", country: "Spain", teams: 10, split: true, double: true, interval: 7,
		known: []fixedTeam{{id: 134700, name: "Atlético Madrid", short: "ATM", alt: "Atletico Madrid, Atleti", kw: "Colchoneros", venueID: 16001, venue: "Estadio Metropolitano", city: "Madrid", formed: 1903}}},
	{id: 4331, name: "German Bundesliga", alt: "Bundesliga, 1. Bundesliga", sport: "Soccer", country: "Germany", teams: 10, split: true, double: true, interval: 7,
		known: []fixedTeam{{id: 133664, name: "Bayern München", short: "FCB", alt: "FC Bayern, Bayern Munich", kw: "Die Roten", venueID: 16002, venue: "Allianz Arena", city: "München", formed: 1900}}},
	{id: 4387, name: "NBA", alt: "National Basketball Association", sport: "Basketball", country: "United States", teams: 10, split: true, double: true, interval: 7},
	{id: 4408, name: "Lithuanian LKL", alt: "LKL, Betsafe-LKL", sport: "Basketball", country: "Lithuania", teams: 10, split: true, double: true, interval: 7,
		known: []fixedTeam{{id: 134900, name: "BC Šiauliai", short: "SIA", alt: "Siauliai", venueID: 16003, venue: "Šiaulių arena", city: "Šiauliai", formed: 1994}}},
	{id: 4380, name: "NHL", alt: "National Hockey League", sport: "Ice Hockey", country: "United States", teams: 10, split: true, double: true, interval: 7},
	{id: 4419, name: "Swedish SHL", alt: "SHL, Svenska Hockeyligan", sport: "Ice Hockey", country: "Sweden", teams: 10, split: true, double: true, interval: 7},
	{id: 4391, name: "NFL", alt: "National Football League", sport: "American Football", country: "United States", teams: 10, split: false, double: true, interval: 7},
	{id: 4424, name: "MLB", alt: "Major League Baseball", sport: "Baseball", country: "United States", teams: 10, split: false, double: true, interval: 7},
	{id: 4370, name: "Formula 1", alt: "F1, Formula One", sport: "Motorsport", country: "United Kingdom", teams: 10, interval: 14},
	{id: 4443, name: "UFC", alt: "Ultimate Fighting Championship", sport: "Fighting", country: "United States", teams: 8, interval: 7},
	{id: 4425, name: "PGA Tour", alt: "PGA", sport: "Golf", country: "United States", teams: 6, interval: 7},
}
