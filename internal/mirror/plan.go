package mirror

import (
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// The crawl plan: what each answer leads to. A frontier URL is "v1/<file>?<query>" or
// "v2/<path>"; expanding an answer queues the requests for what its records reference, each
// once (the frontier ignores a URL it holds already).

// Priorities: deeper requests go first, so a league is finished before the next is begun
// and the frontier stays small; live scores go before everything when they are due.
const (
	prioLeague = iota + 1
	prioLeagueLists
	prioSeason
	prioEvents
	prioDetails
	// Sports, countries and leagues first: the plan reads the sports' formats.
	prioSeed = 8
	prioLive = 9
)

// Freshness of an answer: how long it stays good before --follow asks again.
const (
	freshDaily  = 24 * time.Hour
	freshHourly = time.Hour
	freshLive   = 30 * time.Second
)

// plan knows the key's reach and the leagues asked for.
type plan struct {
	// v2: the key is premium and the upstream answers v2.
	v2      bool
	leagues map[string]bool // nil: every league
	seasons int             // most recent seasons per league; 0: all
	// teamSport says whether a sport is played team against team (its strFormat), where
	// players have no results of their own; nil: not known.
	teamSport func(sport string) bool
	// imageHosts, with --media, are the hosts whose images the records' answers queue.
	imageHosts map[string]bool
}

func (p *plan) wanted(idLeague string) bool { return p.leagues == nil || p.leagues[idLeague] }

// seeds are the requests every crawl starts from.
func (p *plan) seeds(leagues []string) []store.FrontierEntry {
	var urls []string
	if p.v2 {
		urls = append(urls, "v2/all/sports", "v2/all/countries")
	} else {
		urls = append(urls, "v1/all_sports.php", "v1/all_countries.php")
	}
	out := entries(prioSeed, urls...)
	if len(leagues) == 0 {
		return append(out, entries(prioSeed, "v1/all_leagues.php")...)
	}
	for _, id := range leagues {
		out = append(out, entries(prioLeague, "v1/lookupleague.php?id="+url.QueryEscape(id))...)
	}
	return out
}

func entries(prio int, urls ...string) []store.FrontierEntry {
	out := make([]store.FrontierEntry, len(urls))
	for i, u := range urls {
		out[i] = store.FrontierEntry{URL: u, Priority: prio}
	}
	return out
}

// target is a parsed frontier URL.
type target struct {
	version string // v1 or v2
	name    string // the v1 file, or the v2 path without its last segment ("list/seasonposters")
	last    string // the v2 path's last segment
	query   url.Values
}

func parseTarget(u string) target {
	version, rest, _ := strings.Cut(u, "/")
	p, q, _ := strings.Cut(rest, "?")
	vals, _ := url.ParseQuery(q)
	t := target{version: version, name: p, query: vals}
	if version == "v2" {
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			t.name, t.last = p[:i], p[i+1:]
		}
	}
	return t
}

// expand returns the requests the records of the answer to u lead to.
func (p *plan) expand(u string, recs []record.Record, now time.Time) []store.FrontierEntry {
	t := parseTarget(u)
	switch t.name {
	case "all_leagues.php":
		var out []store.FrontierEntry
		for _, r := range ofKind(recs, record.League) {
			if id := r.Str("idLeague"); id != "" && p.wanted(id) {
				out = append(out, entries(prioLeague, "v1/lookupleague.php?id="+id)...)
			}
		}
		return out
	case "lookupleague.php":
		return p.league(ofKind(recs, record.League), now)
	case "search_all_seasons.php":
		return p.seasonsOf(t.query.Get("id"), ofKind(recs, record.Season))
	case "eventsseason.php":
		return p.season(t.query.Get("id"), t.query.Get("s"), ofKind(recs, record.Event))
	case "eventsday.php", "lookupevent.php", "eventsnextleague.php", "eventspastleague.php":
		return p.events(ofKind(recs, record.Event), now)
	case "search_all_teams.php":
		return p.teams(ofKind(recs, record.Team))
	case "lookup_all_players.php":
		return p.players(ofKind(recs, record.Player))
	case "lookuplineup.php", "lookup/event_lineup":
		return p.played(t, ofKind(recs, record.Lineup))
	}
	return nil
}

