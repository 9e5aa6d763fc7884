package main

import (
	"fmt"
	"math/rand/v2"
	"net/url"
)

// mixedEndpoints is every v1 file and v2 path of the API, each drawn equally often.
var mixedEndpoints = []endpoint{
	{name: "searchteams.php", make: team(func(_, n string) string { return q("searchteams.php", "t", n) })},
	{name: "searchevents.php", make: event(func(e eventInfo) string { return q("searchevents.php", "e", e.name) })},
	{name: "searchfilename.php", make: event(func(e eventInfo) string {
		if e.filename == "" {
			return ""
		}
		return q("searchfilename.php", "e", e.filename)
	})},
	{name: "searchplayers.php", make: player(func(_, n string) string { return q("searchplayers.php", "p", n) })},
	{name: "searchvenues.php", make: word(venueNames, func(n string) string { return q("searchvenues.php", "v", n) })},
	{name: "lookupleague.php", make: league(func(l leagueInfo) string { return q("lookupleague.php", "id", l.id) })},
	{name: "lookuptable.php", make: league(func(l leagueInfo) string { return q("lookuptable.php", "l", l.id, "s", l.season) })},
	{name: "lookupteam.php", make: team(func(id, _ string) string { return q("lookupteam.php", "id", id) })},
	{name: "lookupequipment.php", make: team(func(id, _ string) string { return q("lookupequipment.php", "id", id) })},
	playerDetail("lookupplayer.php"),
	playerDetail("lookuphonours.php"),
	playerDetail("lookupformerteams.php"),
	playerDetail("lookupmilestones.php"),
	playerDetail("lookupcontracts.php"),
	eventDetail("lookuptv.php"),
	playerDetail("playerresults.php"),
	playerDetail("lookupplayerstats.php"),
	eventDetail("lookupevent.php"),
	eventDetail("eventresults.php"),
	eventDetail("lookuplineup.php"),
	eventDetail("lookuptimeline.php"),
	eventDetail("lookupeventstats.php"),
	{name: "lookupvenue.php", make: word(venueIDs, func(id string) string { return q("lookupvenue.php", "id", id) })},
	{name: "all_sports.php", make: fixed("all_sports.php")},
	{name: "all_countries.php", make: fixed("all_countries.php")},
	{name: "all_leagues.php", make: fixed("all_leagues.php")},
	{name: "search_all_leagues.php", make: league(func(l leagueInfo) string {
		return q("search_all_leagues.php", "c", l.country, "s", l.sport)
	})},
	{name: "search_all_seasons.php", make: league(func(l leagueInfo) string { return q("search_all_seasons.php", "id", l.id) })},
	{name: "search_all_teams.php", make: league(func(l leagueInfo) string { return q("search_all_teams.php", "l", l.name) })},
	{name: "lookup_all_players.php", make: team(func(id, _ string) string { return q("lookup_all_players.php", "id", id) })},
	{name: "eventsnext.php", make: team(func(id, _ string) string { return q("eventsnext.php", "id", id) })},
	{name: "eventslast.php", make: team(func(id, _ string) string { return q("eventslast.php", "id", id) })},
	{name: "eventsnextleague.php", make: league(func(l leagueInfo) string { return q("eventsnextleague.php", "id", l.id) })},
	{name: "eventspastleague.php", make: league(func(l leagueInfo) string { return q("eventspastleague.php", "id", l.id) })},
	{name: "eventsday.php", make: word(dates, func(d string) string { return q("eventsday.php", "d", d) })},
	{name: "eventsseason.php", make: league(func(l leagueInfo) string { return q("eventsseason.php", "id", l.id, "s", l.season) })},
	{name: "eventsround.php", freeOnly: true, make: event(func(e eventInfo) string {
		if e.round == "" || e.season == "" {
			return ""
		}
		return q("eventsround.php", "id", e.league, "r", e.round, "s", e.season)
	})},
	{name: "eventstv.php", make: word(dates, func(d string) string { return q("eventstv.php", "d", d) })},
	{name: "eventshighlights.php", make: word(dates, func(d string) string { return q("eventshighlights.php", "d", d) })},
	{name: "livescore.php", make: word(sports, func(s string) string { return q("livescore.php", "s", s) })},

	{name: "search/league", v2: true, make: word(leagueNames, func(n string) string { return "search/league/" + seg(n) })},
	{name: "search/player", v2: true, make: word(playerNames, func(n string) string { return "search/player/" + seg(n) })},
	{name: "search/event", v2: true, make: word(eventFilenames, func(n string) string { return "search/event/" + seg(n) })},
	{name: "search/venue", v2: true, make: word(venueNames, func(n string) string { return "search/venue/" + seg(n) })},
	{name: "search/team", v2: true, make: word(teamNames, func(n string) string { return "search/team/" + seg(n) })},
	v2ID("lookup/league", leagueIDs),
	v2ID("lookup/team", teamIDs),
	v2ID("lookup/player", playerIDs),
	v2ID("lookup/event", eventIDs),
	v2ID("lookup/venue", venueIDs),
	v2ID("lookup/event_highlights", eventIDs),
	v2ID("lookup/team_equipment", teamIDs),
	v2ID("lookup/player_contracts", playerIDs),
	v2ID("lookup/player_results", playerIDs),
	v2ID("lookup/player_honours", playerIDs),
	v2ID("lookup/player_milestones", playerIDs),
	v2ID("lookup/player_teams", playerIDs),
	v2ID("lookup/player_stats", playerIDs),
	v2ID("lookup/event_lineup", eventIDs),
	v2ID("lookup/event_results", eventIDs),
	v2ID("lookup/event_stats", eventIDs),
	v2ID("lookup/event_timeline", eventIDs),
	v2ID("lookup/event_tv", eventIDs),
	v2ID("list/teams", leagueIDs),
	v2ID("list/seasons", leagueIDs),
	v2ID("list/players", teamIDs),
	v2ID("list/seasonposters", leagueIDs),
	{name: "all/countries", v2: true, make: fixed("all/countries")},
	{name: "all/sports", v2: true, make: fixed("all/sports")},
	{name: "all/leagues", v2: true, make: fixed("all/leagues")},
	v2ID("schedule/next/league", leagueIDs),
	v2ID("schedule/previous/league", leagueIDs),
	v2ID("schedule/next/team", teamIDs),
	v2ID("schedule/previous/team", teamIDs),
	v2ID("schedule/next/venue", venueIDs),
	v2ID("schedule/previous/venue", venueIDs),
	v2ID("schedule/full/team", teamIDs),
	{name: "schedule/league", v2: true, make: league(func(l leagueInfo) string {
		if l.season == "" {
			return ""
		}
		return "schedule/league/" + seg(l.id) + "/" + seg(l.season)
	})},
	v2ID("filter/tv/day", dates),
	v2ID("filter/tv/country", countries),
	v2ID("filter/tv/sport", sports),
	v2ID("filter/tv/channel", channelNames),
	v2ID("filter/tv/channelid", channelIDs),
	v2ID("livescore", sports),
	{name: "livescore/all", v2: true, make: fixed("livescore/all")},
}

