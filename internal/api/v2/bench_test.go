package v2_test

import (
	"strings"
	"testing"

	"sportsdb/internal/store"
)

// BenchmarkServe measures whole answers (query, rendering) on SQLite holding every recorded
// response, for the shapes that cost the most: a loose search, a big list, a schedule.
func BenchmarkServe(b *testing.B) {
	e := newTestEnv(fullStore(b), fixtureNow)
	for _, path := range []string{
		"search/team/Arsenal", "lookup/event/441613", "lookup/event_lineup/1032723",
		"all/countries", "schedule/full/team/133602", "schedule/league/4328/2026-2027",
		"livescore/all", "lookup/team/1",
	} {
		segs := strings.Split(path, "/")
		b.Run(strings.ReplaceAll(path, "/", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if a := e.getSegs(b, segs, store.Premium); a.status != 200 {
					b.Fatalf("%s: %d", path, a.status)
				}
			}
		})
	}
}
