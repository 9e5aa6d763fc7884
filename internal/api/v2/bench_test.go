package v2_test

import (
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// BenchmarkServe measures whole answers (query, rendering), without the server's cache, on
// a database holding every recorded response, for the shapes that cost the most: a loose search, a big list, a schedule.
func BenchmarkServe(b *testing.B) {
	get := direct(fullEnv(b, apitest.Options{}).Store)
	for _, path := range []string{
		"search/team/Arsenal", "lookup/event/441613", "lookup/event_lineup/1032723",
		"all/countries", "schedule/full/team/133602", "schedule/league/4328/2026-2027",
		"livescore/all", "lookup/team/1",
	} {
		b.Run(strings.ReplaceAll(path, "/", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if a := get(b, "/api/v2/json/"+path); a.status != 200 {
					b.Fatalf("%s: %d", path, a.status)
				}
			}
		})
	}
}
