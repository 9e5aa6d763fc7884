package caps

import (
	"strings"
	"testing"

	"sportsdb/internal/store"
)

// TestProfiles: --caps names a built-in profile; "measured" lowers exactly the measured
// tiers, "documented" keeps the defaults, and a profile never names an unknown endpoint.
func TestProfiles(t *testing.T) {
	table := func() *Table {
		tb := New()
		for name := range Profiles["measured"] {
			tb.Default(name, Cap{Free: 10, Premium: 20})
		}
		tb.Default("v1/searchteams.php", Cap{Free: 1, Premium: 100})
		return tb
	}
	cases := []struct {
		profile, route string
		tier           store.Tier
		want           int
	}{
		{"documented", "v1/all_leagues.php", store.Free, 10},
		{"measured", "v1/all_leagues.php", store.Free, 5},
		{"measured", "v1/eventsseason.php", store.Free, 5},
		{"measured", "v1/search_all_leagues.php", store.Free, 5},
		{"measured", "v1/eventslast.php", store.Premium, 5},
		{"measured", "v1/eventspastleague.php", store.Business, 15},
		{"measured", "v1/searchteams.php", store.Free, 1},
	}
	for _, c := range cases {
		tb := table()
		if err := tb.LoadFile(c.profile); err != nil {
			t.Fatalf("%s: %v", c.profile, err)
		}
		if got := tb.Limit(c.route, c.tier); got != c.want {
			t.Errorf("%s %s %s: %d records, want %d", c.profile, c.route, c.tier, got, c.want)
		}
	}
	if err := New().LoadFile("measured"); err == nil || !strings.Contains(err.Error(), "caps profile measured") {
		t.Errorf("a profile naming endpoints no table registered: %v", err)
	}
	if err := New().LoadFile("measure"); err == nil {
		t.Error("an unknown profile name is read as a file and must fail")
	}
}
