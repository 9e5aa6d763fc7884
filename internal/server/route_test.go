package server

import (
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
)

// tables is a server on no store: enough to ask its route tables about paths.
var tables = func() *Server {
	d := api.Deps{Caps: caps.New()}
	return &Server{cfg: Config{Mounts: Mounts{APIs: []API{{Name: "v2", Mount: v2.New(d)}, {Name: "v1", Mount: v1.New(d)}}}}}
}()

// parseTarget reads a path as the server does.
func parseTarget(p string) (target, bool) { return tables.match(p) }

func TestMatch(t *testing.T) {
	const other = api.OtherRoute
	cases := []struct {
		path string
		ok   bool
		// route, key, header key, premium only, args
		route, key   string
		header, prem bool
		args         string
	}{
		{"/api/v1/json/123/searchteams.php", true, "v1/searchteams.php", "123", false, false, ""},
		{"/api/v1/json/123/lookuplineup.php", true, "v1/lookuplineup.php", "123", false, false, ""},
		{"/api/v1/json/123/", false, "", "", false, false, ""},
		{"/api/v1/json//all_sports.php", false, "", "", false, false, ""},
		{"/api/v1/json/123/all_sports.php/extra", false, "", "", false, false, ""},
		{"/api/v1/json/123/all_sports", false, "", "", false, false, ""},
		// An unknown file is v1's (its key is checked before the 404) but names no route.
		{"/api/v1/json/123/lookuplineups.php", true, other, "123", false, false, ""},
		{"/api/v1/json/123/..%2F..%2Fetc%2Fpasswd.php", true, other, "123", false, false, ""},
		{"/api/v1/json/123/%zz.php", false, "", "", false, false, ""},
		{"/api/v2/json/search/team/Arsenal", true, "v2/search/team", "", true, true, "search/team/Arsenal"},
		{"/api/v2/json/search/team/Real%20Madrid", true, "v2/search/team", "", true, true, "search/team/Real Madrid"},
		{"/api/v2/json/search/nothing", true, other, "", true, true, "search/nothing"},
		{"/api/v2/json/livescore/soccer", true, "v2/livescore", "", true, true, "livescore/soccer"},
		{"/api/v2/json/livescore/all", true, "v2/livescore/all", "", true, true, "livescore/all"},
		{"/api/v2/json/schedule/league/4328/2026-2027", true, "v2/schedule/league", "", true, true, "schedule/league/4328/2026-2027"},
		{"/api/v2/json/all/countries/", true, "v2/all/countries", "", true, true, "all/countries/"},
		{"/api/v2/json/search/team.php", true, other, "", true, true, "search/team.php"},
		{"/api/v2/json/KEY/livescore.php", true, "v2/livescore.php", "KEY", false, true, ""},
		{"/api/v2/json/livescore.php", true, "v1/livescore.php", "", true, false, ""},
		{"/api/v2/json/KEY/searchteams.php", true, "v1/searchteams.php", "KEY", false, false, ""},
		{"/api/v2/json/searchteams.php", true, "v1/searchteams.php", "", true, false, ""},
		{"/api/v2/json/KEY/lookup/team/133604", true, "v2/lookup/team", "KEY", false, true, "lookup/team/133604"},
		{"/api/v2/json//lookup/team/133604", false, "", "", false, false, ""},
		{"/api/v2/json/KEY/nothing", false, "", "", false, false, ""},
		{"/api/v2/json/", false, "", "", false, false, ""},
		{"/api/v3/json/123/all_sports.php", false, "", "", false, false, ""},
		{"/", false, "", "", false, false, ""},
	}
	for _, c := range cases {
		got, ok := parseTarget(c.path)
		if ok != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.path, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.Route != c.route || got.Key != c.key || got.HeaderKey != c.header || got.PremiumOnly != c.prem ||
			strings.Join(got.Args, "/") != c.args || got.Known() != (c.route != other) {
			t.Errorf("%s: got %+v", c.path, got.Target)
		}
	}
}

