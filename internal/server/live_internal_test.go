package server

import (
	"slices"
	"testing"

	"sportsdb/internal/live"
)

// Live paths: the key never reaches the access log, and route names are fixed words.
func TestLivePathsAndRoutes(t *testing.T) {
	cases := []struct {
		path, scrubbed, route, sport string
	}{
		{"/api/v2/json/changes", "/api/v2/json/changes", "v2/changes", ""},
		{"/api/v2/json/SECRETKEY/changes", "/api/v2/json/{key}/changes", "v2/changes", ""},
		{"/api/v2/json/stream/changes", "/api/v2/json/stream/changes", "v2/stream/changes", ""},
		{"/api/v2/json/SECRETKEY/stream/livescore", "/api/v2/json/{key}/stream/livescore", "v2/stream/livescore", ""},
		{"/api/v2/json/stream/livescore/Ice_Hockey", "/api/v2/json/stream/livescore/Ice_Hockey", "v2/stream/livescore", "ice hockey"},
		{"/api/v2/json/SECRETKEY/stream/livescore/Soccer/", "/api/v2/json/{key}/stream/livescore/Soccer/", "v2/stream/livescore", "soccer"},
	}
	for _, tc := range cases {
		lt, ok := parseLive(tc.path)
		if !ok || lt.route != tc.route || lt.sport != tc.sport {
			t.Errorf("parseLive(%s) = %+v, %v; want route %s, sport %q", tc.path, lt, ok, tc.route, tc.sport)
			continue
		}
		if !slices.Contains(live.Routes(), lt.route) {
			t.Errorf("route %s of %s is not one of live.Surfaces'", lt.route, tc.path)
		}
		if got := scrubPath(lt.logPath(tc.path), lt.route, target{}); got != tc.scrubbed {
			t.Errorf("the log shows %s as %s, want %s", tc.path, got, tc.scrubbed)
		}
	}
	for _, p := range []string{"/api/v2/json/livescore/soccer", "/api/v2/json/KEY/lookup/team/1", "/api/v2/json/",
		"/api/v1/json/KEY/changes"} {
		if lt, ok := parseLive(p); ok {
			t.Errorf("parseLive(%s) = %+v, want no live path", p, lt)
		}
	}
	// Under changes or stream but naming nothing: a live path that is not found.
	for _, p := range []string{"/api/v2/json/stream", "/api/v2/json/stream/other", "/api/v2/json/KEY/stream/changes/x",
		"/api/v2/json/stream/livescore/Soccer%20", "/api/v2/json/stream/livescore//", "/api/v2/json//stream/livescore",
		"/api/v2/json/stream/livescore/soccer/extra", "/api/v2/json/KEY/stream/livescore/soccer/extra",
		"/api/v2/json/changes/x", "/api/v2/json/%zz/changes"} {
		if lt, ok := parseLive(p); !ok || lt.what != "" || lt.route != "other" {
			t.Errorf("parseLive(%s) = %+v, %v; want a live path that names nothing, route other", p, lt, ok)
		}
	}
}
