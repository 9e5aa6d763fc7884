package record

// Field lists below are copied from responses of the public service (testdata/recorded) where
// one was recorded, and from the spec otherwise. Order matters: it is the order on the wire.
// Indexed fields include those the recorded answers are sorted on (country code, lineup
// idPlayer, result intPosition and dateEvent, season poster strSeason, live score strStatus
// and strProgress), so the API orders in the query.

var descriptions = []string{"strDescriptionEN", "strDescriptionDE", "strDescriptionFR", "strDescriptionCN", "strDescriptionIT", "strDescriptionJP", "strDescriptionRU", "strDescriptionES", "strDescriptionPT", "strDescriptionSE", "strDescriptionNL", "strDescriptionHU", "strDescriptionNO", "strDescriptionIL", "strDescriptionPL"}

// The league record lists its descriptions in another order than teams and players do.
var leagueDescriptions = []string{"strDescriptionEN", "strDescriptionDE", "strDescriptionFR", "strDescriptionIT", "strDescriptionCN", "strDescriptionJP", "strDescriptionRU", "strDescriptionES", "strDescriptionPT", "strDescriptionSE", "strDescriptionNL", "strDescriptionHU", "strDescriptionNO", "strDescriptionPL", "strDescriptionIL"}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func ix(field string) Index         { return Index{Field: field, Norm: Exact} }
func name(field string) Index       { return Index{Field: field, Norm: Name} }
func list(field string) Index       { return Index{Field: field, Norm: List} }
func key(fields ...string) []string { return fields }

