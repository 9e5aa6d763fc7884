package v2_test

import (
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// FuzzServe feeds arbitrary paths (after /api/v2/json/, decoded segments) to the server.
// Whatever the path: no panic, no 5xx, a JSON body, and 404 only with the Not found body. Seeds live
// in testdata/fuzz/FuzzServe and run with every go test.
func FuzzServe(f *testing.F) {
	for _, c := range goldenCases {
		f.Add(c.path)
	}
	f.Add("schedule/league/4328/2026-2027/")
	f.Add("search/team/" + strings.Repeat("a", 300))
	f.Add("livescore/\xff")
	e := fullEnv(f, apitest.Options{})
	f.Fuzz(func(t *testing.T, path string) {
		checkAnswer(t, path, e.serve(t, strings.Split(path, "/")))
	})
}
