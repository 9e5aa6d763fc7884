package server

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	cases := []struct {
		path string
		ok   bool
		want target
	}{
		{"/api/v1/json/123/searchteams.php", true, target{version: "v1", file: "searchteams.php", pathKey: "123", route: "v1/searchteams.php"}},
		{"/api/v1/json/123/lookuplineups.php", true, target{version: "v1", file: "lookuplineups.php", pathKey: "123", route: "v1/lookuplineups.php"}},
		{"/api/v1/json/123/", false, target{}},
		{"/api/v1/json//all_sports.php", false, target{}},
		{"/api/v1/json/123/all_sports.php/extra", false, target{}},
		{"/api/v1/json/123/all_sports", false, target{}},
		{"/api/v1/json/123/..%2F..%2Fetc%2Fpasswd.php", true, target{version: "v1", file: "../../etc/passwd.php", pathKey: "123", route: "v1/other"}},
		{"/api/v1/json/123/%zz.php", false, target{}},
		{"/api/v2/json/search/team/Arsenal", true, target{version: "v2", segments: []string{"search", "team", "Arsenal"}, headerKey: true, premiumOnly: true, route: "v2/search/team"}},
		{"/api/v2/json/search/team/Real%20Madrid", true, target{version: "v2", segments: []string{"search", "team", "Real Madrid"}, headerKey: true, premiumOnly: true, route: "v2/search/team"}},
		{"/api/v2/json/livescore/soccer", true, target{version: "v2", segments: []string{"livescore", "soccer"}, headerKey: true, premiumOnly: true, route: "v2/livescore"}},
		{"/api/v2/json/KEY/livescore.php", true, target{version: "v1", file: "livescore.php", pathKey: "KEY", legacyLivescore: true, premiumOnly: true, route: "v2/livescore.php"}},
		{"/api/v2/json/KEY/searchteams.php", true, target{version: "v1", file: "searchteams.php", pathKey: "KEY", route: "v1/searchteams.php"}},
		{"/api/v2/json/searchteams.php", true, target{version: "v1", file: "searchteams.php", headerKey: true, route: "v1/searchteams.php"}},
		{"/api/v2/json/KEY/lookup/team/133604", true, target{version: "v2", segments: []string{"lookup", "team", "133604"}, pathKey: "KEY", premiumOnly: true, route: "v2/lookup/team"}},
		{"/api/v2/json/KEY/nothing", false, target{}},
		{"/api/v2/json/", false, target{}},
		{"/api/v3/json/123/all_sports.php", false, target{}},
		{"/", false, target{}},
	}
	for _, c := range cases {
		got, ok := parseTarget(c.path)
		if ok != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.path, ok, c.ok)
			continue
		}
		if ok && !sameTarget(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.path, got, c.want)
		}
	}
}

func sameTarget(a, b target) bool {
	return a.version == b.version && a.file == b.file && strings.Join(a.segments, "/") == strings.Join(b.segments, "/") &&
		a.pathKey == b.pathKey && a.headerKey == b.headerKey && a.legacyLivescore == b.legacyLivescore &&
		a.premiumOnly == b.premiumOnly && a.route == b.route
}

func TestScrubPathHidesKeys(t *testing.T) {
	cases := map[string]string{
		"/api/v1/json/SECRETKEY/searchteams.php":             "/api/v1/json/{key}/searchteams.php",
		"/api/v2/json/SECRETKEY/livescore.php":               "/api/v2/json/{key}/livescore.php",
		"/api/v2/json/SECRETKEY/lookup/team/1":               "/api/v2/json/{key}/lookup/team/1",
		"/api/v2/json/search/team/Arsenal":                   "/api/v2/json/search/team/Arsenal",
		"/api/v2/json/searchteams.php":                       "/api/v2/json/searchteams.php",
		"/api/v1/json/SECRET%2FKEY/all_sports.php":           "/api/v1/json/{key}/all_sports.php",
		"/api/v1/json/SECRETKEY":                             "/api/v1/json/{key}",
		"/api/v1/json/SECRETKEY/":                            "/api/v1/json/{key}/",
		"/api/v2/json/s%65arch/team/Arsenal":                 "/api/v2/json/s%65arch/team/Arsenal",
		"/api/v3/json/SECRETKEY/x":                           "/api/v3/json/SECRETKEY/x",
		"/api/v1/xml/SECRETKEY/x":                            "/api/v1/xml/SECRETKEY/x",
		"/api/v1":                                            "/api/v1",
		"/api/v1/json/SECRETKEY/" + strings.Repeat("a", 300): "/api/v1/json/{key}/" + strings.Repeat("a", 200-19) + "…",
	}
	for in, want := range cases {
		if got := scrubPath(in); got != want {
			t.Errorf("scrubPath(%s) = %s, want %s", in, got, want)
		}
	}
}

// Route names label metrics: they must never carry a parameter, name or key.
func TestRouteNamesAreBounded(t *testing.T) {
	for _, p := range []string{
		"/api/v2/json/search/team/arsenal", "/api/v2/json/livescore/soccer",
		"/api/v2/json/schedule/league/4328/season", "/api/v2/json/filter/tv/channel/sky",
		"/api/v1/json/123/Search%20Teams.php",
	} {
		tg, ok := parseTarget(p)
		if !ok {
			t.Fatalf("%s not parsed", p)
		}
		for _, bad := range []string{"arsenal", "soccer", "4328", "season", "sky", "Search"} {
			if strings.Contains(tg.route, bad) {
				t.Errorf("route %q of %s carries a parameter", tg.route, p)
			}
		}
	}
}

func TestETagAndGzipNegotiation(t *testing.T) {
	e := etagOf([]byte(`{"a":1}`))
	if !etagMatches(e, e) || !etagMatches(`W/`+e, e) || !etagMatches(`"x", `+e, e) || !etagMatches("*", e) || etagMatches(`"x"`, e) {
		t.Fatal("If-None-Match matching is wrong")
	}
	for h, want := range map[string]bool{"gzip": true, "gzip, deflate, br": true, "br": false, "": false, "gzip;q=0": false, "gzip;q=0.5": true} {
		if acceptsGzip(h) != want {
			t.Errorf("acceptsGzip(%q) = %v", h, !want)
		}
	}
}

func TestParseLimits(t *testing.T) {
	got, err := ParseLimits("premium:500, business:1000")
	if err != nil || got["free"] != 30 || got["premium"] != 500 || got["business"] != 1000 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"premium", "gold:10", "free:0", "free:x"} {
		if _, err := ParseLimits(bad); err == nil {
			t.Errorf("ParseLimits(%q) accepted", bad)
		}
	}
}
