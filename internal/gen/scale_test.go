package gen

import (
	"testing"
)

// The full scale is too big to write in a unit test; its skeleton shows the sizes it writes.
func TestFullScaleIsAsLargeAsThePublicService(t *testing.T) {
	sc, err := lookupScale("full")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(sc, 1, testNow)
	events := 0
	for _, l := range w.leagues {
		events += l.rounds * l.perRound * sc.eventSeasons
	}
	got := map[string]int{"leagues": len(w.leagues), "sports": len(w.sports), "countries": len(w.countries),
		"teams": len(w.teams), "players": w.nPlayers, "events": events}
	want := map[string]int{"leagues": 1550, "sports": 37, "countries": 256, "teams": 50000, "players": 500000, "events": 2000000}
	for k, min := range want {
		if got[k] < min {
			t.Errorf("full scale has %d %s, want at least %d", got[k], k, min)
		}
	}
	t.Logf("full scale skeleton: %v", got)
	names := map[string]bool{}
	for _, c := range w.countries {
		if names[c.name] {
			t.Errorf("country %q listed twice", c.name)
		}
		names[c.name] = true
	}
	leagues := map[string]bool{}
	for _, l := range w.leagues {
		if leagues[l.name] {
			t.Errorf("league %q listed twice", l.name)
		}
		leagues[l.name] = true
	}
}