func ofKind(recs []record.Record, k *record.Kind) []record.Record {
	var out []record.Record
	for _, r := range recs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// highlightDays is how far back a league's highlights are asked for, day by day.
const highlightDays = 7

func (p *plan) league(leagues []record.Record, now time.Time) []store.FrontierEntry {
	var out []store.FrontierEntry
	for _, l := range leagues {
		id := l.Str("idLeague")
		if id == "" || !p.wanted(id) {
			continue
		}
		out = append(out, entries(prioLeagueLists,
			"v1/search_all_seasons.php?id="+id+"&badge=1&poster=1&description=1",
			"v1/search_all_teams.php?l="+url.QueryEscape(l.Str("strLeague")),
			"v1/eventsnextleague.php?id="+id,
			"v1/eventspastleague.php?id="+id)...)
		for d := range highlightDays + 1 {
			day := now.AddDate(0, 0, -d).Format(time.DateOnly)
			out = append(out, entries(prioLeagueLists, "v1/eventshighlights.php?d="+day+"&l="+id)...)
		}
		if p.v2 {
			out = append(out, entries(prioLeagueLists, "v2/list/seasonposters/"+id)...)
			out = append(out, entries(prioLive, "v2/livescore/"+id)...)
		} else if s := l.Str("strSport"); s != "" {
			out = append(out, entries(prioLive, "v1/livescore.php?s="+url.QueryEscape(s))...)
		}
	}
	return out
}

func (p *plan) seasonsOf(idLeague string, seasons []record.Record) []store.FrontierEntry {
	names := make([]string, 0, len(seasons))
	for _, s := range seasons {
		if n := s.Str("strSeason"); n != "" {
			names = append(names, n)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	if p.seasons > 0 && len(names) > p.seasons {
		names = names[:p.seasons]
	}
	var out []store.FrontierEntry
	for _, n := range names {
		out = append(out, entries(prioSeason, "v1/eventsseason.php?id="+idLeague+"&s="+url.QueryEscape(n))...)
	}
	return out
}

// season queues the league table of a season that has events, and the events in full: a
// day's events of the league in one request with a premium key, one by one otherwise.
func (p *plan) season(idLeague, season string, events []record.Record) []store.FrontierEntry {
	if len(events) == 0 {
		return nil
	}
	out := entries(prioSeason, "v1/lookuptable.php?l="+idLeague+"&s="+url.QueryEscape(season))
	var urls []string
	for _, e := range events {
		if p.v2 {
			if d := e.Str("dateEvent"); d != "" {
				urls = append(urls, "v1/eventsday.php?d="+d+"&l="+idLeague)
			}
		} else if id := e.Str("idEvent"); id != "" {
			urls = append(urls, "v1/lookupevent.php?id="+id)
		}
	}
	slices.Sort(urls)
	return append(out, entries(prioEvents, slices.Compact(urls)...)...)
}

// events queues the details of full event records: lineups, timelines and statistics of
// played games, results of played events without teams (races, tournaments), TV of events
// near today, and venues.
func (p *plan) events(events []record.Record, now time.Time) []store.FrontierEntry {
	var urls []string
	today := now.Format(time.DateOnly)
	tvFrom, tvTo := now.AddDate(0, 0, -1).Format(time.DateOnly), now.AddDate(0, 0, 7).Format(time.DateOnly)
	for _, e := range events {
		id := e.Str("idEvent")
		if id == "" || !p.wanted(e.Str("idLeague")) {
			continue
		}
		if played(e, today) {
			if e.Str("idHomeTeam") == "" {
				urls = append(urls, "v1/eventresults.php?id="+id)
			} else {
				// The timeline and statistics follow when the game has a lineup (see played).
				lineup := "v1/lookuplineup.php?id=" + id
				if p.v2 {
					lineup = "v2/lookup/event_lineup/" + id
				}
				urls = append(urls, lineup)
			}
		}
		if d := e.Str("dateEvent"); d >= tvFrom && d <= tvTo {
			urls = append(urls, "v1/lookuptv.php?id="+id)
		}
		if v := e.Str("idVenue"); v != "" && v != "0" {
			urls = append(urls, "v1/lookupvenue.php?id="+v)
		}
	}
	return entries(prioDetails, urls...)
}

// played says whether an event has begun: a status of play or its end, or a score, on a day
// not after today.
func played(e record.Record, today string) bool {
	if e.Str("dateEvent") > today {
		return false
	}
	switch e.Str("strStatus") {
	case "NS", "TBD", "PST", "POST", "CANC":
		return false
	case "":
		return e.Str("intHomeScore") != "" || e.Str("idHomeTeam") == ""
	}
	return true
}

// played queues the timeline and statistics of a game whose lineup is known: a game
// without one (an old one, most often) has neither, and asking would waste two requests.
// A lineup read through v2 leads to its v1 answer as well: each version's view leaves out
// fields the other holds (v2 the players' thumbs and renders, v1 the formation), and the
// store merges the two into the whole record.
func (p *plan) played(t target, lineup []record.Record) []store.FrontierEntry {
	if len(lineup) == 0 {
		return nil
	}
	id := t.query.Get("id")
	var urls []string
	if t.version == "v2" {
		id = t.last
		urls = append(urls, "v1/lookuplineup.php?id="+id)
	}
	urls = append(urls, "v1/lookuptimeline.php?id="+id, "v1/lookupeventstats.php?id="+id)
	return entries(prioDetails, urls...)
}

func (p *plan) teams(teams []record.Record) []store.FrontierEntry {
	var out []store.FrontierEntry
	for _, t := range teams {
		id := t.Str("idTeam")
		if id == "" {
			continue
		}
		out = append(out, entries(prioSeason, "v1/lookup_all_players.php?id="+id)...)
		out = append(out, entries(prioDetails, "v1/lookupequipment.php?id="+id)...)
		if v := t.Str("idVenue"); v != "" && v != "0" {
			out = append(out, entries(prioDetails, "v1/lookupvenue.php?id="+v)...)
		}
	}
	return out
}

// playerDetails are the files of a player's details, each asked with ?id=idPlayer.
var playerDetails = []string{"lookuphonours.php", "lookupformerteams.php", "lookupmilestones.php",
	"lookupcontracts.php", "playerresults.php", "lookupplayerstats.php"}

func (p *plan) players(players []record.Record) []store.FrontierEntry {
	var urls []string
	for _, pl := range players {
		id := pl.Str("idPlayer")
		if id == "" {
			continue
		}
		for _, f := range playerDetails {
			if f == "playerresults.php" && p.teamSport != nil && p.teamSport(pl.Str("strSport")) {
				continue // results are of events without teams: races, tournaments
			}
			urls = append(urls, "v1/"+f+"?id="+id)
		}
	}
	return entries(prioDetails, urls...)
}

// freshness is how long the answer to u stays good: live scores while games are on, what
// changes with the day's games hourly, the rest daily.
func freshness(u string, recs []record.Record, now time.Time) time.Duration {
	t := parseTarget(u)
	near := nearDays(now)
	switch t.name {
	case "livescore.php", "livescore":
		if len(recs) > 0 {
			return freshLive
		}
		return freshHourly
	case "eventsday.php", "eventshighlights.php":
		if near(t.query.Get("d")) {
			return freshHourly
		}
	}
	if _, rest, _ := strings.Cut(u, "/"); TimeDependent(t.version, rest) {
		return freshHourly // next and previous events
	}
	for _, r := range recs {
		if (r.Kind == record.Event || r.Kind == record.TV) && near(r.Str("dateEvent")) {
			return freshHourly
		}
	}
	return freshDaily
}

// nearDays says whether a day is yesterday, today or tomorrow of now (the day in any time
// zone of a game being played now): its games, their details, TV listings and highlights are
// still changing. Other days change seldom, and the coming games are followed hourly through
// the next events of their league; asking for each of their days, listings and highlights
// hourly would spend the budget of many leagues on one. The bounds are formatted once, for
// the many records of an answer.
func nearDays(now time.Time) func(day string) bool {
	from, to := now.AddDate(0, 0, -1).Format(time.DateOnly), now.AddDate(0, 0, 1).Format(time.DateOnly)
	return func(day string) bool { return day >= from && day <= to }
}
