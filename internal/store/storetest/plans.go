package storetest

import (
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// LookupQueries are the shapes of the API's queries. Each backend checks that its schema
// answers them with index lookups rather than table scans.
func LookupQueries() map[string]store.Query {
	const E, N = record.Exact, record.Name
	byTime := []store.Order{{Field: "strTimestamp"}}
	return map[string]store.Query{
		"season events": {Kind: record.Event, Where: []store.Cond{eq("idLeague", E, "4328"), eq("strSeason", E, "2025-2026")}, OrderBy: byTime},
		"round events":  {Kind: record.Event, Where: []store.Cond{eq("idLeague", E, "4328"), eq("strSeason", E, "2025-2026"), eq("intRound", E, "3")}},
		"team next events": {Kind: record.Event, Where: []store.Cond{
			{Or: []store.Cond{eq("idHomeTeam", E, "133604"), eq("idAwayTeam", E, "133604")}},
			op("strTimestamp", E, store.Gt, "2026-10-05T12:00:00")}, OrderBy: byTime, Limit: 10},
		"league next events": {Kind: record.Event, Where: []store.Cond{eq("idLeague", E, "4328"), op("strTimestamp", E, store.Gt, "2026-10-05T12:00:00")}, OrderBy: byTime, Limit: 20},
		"venue next events":  {Kind: record.Event, Where: []store.Cond{eq("idVenue", E, "1"), op("strTimestamp", E, store.Gt, "2026-10-05T12:00:00")}, OrderBy: byTime, Limit: 10},
		"events on a day":    {Kind: record.Event, Where: []store.Cond{eq("dateEvent", E, "2026-10-05"), eq("strSport", N, "soccer")}, OrderBy: byTime},
		"event by name":      {Kind: record.Event, Where: []store.Cond{eq("strEvent", N, "arsenal vs chelsea")}, Limit: 10},
		"event name prefix":  {Kind: record.Event, Where: []store.Cond{op("strEvent", N, store.Prefix, "arsenal")}, Limit: 10},
		"event by file":      {Kind: record.Event, Where: []store.Cond{eq("strFilename", N, "English Premier League 2026-10-05 Arsenal vs Chelsea")}},
		"team by name":       {Kind: record.Team, Where: []store.Cond{eq("strTeam", N, "Arsenal")}, Limit: 1},
		"league teams":       {Kind: record.Team, Where: []store.Cond{eq("idLeague", E, "4328")}, OrderBy: []store.Order{{Field: "strTeam", Norm: N}}},
		"team players":       {Kind: record.Player, Where: []store.Cond{eq("idTeam", E, "133604")}, OrderBy: []store.Order{{Field: "strPlayer", Norm: N}}},
		"player prefix":      {Kind: record.Player, Where: []store.Cond{op("strPlayer", N, store.Prefix, "harry")}, Limit: 10},
		"table":              {Kind: record.Standing, Where: []store.Cond{eq("idLeague", E, "4328"), eq("strSeason", E, "2025-2026")}, OrderBy: []store.Order{{Field: "intRank", Numeric: true}}},
		"lineup":             {Kind: record.Lineup, Where: []store.Cond{eq("idEvent", E, "1")}},
		"tv of event":        {Kind: record.TV, Where: []store.Cond{eq("idEvent", E, "1")}},
		"tv on a day":        {Kind: record.TV, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}, OrderBy: []store.Order{{Field: "strTimeStamp"}}},
		"tv channel":         {Kind: record.TV, Where: []store.Cond{eq("idChannel", E, "1")}, OrderBy: []store.Order{{Field: "strTimeStamp"}}},
		"seasons":            {Kind: record.Season, Where: []store.Cond{eq("idLeague", E, "4328")}},
		"honours":            {Kind: record.Honour, Where: []store.Cond{eq("idPlayer", E, "1")}},
		"highlights":         {Kind: record.Highlight, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}},
		"livescore":          {Kind: record.LiveScore, Where: []store.Cond{eq("strSport", N, "soccer")}},
		"leagues of country": {Kind: record.League, Where: []store.Cond{eq("strCountry", N, "england"), eq("strSport", N, "soccer")}},
	}
}

// OrderedQueries order sets that are large at full scale (a day's events, a league's
// history) and take few of them: the order must come from an index, not a sort of the set.
func OrderedQueries() map[string]store.Query {
	const E, N = record.Exact, record.Name
	byTime := []store.Order{{Field: "strTimestamp"}}
	return map[string]store.Query{
		"events on a day":            {Kind: record.Event, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}, OrderBy: byTime, Limit: 3},
		"events of a sport on a day": {Kind: record.Event, Where: []store.Cond{eq("dateEvent", E, "2026-10-05"), eq("strSport", N, "soccer")}, OrderBy: byTime, Limit: 3},
		"league next events":         {Kind: record.Event, Where: []store.Cond{eq("idLeague", E, "4328"), op("strTimestamp", E, store.Gt, "2026-10-05T12:00:00")}, OrderBy: byTime, Limit: 20},
		"tv on a day":                {Kind: record.TV, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}, OrderBy: []store.Order{{Field: "strTimeStamp"}}, Limit: 50},
		// By id: the public service's order of a day's events and listings (internal/api).
		"events on a day by id": {Kind: record.Event, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}, OrderBy: []store.Order{{Field: "idEvent", Numeric: true}}, Limit: 3},
		"tv on a day by id":     {Kind: record.TV, Where: []store.Cond{eq("dateEvent", E, "2026-10-05")}, OrderBy: []store.Order{{Field: "id", Numeric: true}}, Limit: 1},
	}
}

// SubstringQueries search inside folded names; PostgreSQL answers them from trigram indexes.
// Event names are matched whole (the API searches events by exact name), so they are not here.
func SubstringQueries() map[string]store.Query {
	const N, L = record.Name, record.List
	return map[string]store.Query{
		"team contains":         {Kind: record.Team, Where: []store.Cond{op("strTeam", N, store.Contains, "madrid")}},
		"team alternate has":    {Kind: record.Team, Where: []store.Cond{op("strTeamAlternate", L, store.ListHas, "gunners")}},
		"league alternate part": {Kind: record.League, Where: []store.Cond{op("strLeagueAlternate", L, store.ListContains, "premier")}},
		"tv channel contains":   {Kind: record.TV, Where: []store.Cond{op("strChannel", N, store.Contains, "sky")}},
		"venue contains":        {Kind: record.Venue, Where: []store.Cond{op("strVenue", N, store.Contains, "emirates")}},
		"player contains":       {Kind: record.Player, Where: []store.Cond{op("strPlayer", N, store.Contains, "kane")}},
	}
}