// Every route name a table gives is one the metrics know at start.
func TestRouteNamesAreFixed(t *testing.T) {
	known := map[string]bool{}
	for _, r := range tables.routeNames() {
		known[r] = true
	}
	for _, p := range []string{
		"/api/v2/json/search/team/arsenal", "/api/v2/json/livescore/soccer", "/api/v2/json/KEY/livescore.php",
		"/api/v2/json/schedule/league/4328/season", "/api/v2/json/filter/tv/channel/sky",
		"/api/v1/json/123/Search%20Teams.php", "/api/v1/json/123/eventsnext.php",
	} {
		tg, ok := parseTarget(p)
		if !ok || !known[tg.Route] {
			t.Errorf("%s: route %q (ok %v) is not a table's", p, tg.Route, ok)
		}
	}
}

// A logged path never holds a key: a path a table names shows {key} where the key is, any
// other path shows only its route name.
func TestScrubPathHidesKeys(t *testing.T) {
	const key = "SECRETKEY"
	cases := map[string]string{
		"/api/v1/json/SECRETKEY/searchteams.php":                            "/api/v1/json/{key}/searchteams.php",
		"/api/v2/json/SECRETKEY/livescore.php":                              "/api/v2/json/{key}/livescore.php",
		"/api/v2/json/SECRETKEY/searchteams.php":                            "/api/v2/json/{key}/searchteams.php",
		"/api/v2/json/SECRETKEY/lookup/team/1":                              "/api/v2/json/{key}/lookup/team/1",
		"/api/v2/json/search/team/Arsenal":                                  "/api/v2/json/search/team/Arsenal",
		"/api/v2/json/searchteams.php":                                      "/api/v2/json/searchteams.php",
		"/api/v1/json/SECRET%4BEY/all_sports.php":                           "/api/v1/json/{key}/all_sports.php",
		"/api/v1/json/SECRETKEY/" + strings.Repeat("a", 300):                "{other}",
		"/api/v1/json/SECRETKEY/all_sports.php/" + strings.Repeat("a", 300): "{other}",
		"/api/v1/json/SECRETKEY":                                            "{other}",
		"/api/v1/json/SECRETKEY/":                                           "{other}",
		"/api/v1/json/SECRETKEY/unknown.php":                                "{other}",
		"/api/v1/json/123/SECRETKEY.php":                                    "{other}",
		"/api/v2/json/search/SECRETKEY":                                     "{other}",
		"/api/v2/json/SECRETKEY/search/SECRETKEY":                           "{other}",
		"//api/v1/json/SECRETKEY/all_sports.php":                            "{other}",
		"/api/v1/json//SECRETKEY/all_sports.php":                            "{other}",
		"/API/v1/json/SECRETKEY/all_sports.php":                             "{other}",
		"/api/v1/SECRETKEY/all_sports.php":                                  "{other}",
		"/api/v3/json/SECRETKEY/all_sports.php":                             "{other}",
		"/%61pi/v1/json/SECRETKEY/all_sports.php":                           "{other}",
		"/api/v1/json/../v1/json/SECRETKEY/all_sports.php":                  "{other}",
		"/api/v1/json/%2E%2E/v1/json/SECRETKEY/all_sports.php":              "{other}",
		"/api/v1/xml/SECRETKEY/x":                                           "{other}",
		"/SECRETKEY":                                                        "{other}",
		"/api/v1":                                                           "{other}",
	}
	for in, want := range cases {
		tg, ok := parseTarget(in)
		route := tg.Route
		if !ok {
			route = api.OtherRoute // as the server names a path no table names
		}
		got := scrubPath(in, route, tg)
		if got != want || strings.Contains(got, key) || strings.Contains(got, "SECRET") {
			t.Errorf("scrubPath(%s) = %s, want %s", in, got, want)
		}
	}
	// The server's own paths are shown as they are.
	if got := scrubPath("/healthz", "healthz", target{}); got != "/healthz" {
		t.Errorf("healthz: %s", got)
	}
}

// BenchmarkMatch measures reading a request's path against the route tables; its
// allocations are the route match's whole cost on the request path.
func BenchmarkMatch(b *testing.B) {
	for _, p := range []string{"/api/v1/json/123/searchteams.php", "/api/v2/json/search/team/Arsenal",
		"/api/v2/json/KEY/schedule/next/league/4328", "/api/v2/json/KEY/livescore.php"} {
		b.Run(strings.ReplaceAll(p[len("/api/"):], "/", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := parseTarget(p); !ok {
					b.Fatal(p)
				}
			}
		})
	}
}