// searchEndpoints are the name searches of v1 and v2, with whole names and, for a third of
// them, the first word of a name (which matches more records).
var searchEndpoints = []endpoint{
	{name: "searchteams.php", make: word(teamNames, func(n string) string { return q("searchteams.php", "t", n) })},
	{name: "searchplayers.php", make: word(playerNames, func(n string) string { return q("searchplayers.php", "p", n) })},
	{name: "searchplayers.php partial", make: word(playerNames, func(n string) string { return q("searchplayers.php", "p", firstWord(n)) })},
	{name: "searchevents.php", make: word(eventNames, func(n string) string { return q("searchevents.php", "e", n) })},
	{name: "searchvenues.php", make: word(venueNames, func(n string) string { return q("searchvenues.php", "v", n) })},
	{name: "search/team", v2: true, make: word(teamNames, func(n string) string { return "search/team/" + seg(n) })},
	{name: "search/team partial", v2: true, make: word(teamNames, func(n string) string { return "search/team/" + seg(firstWord(n)) })},
	{name: "search/player", v2: true, make: word(playerNames, func(n string) string { return "search/player/" + seg(n) })},
	{name: "search/event", v2: true, make: word(eventFilenames, func(n string) string { return "search/event/" + seg(n) })},
	{name: "search/venue", v2: true, make: word(venueNames, func(n string) string { return "search/venue/" + seg(n) })},
	{name: "search/league", v2: true, make: word(leagueNames, func(n string) string { return "search/league/" + seg(n) })},
	{name: "search/league partial", v2: true, make: word(leagueNames, func(n string) string { return "search/league/" + seg(firstWord(n)) })},
}