var (
	Sport = newKind("sport",
		[]string{"idSport", "strSport", "strFormat", "strSportThumb", "strSportThumbBW", "strSportIconGreen", "strSportDescription"},
		key("idSport"), []Index{name("strSport")}, nil)

	// Country: the v1 list sends name_en and flag_url_32; v2 sends every field.
	Country = newKind("country",
		[]string{"idAPIfootball", "code", "name_en", "name_fr", "flag_url_16", "flag_url_32", "flag_url_64"},
		key("name_en"), []Index{name("name_en"), ix("code")},
		map[string][]string{"v1": {"name_en", "flag_url_32"}})

	League = newKind("league",
		cat([]string{"idLeague", "idAPIfootball", "idAPIfootballv3", "strSport", "strLeague", "strLeagueAlternate", "intDivision", "idCup", "strCurrentSeason", "intFormedYear", "dateFirstEvent", "strGender", "strCountry", "strWebsite", "strFacebook", "strInstagram", "strTwitter", "strYoutube", "strRSS"},
			leagueDescriptions,
			[]string{"strTvRights", "strFanart1", "strFanart2", "strFanart3", "strFanart4", "strBanner", "strBadge", "strLogo", "strPoster", "strTrophy", "strNaming", "strComplete", "strLocked"}),
		key("idLeague"), []Index{name("strSport"), name("strLeague"), list("strLeagueAlternate"), name("strCountry")},
		map[string][]string{
			"list":        {"idLeague", "strLeague", "strSport"},
			"listPremium": {"idLeague", "strLeague", "strSport", "strLeagueAlternate"},
			// v2 search/league.
			"search2": {"idLeague", "strLeague", "strSport", "strBadge", "strCountry", "strCurrentSeason", "strGender"},
		})

	// Season of a league. idLeague is not sent by the seasons endpoints; the importer takes it
	// from the request the body answered (see ingest).
	Season = newKind("season",
		[]string{"idLeague", "strSeason", "strPoster", "strBadge", "strDescriptionEN"},
		key("idLeague", "strSeason"), []Index{ix("idLeague"), ix("strSeason")},
		map[string][]string{"name": {"strSeason"}, "v2": {"strSeason", "strPoster", "strBadge", "strDescriptionEN"}})

	SeasonPoster = newKind("seasonposter",
		[]string{"idArt", "idLeague", "strSeason", "strDescriptionEN", "strBadge", "strPoster", "strUsername"},
		key("idArt"), []Index{ix("idLeague"), ix("strSeason")}, nil)

	Team = newKind("team",
		cat([]string{"idTeam", "idESPN", "idAPIfootball", "intLoved", "strTeam", "strTeamAlternate", "strTeamShort", "intFormedYear", "strSport", "strLeague", "idLeague", "strLeague2", "idLeague2", "strLeague3", "idLeague3", "strLeague4", "idLeague4", "strLeague5", "idLeague5", "strLeague6", "idLeague6", "strLeague7", "idLeague7", "strDivision", "idVenue", "strStadium", "strKeywords", "strRSS", "strLocation", "strWebsite", "strFacebook", "strTwitter", "strInstagram"},
			descriptions,
			[]string{"strColour1", "strColour2", "strColour3", "strGender", "strCountry", "strBadge", "strLogo", "strFanart1", "strFanart2", "strFanart3", "strFanart4", "strBanner", "strEquipment", "strYoutube", "strLocked"}),
		key("idTeam"), []Index{name("strTeam"), list("strTeamAlternate"), ix("idLeague"), name("strLeague"), name("strSport"), name("strCountry"), name("strTeamShort")},
		map[string][]string{
			"search2": {"idTeam", "strTeam", "idLeague", "strLeague", "strBadge", "strCountry", "strGender", "strLocation", "strSport"},
			// v2 list/teams: the 14 fields of the public answer (badges and colours, no alternate
			// names); their order is ours (internal/api/v2/README.md).
			"list2": {"idTeam", "strTeam", "strTeamShort", "strColour1", "strColour2", "strColour3", "idLeague", "strLeague", "strBadge", "strLogo", "strBanner", "strFanart1", "strEquipment", "strCountry"},
		})

	Player = newKind("player",
		cat([]string{"idPlayer", "idTeam", "idTeam2", "idTeamNational", "idAPIfootball", "idPlayerManager", "idWikidata", "idTransferMkt", "idESPN", "idGoogle", "strNationality", "strPlayer", "strPlayerAlternate", "strTeam", "strTeam2", "strSport", "intSoccerXMLTeamID", "dateBorn", "dateDied", "strNumber", "dateSigned", "strSigning", "strWage", "strOutfitter", "strKit", "strAgent", "strBirthLocation", "strDeathLocation", "strEthnicity", "strStatus"},
			descriptions,
			[]string{"strGender", "strSide", "strPosition", "strCollege", "strFacebook", "strWebsite", "strTwitter", "strInstagram", "strYoutube", "strHeight", "strWeight", "intLoved", "strThumb", "strPoster", "strCutout", "strCartoon", "strRender", "strBanner", "strFanart1", "strFanart2", "strFanart3", "strFanart4", "strCreativeCommons", "strCreativeCommonsAttribution", "strLocked", "strLastName"}),
		key("idPlayer"), []Index{ix("idTeam"), name("strPlayer")},
		map[string][]string{
			// v1 search summary; the API appends relevance.
			"search":  {"idPlayer", "idTeam", "strPlayer", "strTeam", "strSport", "strThumb", "strCutout", "strNationality", "dateBorn", "strStatus", "strGender", "strPosition"},
			"search2": {"idPlayer", "strPlayer", "idTeam", "strTeam", "dateBorn", "strThumb", "strSport"},
			// v2 list/players.
			"list2": {"idPlayer", "strPlayer", "idTeam", "strTeam", "strThumb", "strCutout", "strRender", "dateBorn", "strPosition"},
		})

	Venue = newKind("venue",
		[]string{"idVenue", "idDupe", "strVenue", "intLoved", "strVenueAlternate", "strVenueSponsor", "strSport", "strDescriptionEN", "strArchitect", "intCapacity", "strCost", "strCountry", "strLocation", "strTimezone", "intFormedYear", "strFanart1", "strFanart2", "strFanart3", "strFanart4", "strThumb", "strLogo", "strMap", "strWebsite", "strFacebook", "strInstagram", "strTwitter", "strYoutube", "strCreativeCommons", "strLocked"},
		key("idVenue"), []Index{name("strVenue"), list("strVenueAlternate")},
		map[string][]string{
			// v2 search/venue.
			"search2": {"idVenue", "strVenue", "strLocation", "strCountry", "strThumb", "strSport"},
		})

	Event = newKind("event",
		[]string{"idEvent", "idAPIfootball", "strTimestamp", "strEvent", "strEventAlternate", "strFilename", "strSport", "idLeague", "strLeague", "strLeagueBadge", "strSeason", "strDescriptionEN", "strHomeTeam", "strAwayTeam", "intHomeScore", "intHomeScoreExtra", "intAwayScoreExtra", "intRound", "intAwayScore", "intSpectators", "strOfficial", "strWeather", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strGroup", "idHomeTeam", "strHomeTeamBadge", "idAwayTeam", "strAwayTeamBadge", "intScore", "intScoreVotes", "strResult", "idVenue", "strVenue", "strCountry", "strCity", "strPoster", "strSquare", "strFanart", "strThumb", "strBanner", "strMap", "strTweet1", "strVideo", "strStatus", "strPostponed", "strLocked"},
		key("idEvent"),
		[]Index{ix("idLeague"), ix("strSeason"), ix("idHomeTeam"), ix("idAwayTeam"), ix("idVenue"), ix("strTimestamp"), ix("dateEvent"), ix("intRound"), name("strSport"), name("strLeague"), name("strEvent"), name("strFilename")},
		map[string][]string{
			"summary": {"idEvent", "strEvent", "strEventAlternate", "strSeason", "idLeague", "strLeague", "strLeagueBadge", "strSport", "strHomeTeam", "strAwayTeam", "idHomeTeam", "idAwayTeam", "intRound", "intHomeScore", "intAwayScore", "strTimestamp", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strHomeTeamBadge", "strAwayTeamBadge", "strVenue", "strCountry", "strThumb", "strPoster", "strVideo", "strPostponed", "strFilename", "strStatus"},
			// v2 schedule/*: the summary with idVenue.
			"schedule2": {"idEvent", "strEvent", "strEventAlternate", "strSeason", "idLeague", "strLeague", "strLeagueBadge", "strSport", "strHomeTeam", "strAwayTeam", "idHomeTeam", "idAwayTeam", "intRound", "intHomeScore", "intAwayScore", "strTimestamp", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strHomeTeamBadge", "strAwayTeamBadge", "idVenue", "strVenue", "strCountry", "strThumb", "strPoster", "strVideo", "strPostponed", "strFilename", "strStatus"},
			// v2 schedule/full/team: 27 fields, without season, league badge, alternate name or video.
			"fullSchedule2": {"idEvent", "strEvent", "idLeague", "strLeague", "strSport", "strHomeTeam", "strAwayTeam", "idHomeTeam", "idAwayTeam", "intRound", "intHomeScore", "intAwayScore", "strTimestamp", "dateEvent", "dateEventLocal", "strTime", "strTimeLocal", "strHomeTeamBadge", "strAwayTeamBadge", "idVenue", "strVenue", "strCountry", "strThumb", "strPoster", "strPostponed", "strFilename", "strStatus"},
		})

	Standing = newKind("standing",
		[]string{"idStanding", "intRank", "idTeam", "strTeam", "strBadge", "idLeague", "strLeague", "strSeason", "strGroup", "strForm", "strDescription", "intPlayed", "intWin", "intLoss", "intDraw", "intGoalsFor", "intGoalsAgainst", "intGoalDifference", "intPoints", "dateUpdated"},
		key("idStanding"), []Index{ix("idLeague"), ix("strSeason"), ix("intRank")}, nil)

	Equipment = newKind("equipment",
		[]string{"idEquipment", "idTeam", "date", "strSeason", "strEquipment", "strType", "strUsername"},
		key("idEquipment"), []Index{ix("idTeam")}, nil)

	Honour = newKind("honour",
		[]string{"id", "idPlayer", "idTeam", "idLeague", "idHonour", "strSport", "strPlayer", "strTeam", "strTeamBadge", "strHonour", "strHonourLogo", "strHonourTrophy", "strSeason"},
		key("id"), []Index{ix("idPlayer")}, nil)

	FormerTeam = newKind("formerteam",
		[]string{"id", "idPlayer", "idFormerTeam", "strSport", "strPlayer", "strFormerTeam", "strMoveType", "strBadge", "strJoined", "strDeparted", "intAppearances", "intGoals"},
		key("id"), []Index{ix("idPlayer")}, nil)

	Milestone = newKind("milestone",
		[]string{"id", "idPlayer", "strPlayer", "idTeam", "idMilestone", "strTeam", "strSport", "strMilestone", "strMilestoneLogo", "dateMilestone"},
		key("id"), []Index{ix("idPlayer")}, nil)

	Contract = newKind("contract",
		[]string{"id", "idPlayer", "idTeam", "strSport", "strPlayer", "strTeam", "strBadge", "strYearStart", "strYearEnd", "strWage"},
		key("id"), []Index{ix("idPlayer")}, nil)

	Result = newKind("result",
		[]string{"idResult", "idPlayer", "strPlayer", "idTeam", "idEvent", "strEvent", "strResult", "intPosition", "intPoints", "strDetail", "dateEvent", "strSeason", "strCountry", "strSport"},
		key("idResult"), []Index{ix("idPlayer"), ix("idEvent"), ix("intPosition"), ix("dateEvent")}, nil)

	PlayerStat = newKind("playerstat",
		[]string{"id", "idPlayer", "idTeam", "idLeague", "strSport", "strPlayer", "strTeam", "strTeamBadge", "strLeague", "strLeagueBadge", "strStatistic", "strValue", "strSeason"},
		key("id"), []Index{ix("idPlayer")}, nil)

	Lineup = newKind("lineup",
		[]string{"idLineup", "idEvent", "strPosition", "strHome", "strSubstitute", "intSquadNumber", "idPlayer", "strPlayer", "idTeam", "strTeam", "strCutout", "strThumb", "strRender", "strEvent", "idAPIfootball", "strPositionShort", "strFormation", "strCountry", "strSeason"},
		key("idLineup"), []Index{ix("idEvent"), ix("idPlayer")},
		map[string][]string{
			"v1": {"idLineup", "idEvent", "strPosition", "strHome", "strSubstitute", "intSquadNumber", "idPlayer", "strPlayer", "idTeam", "strTeam", "strCutout", "strThumb", "strRender"},
			"v2": {"idLineup", "idEvent", "strEvent", "idAPIfootball", "strPosition", "strPositionShort", "strFormation", "strHome", "strSubstitute", "intSquadNumber", "strCutout", "idPlayer", "strPlayer", "idTeam", "strTeam", "strCountry", "strSeason"},
		})

	Timeline = newKind("timeline",
		[]string{"idTimeline", "idEvent", "strTimeline", "strTimelineDetail", "strHome", "strEvent", "idAPIfootball", "idPlayer", "strPlayer", "strCutout", "idAssist", "strAssist", "intTime", "strPeriod", "idTeam", "strTeam", "strComment", "dateEvent", "strSeason"},
		key("idTimeline"), []Index{ix("idEvent")}, nil)

	EventStat = newKind("eventstat",
		[]string{"idStatistic", "idEvent", "idApiFootball", "strEvent", "strStat", "intHome", "intAway"},
		key("idStatistic"), []Index{ix("idEvent")}, nil)

	TV = newKind("tv",
		[]string{"id", "idEvent", "intDivision", "strSport", "strEvent", "strEventThumb", "strEventPoster", "strEventBanner", "strEventSquare", "idChannel", "strCountry", "strEventCountry", "strLogo", "strChannel", "strSeason", "strTime", "dateEvent", "strTimeStamp"},
		key("id"), []Index{ix("idEvent"), ix("dateEvent"), ix("idChannel"), name("strSport"), name("strCountry"), name("strChannel"), ix("strTimeStamp")}, nil)

	// Highlight: a highlight video listed on a day. dateEvent is the day it is listed under;
	// the public service does not send it, the importer takes it from the request (see ingest).
	Highlight = newKind("highlight",
		[]string{"idEvent", "strEvent", "strSport", "idLeague", "strLeague", "strVideo", "strPoster", "strThumb", "strFanart", "strSeason", "dateEvent"},
		key("idEvent"), []Index{ix("dateEvent"), ix("idLeague"), name("strSport")},
		map[string][]string{"v1": {"idEvent", "strEvent", "strSport", "idLeague", "strLeague", "strVideo", "strPoster", "strThumb", "strFanart", "strSeason"}})

	LiveScore = newKind("livescore",
		[]string{"idLiveScore", "idEvent", "strSport", "idLeague", "strLeague", "intDivision", "idHomeTeam", "idAwayTeam", "strHomeTeam", "strAwayTeam", "strHomeTeamBadge", "strAwayTeamBadge", "intHomeScore", "intAwayScore", "strStatus", "strProgress", "strTimestamp", "strEventTime", "dateEvent", "updated"},
		key("idLiveScore"), []Index{name("strSport"), ix("idLeague"), ix("strStatus"), ix("strProgress")}, nil)
)

// Kinds lists every kind, parents before children; import, export and migrations use this order.
var Kinds = []*Kind{Sport, Country, League, Season, SeasonPoster, Venue, Team, Player, Event, Standing, Equipment, Honour, FormerTeam, Milestone, Contract, Result, PlayerStat, Lineup, Timeline, EventStat, TV, Highlight, LiveScore}

// ByName returns the kind with the given name.
func ByName(n string) (*Kind, bool) {
	for _, k := range Kinds {
		if k.Name == n {
			return k, true
		}
	}
	return nil, false
}

func init() {
	searched(Team, name("strTeam"), list("strTeamAlternate"))
	searched(Player, name("strPlayer"))
	searched(Venue, name("strVenue"), list("strVenueAlternate"))
	searched(League, name("strLeague"), list("strLeagueAlternate"))
	searched(TV, name("strChannel"))
}

// searched sets the kind's Searched columns; each must be one of its indexes.
func searched(k *Kind, ixs ...Index) {
	for _, ix := range ixs {
		if _, ok := k.IndexOf(ix.Field, ix.Norm); !ok {
			panic("record: searched field " + ix.Field + " not indexed in " + k.Name)
		}
		k.Searched = append(k.Searched, ix.Column())
	}
}
