package mirror

import (
	"slices"
	"testing"
	"time"

	"sportsdb/internal/record"
)

func rec(k *record.Kind, fields ...string) record.Record {
	r := k.NewRecord()
	for i := 0; i+1 < len(fields); i += 2 {
		r.Set(fields[i], record.Str(fields[i+1]))
	}
	return r
}

func TestPlanAsksOnlyWhatCanHaveAnswers(t *testing.T) {
	now := time.Date(2026, 10, 5, 20, 0, 0, 0, time.UTC)
	p := &plan{v2: true, teamSport: func(s string) bool { return s == "Soccer" }}
	lineup := rec(record.Lineup, "idLineup", "1", "idEvent", "7")
	cases := []struct {
		name string
		url  string
		recs []record.Record
		want []string
	}{
		{"a lineup leads to its v1 view, the timeline and statistics", "v2/lookup/event_lineup/7", []record.Record{lineup},
			[]string{"v1/lookuplineup.php?id=7", "v1/lookuptimeline.php?id=7", "v1/lookupeventstats.php?id=7"}},
		{"no lineup, no timeline or statistics", "v2/lookup/event_lineup/7", nil, nil},
		{"v1 lineup", "v1/lookuplineup.php?id=7", []record.Record{lineup},
			[]string{"v1/lookuptimeline.php?id=7", "v1/lookupeventstats.php?id=7"}},
		{"players of a team sport have no results", "v1/lookup_all_players.php?id=1",
			[]record.Record{rec(record.Player, "idPlayer", "5", "strSport", "Soccer")},
			[]string{"v1/lookuphonours.php?id=5", "v1/lookupformerteams.php?id=5", "v1/lookupmilestones.php?id=5",
				"v1/lookupcontracts.php?id=5", "v1/lookupplayerstats.php?id=5"}},
		{"golfers have", "v1/lookup_all_players.php?id=1",
			[]record.Record{rec(record.Player, "idPlayer", "6", "strSport", "Golf")},
			[]string{"v1/lookuphonours.php?id=6", "v1/lookupformerteams.php?id=6", "v1/lookupmilestones.php?id=6",
				"v1/lookupcontracts.php?id=6", "v1/playerresults.php?id=6", "v1/lookupplayerstats.php?id=6"}},
		{"a game not played yet: TV only", "v1/eventsday.php?d=2026-10-06&l=4328",
			[]record.Record{rec(record.Event, "idEvent", "8", "idLeague", "4328", "idHomeTeam", "1", "dateEvent", "2026-10-06", "strStatus", "NS")},
			[]string{"v1/lookuptv.php?id=8"}},
		{"a played game: its lineup; long ago: no TV", "v1/eventsday.php?d=2026-01-06&l=4328",
			[]record.Record{rec(record.Event, "idEvent", "9", "idLeague", "4328", "idHomeTeam", "1", "dateEvent", "2026-01-06", "strStatus", "FT")},
			[]string{"v2/lookup/event_lineup/9"}},
		{"a race: its results", "v1/lookupevent.php?id=10",
			[]record.Record{rec(record.Event, "idEvent", "10", "idLeague", "4370", "dateEvent", "2026-01-06", "intHomeScore", "")},
			[]string{"v1/eventresults.php?id=10"}},
	}
	for _, c := range cases {
		var got []string
		for _, e := range p.expand(c.url, c.recs, now) {
			got = append(got, e.URL)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
