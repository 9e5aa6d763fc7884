package mirror

import (
	"testing"
	"time"

	"sportsdb/internal/record"
)

func TestTimeDependent(t *testing.T) {
	for _, c := range []struct {
		version, path string
		want          bool
	}{
		{"v1", "livescore.php?s=Soccer", true},
		{"v1", "eventsnextleague.php?id=4328", true},
		{"v1", "lookupteam.php?id=133604", false},
		{"v2", "livescore/all", true},
		{"v2", "schedule/previous/team/133604", true},
		{"v2", "schedule/full/team/133604", false},
		{"v2", "lookup/team/133604", false},
	} {
		if got := TimeDependent(c.version, c.path); got != c.want {
			t.Errorf("TimeDependent(%s, %s) = %v", c.version, c.path, got)
		}
	}
}

func TestFreshness(t *testing.T) {
	now := time.Date(2026, 10, 5, 20, 0, 0, 0, time.UTC)
	live := []record.Record{rec(record.LiveScore, "idLiveScore", "1")}
	for _, c := range []struct {
		url  string
		recs []record.Record
		want time.Duration
	}{
		{"v2/livescore/all", live, freshLive},
		{"v2/livescore/all", nil, freshHourly},
		{"v1/livescore.php?s=Soccer", live, freshLive},
		{"v1/eventsnext.php?id=133604", nil, freshHourly},
		{"v2/schedule/previous/league/4328", nil, freshHourly},
		{"v1/eventspastleague.php?id=4328", nil, freshHourly},
		{"v1/eventsday.php?d=2026-10-05&l=4328", nil, freshHourly},
		{"v1/eventsday.php?d=2026-01-05&l=4328", nil, freshDaily},
		{"v1/eventsday.php?d=2026-10-06&l=4328", nil, freshHourly},
		{"v1/eventsday.php?d=2026-10-24&l=4328", nil, freshDaily}, // fixtures weeks ahead
		{"v1/lookupevent.php?id=1", []record.Record{rec(record.Event, "idEvent", "1", "dateEvent", "2026-11-04")}, freshDaily},
		{"v1/lookupevent.php?id=1", []record.Record{rec(record.Event, "idEvent", "1", "dateEvent", "2026-10-04")}, freshHourly},
		{"v1/lookupevent.php?id=1", []record.Record{rec(record.Event, "idEvent", "1", "dateEvent", "2026-09-04")}, freshDaily},
		{"v1/lookupteam.php?id=133604", nil, freshDaily},
		{"v1/eventshighlights.php?d=2026-10-04&l=4328", nil, freshHourly},
		{"v1/eventshighlights.php?d=2026-10-01&l=4328", nil, freshDaily},
		{"v1/lookuptv.php?id=1", []record.Record{rec(record.TV, "id", "1", "dateEvent", "2026-10-05")}, freshHourly},
		{"v1/lookuptv.php?id=1", []record.Record{rec(record.TV, "id", "1", "dateEvent", "2026-10-09")}, freshDaily},
		{"v1/lookuptv.php?id=1", nil, freshDaily},
	} {
		if got := freshness(c.url, c.recs, now); got != c.want {
			t.Errorf("freshness(%s) = %s, want %s", c.url, got, c.want)
		}
	}
}