// builder turns endpoints and pools into request lines spread over many keys.
type builder struct {
	p             *pools
	r             *rand.Rand
	premium, free []string
}

func (b *builder) line(e endpoint, rest string, anyTier bool) line {
	l, _ := b.tieredLine(e, rest, anyTier)
	return l
}

// tieredLine is line, and whether its key is a free one (free and premium keys get
// different answers, cached apart).
func (b *builder) tieredLine(e endpoint, rest string, anyTier bool) (line, bool) {
	if e.v2 {
		k, _ := pick(b.r, b.premium)
		return line{target: "/api/v2/json/" + rest, key: k}, false
	}
	keys, free := b.premium, false
	if e.freeOnly || anyTier && b.r.IntN(4) == 0 {
		keys, free = b.free, true // eventsround.php, and a quarter of other v1 traffic
	}
	k, _ := pick(b.r, keys)
	return line{target: "/api/v1/json/" + url.PathEscape(k) + "/" + rest}, free
}

// distinct draws up to n requests that the server's response cache tells apart (by tier,
// endpoint and arguments, whatever the key), each endpoint in turn. An endpoint whose pool
// has no new request left after many tries drops out, and the others fill the list. With
// anyTier, a quarter of v1 requests use free keys (see tieredLine).
func (b *builder) distinct(eps []endpoint, n int, anyTier bool) []line {
	seen := map[string]bool{}
	live := append([]endpoint(nil), eps...)
	var out []line
	for i := 0; len(out) < n && len(live) > 0; i++ {
		j := i % len(live)
		found := false
		for try := 0; try < 64; try++ {
			rest, ok := live[j].make(b.p, b.r)
			if !ok {
				continue
			}
			l, free := b.tieredLine(live[j], rest, anyTier)
			id := fmt.Sprintf("%t|%t|%s", free, live[j].v2, rest)
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, l)
			found = true
			break
		}
		if !found {
			live = append(live[:j], live[j+1:]...)
		}
	}
	b.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// build draws n requests from the endpoints, each endpoint in turn so that all appear even
// in a short list; endpoints the pools cannot feed are skipped.
func (b *builder) build(eps []endpoint, n int, anyTier bool) []line {
	var out []line
	for i, misses := 0, 0; len(out) < n && misses < 10*len(eps); i++ {
		e := eps[i%len(eps)]
		rest, ok := e.make(b.p, b.r)
		if !ok {
			misses++
			continue
		}
		out = append(out, b.line(e, rest, anyTier))
	}
	b.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// hot is a few lookups asked again and again, each with every premium key.
func (b *builder) hot(distinct int) []line {
	hotEndpoints := []endpoint{endpointNamed("lookupteam.php"), endpointNamed("lookupplayer.php"), endpointNamed("lookupevent.php"),
		endpointNamed("lookupleague.php"), endpointNamed("lookup/team")}
	var reqs []struct {
		e    endpoint
		rest string
	}
	for i := 0; len(reqs) < distinct && i < 100*distinct; i++ {
		e := hotEndpoints[i%len(hotEndpoints)]
		if rest, ok := e.make(b.p, b.r); ok {
			reqs = append(reqs, struct {
				e    endpoint
				rest string
			}{e, rest})
		}
	}
	var out []line
	for _, k := range b.premium {
		for _, rq := range reqs {
			if rq.e.v2 {
				out = append(out, line{target: "/api/v2/json/" + rq.rest, key: k})
			} else {
				out = append(out, line{target: "/api/v1/json/" + url.PathEscape(k) + "/" + rq.rest})
			}
		}
	}
	return out
}

func endpointNamed(name string) endpoint {
	for _, e := range mixedEndpoints {
		if e.name == name {
			return e
		}
	}
	panic("loadgen: no endpoint " + name)
}
