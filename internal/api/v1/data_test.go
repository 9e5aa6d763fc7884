package v1_test

import (
	"context"
	"fmt"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// row is one record to store: its kind and field, value pairs.
type row struct {
	kind *record.Kind
	kv   []string
}

func r(k *record.Kind, kv ...string) row { return row{k, kv} }

// put stores records in the given order.
func put(t testing.TB, st store.Records, rows ...row) {
	t.Helper()
	err := st.Write(context.Background(), func(tx store.Tx) error {
		for _, rw := range rows {
			rec := rw.kind.NewRecord()
			for i := 0; i+1 < len(rw.kv); i += 2 {
				rec.Set(rw.kv[i], record.Str(rw.kv[i+1]))
			}
			if err := tx.Upsert(context.Background(), rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("store test records: %v", err)
	}
}

// world is a small league world around the fixture day (2026-10-05 20:05 UTC) that the rule
// tests read.
func world() []row {
	rows := []row{
		r(record.Sport, "idSport", "102", "strSport", "Soccer", "strFormat", "TeamvsTeam"),
		r(record.Sport, "idSport", "111", "strSport", "Ice Hockey", "strFormat", "TeamvsTeam"),
		r(record.League, "idLeague", "4328", "strLeague", "English Premier League", "strSport", "Soccer",
			"strLeagueAlternate", "Premier League, EPL", "strCountry", "England", "strCurrentSeason", "2026-2027"),
		r(record.League, "idLeague", "4335", "strLeague", "Spanish La Liga", "strSport", "Soccer", "strCountry", "Spain",
			"strCurrentSeason", "2026-2027"),
		r(record.League, "idLeague", "4380", "strLeague", "NHL", "strSport", "Ice Hockey", "strCountry", "United States",
			"strCurrentSeason", "2026-2027"),
		r(record.Team, "idTeam", "133604", "strTeam", "Arsenal", "strTeamAlternate", "Arsenal Football Club, AFC, Arsenal FC",
			"strSport", "Soccer", "strLeague", "English Premier League", "idLeague", "4328", "strCountry", "England"),
		r(record.Team, "idTeam", "133602", "strTeam", "Liverpool", "strTeamAlternate", "Liverpool FC, LFC",
			"strSport", "Soccer", "strLeague", "English Premier League", "idLeague", "4328", "strCountry", "England"),
		r(record.Team, "idTeam", "133610", "strTeam", "Chelsea", "strSport", "Soccer", "strLeague", "English Premier League",
			"idLeague", "4328", "strCountry", "England"),
		r(record.Team, "idTeam", "134700", "strTeam", "Atlético Madrid", "strTeamAlternate", "Atleti, Club Atlético de Madrid",
			"strSport", "Soccer", "strLeague", "Spanish La Liga", "idLeague", "4335", "strCountry", "Spain"),
		r(record.Team, "idTeam", "135000", "strTeam", "Arsenal Tula", "strSport", "Soccer", "strLeague", "Russian Football National League",
			"idLeague", "4690", "strCountry", "Russia"),
		r(record.Venue, "idVenue", "133597", "strVenue", "Emirates Stadium", "strVenueAlternate", "Arsenal Stadium", "strSport", "Soccer"),
		r(record.Player, "idPlayer", "34145937", "idTeam", "133604", "strPlayer", "Mario Balotelli", "strTeam", "Arsenal", "strSport", "Soccer"),
		r(record.Player, "idPlayer", "34145938", "idTeam", "133604", "strPlayer", "Mario", "strTeam", "Arsenal", "strSport", "Soccer"),
		r(record.Player, "idPlayer", "34145939", "idTeam", "133602", "strPlayer", "Mario Gómez García", "strTeam", "Liverpool", "strSport", "Soccer"),
		// Liverpool: an away game before its next home game, and an away game after its last
		// home game, so free (home only) and premium answers differ.
		event("1001", "133602", "Liverpool", "133610", "Chelsea", "2026-10-11T15:30:00", "8"),
		event("1002", "133610", "Chelsea", "133602", "Liverpool", "2026-10-08T19:00:00", "8"),
		event("1003", "133602", "Liverpool", "133604", "Arsenal", "2026-09-15T19:00:00", "4"),
		event("1004", "133604", "Arsenal", "133602", "Liverpool", "2026-10-01T19:00:00", "6"),
		// An evening game in the Americas: local date 4 October, UTC date 5 October.
		r(record.Event, "idEvent", "1005", "strEvent", "Boston Bruins vs Chicago Blackhawks", "strSport", "Ice Hockey",
			"idLeague", "4380", "strLeague", "NHL", "strSeason", "2026-2027", "strTimestamp", "2026-10-05T01:00:00",
			"dateEvent", "2026-10-05", "dateEventLocal", "2026-10-04", "idHomeTeam", "140001", "idAwayTeam", "140002"),
		r(record.Event, "idEvent", "1006", "strEvent", "Arsenal vs Chelsea", "strSport", "Soccer", "idLeague", "4328",
			"strLeague", "English Premier League", "strSeason", "2026-2027", "strTimestamp", "2026-10-04T14:00:00",
			"dateEvent", "2026-10-04", "idHomeTeam", "133604", "idAwayTeam", "133610", "intRound", "7",
			"strFilename", "English Premier League 2026-10-04 Arsenal vs Chelsea"),
		r(record.Event, "idEvent", "1007", "strEvent", "Arsenal vs Chelsea", "strSport", "Soccer", "idLeague", "4328",
			"strLeague", "English Premier League", "strSeason", "2016-2017", "strTimestamp", "2017-05-27T17:30:00",
			"dateEvent", "2017-05-27", "idHomeTeam", "133604", "idAwayTeam", "133610", "intRound", "30",
			"strFilename", "English Premier League 2017-05-27 Arsenal vs Chelsea"),
		r(record.Season, "idLeague", "4328", "strSeason", "2024-2025", "strPoster", "p24", "strBadge", "b24", "strDescriptionEN", "d24"),
		r(record.Season, "idLeague", "4328", "strSeason", "2025-2026", "strPoster", "p25", "strBadge", "b25", "strDescriptionEN", "d25"),
		r(record.Season, "idLeague", "4335", "strSeason", "2025-2026", "strPoster", "x", "strBadge", "x", "strDescriptionEN", "x"),
		r(record.TV, "id", "1", "idEvent", "1006", "strSport", "Soccer", "strEvent", "Arsenal vs Chelsea", "idChannel", "8631",
			"strCountry", "United Kingdom", "strChannel", "TNT Sports Ultimate", "dateEvent", "2026-10-05", "strTimeStamp", "2026-10-05 14:00:00"),
		r(record.TV, "id", "2", "idEvent", "1005", "strSport", "Ice Hockey", "strEvent", "Boston Bruins vs Chicago Blackhawks",
			"idChannel", "5715", "strCountry", "Canada", "strChannel", "TSN 1", "dateEvent", "2026-10-05", "strTimeStamp", "2026-10-05 01:00:00"),
		r(record.TV, "id", "3", "idEvent", "1005", "strSport", "Ice Hockey", "strEvent", "Boston Bruins vs Chicago Blackhawks",
			"idChannel", "5444", "strCountry", "United States", "strChannel", "ESPN", "dateEvent", "2026-10-05", "strTimeStamp", "2026-10-05 01:00:00"),
		r(record.TV, "id", "4", "idEvent", "1007", "strSport", "Soccer", "strEvent", "Arsenal vs Chelsea", "idChannel", "5715",
			"strCountry", "Canada", "strChannel", "TSN 1", "dateEvent", "2017-05-27", "strTimeStamp", "2017-05-27 17:30:00"),
		r(record.LiveScore, "idLiveScore", "1", "idEvent", "1006", "strSport", "Soccer", "idLeague", "4328", "strLeague", "English Premier League"),
		r(record.LiveScore, "idLiveScore", "2", "idEvent", "2001", "strSport", "Soccer", "idLeague", "4335", "strLeague", "Spanish La Liga"),
		r(record.LiveScore, "idLiveScore", "3", "idEvent", "1005", "strSport", "Ice Hockey", "idLeague", "4380", "strLeague", "NHL"),
	}
	// A round of twelve games: more than any free cap, all answered by the round endpoint.
	for i := range 12 {
		rows = append(rows, r(record.Event, "idEvent", fmt.Sprint(3000+i), "strEvent", fmt.Sprintf("Home %d vs Away %d", i, i),
			"idLeague", "4328", "strSeason", "2026-2027", "intRound", "1", "strTimestamp", fmt.Sprintf("2026-08-%02dT15:00:00", 10+i),
			"dateEvent", fmt.Sprintf("2026-08-%02d", 10+i)))
	}
	// Sixty highlight videos on one day: premium keys get fifty.
	for i := range 60 {
		rows = append(rows, r(record.Highlight, "idEvent", fmt.Sprint(5000+i), "strEvent", "Game", "strSport", "Soccer",
			"idLeague", "4328", "strVideo", "https://video.example/"+fmt.Sprint(i), "dateEvent", "2026-10-04"))
	}
	// Tables of two seasons, stored from the bottom up (rank 10 sorts before 2 as text); the
	// league's current season is 2026-2027.
	for i, season := range []string{"2025-2026", "2026-2027"} {
		for rank := 12; rank >= 1; rank-- {
			rows = append(rows, r(record.Standing, "idStanding", fmt.Sprint(9000+i*100+rank), "intRank", fmt.Sprint(rank),
				"idLeague", "4328", "strSeason", season, "strTeam", fmt.Sprintf("Team %d", rank)))
		}
	}
	return rows
}

func event(id, homeID, home, awayID, away, ts, round string) row {
	return r(record.Event, "idEvent", id, "strEvent", home+" vs "+away, "strSport", "Soccer", "idLeague", "4328",
		"strLeague", "English Premier League", "strSeason", "2026-2027", "strTimestamp", ts, "dateEvent", ts[:10],
		"idHomeTeam", homeID, "strHomeTeam", home, "idAwayTeam", awayID, "strAwayTeam", away, "intRound", round)
}
