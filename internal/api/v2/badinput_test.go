package v2_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

// badValues are path segments no client should send; each must get a clear JSON answer.
var badValues = []string{
	"", " ", "  x  ", "a b", "/", "a/b", ".", "..", "../..", "../../etc/passwd", "%", "%zz",
	"_", "+", "-1", "+1", "1.5", "1e3", "0x10", "99999999999999999999999", "0", "2026-13-45",
	"2026-02-30", "' OR 1=1 --", "\"", "\\", "\x00", "\xff\xfe", "ü𝔘", "名前", "\u202e", "\t\n",
	strings.Repeat("x", 5000), strings.Repeat("9", 300), strings.Repeat("é", 300),
}

// maxRawSegment is the longest escaped path segment the server reads (api.SplitPath).
const maxRawSegment = 3 * 512

// checkAnswer fails unless the answer is one a client can read: 200 with JSON, 404 with
// the Not found body, or 400 Invalid API key (a bad first segment before a group reads as a
// key in the path). Never a 5xx.
func checkAnswer(t testing.TB, path string, a answer) {
	t.Helper()
	if a.status >= 500 {
		t.Fatalf("%.80q: status %d: %.200s", path, a.status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%.80q: Content-Type %q", path, ct)
	}
	if !json.Valid(a.body) {
		t.Fatalf("%.80q: body is not JSON: %.200q", path, a.body)
	}
	switch a.status {
	case http.StatusOK:
	case http.StatusNotFound:
		if string(a.body) != `{"Message":"Not found"}` {
			t.Fatalf("%.80q: 404 body %.200s", path, a.body)
		}
	case http.StatusBadRequest:
		if string(a.body) != `{"Message":"Invalid API key"}` {
			t.Fatalf("%.80q: 400 body %.200s", path, a.body)
		}
	default:
		t.Fatalf("%.80q: status %d: %.200s", path, a.status, a.body)
	}
}

// specPaths are the v2 paths of docs/CONTRACT.md section 2, parameters in braces.
var specPaths = []string{
	"search/league/{name}", "search/player/{name}", "search/event/{name}", "search/venue/{name}", "search/team/{name}",
	"lookup/league/{id}", "lookup/team/{id}", "lookup/player/{id}", "lookup/event/{id}", "lookup/venue/{id}",
	"lookup/event_highlights/{id}", "lookup/team_equipment/{id}", "lookup/player_contracts/{id}",
	"lookup/player_results/{id}", "lookup/player_honours/{id}", "lookup/player_milestones/{id}",
	"lookup/player_teams/{id}", "lookup/player_stats/{id}", "lookup/event_lineup/{id}", "lookup/event_results/{id}",
	"lookup/event_stats/{id}", "lookup/event_timeline/{id}", "lookup/event_tv/{id}",
	"list/teams/{id}", "list/seasons/{id}", "list/players/{id}", "list/seasonposters/{id}",
	"all/countries", "all/sports", "all/leagues",
	"schedule/next/league/{id}", "schedule/previous/league/{id}", "schedule/next/team/{id}",
	"schedule/previous/team/{id}", "schedule/next/venue/{id}", "schedule/previous/venue/{id}",
	"schedule/full/team/{id}", "schedule/league/{id}/{season}",
	"filter/tv/day/{date}", "filter/tv/country/{name}", "filter/tv/sport/{name}", "filter/tv/channel/{name}",
	"filter/tv/channelid/{id}", "livescore/{sportOrLeague}", "livescore/all",
}

// Every endpoint answers its good path with records from the recorded data.
func TestEveryEndpointAnswers(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	for _, p := range specPaths {
		segs := goodPath(t, p)
		a := e.serve(t, segs)
		checkAnswer(t, p, a)
		if a.status != http.StatusOK {
			t.Errorf("%s: status %d", p, a.status)
		}
	}
}

func TestBadInputInEverySegment(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	for _, p := range specPaths {
		pattern := strings.Split(p, "/")
		good := goodPath(t, p)
		for i := range pattern {
			for _, bad := range badValues {
				segs := append([]string(nil), good...)
				segs[i] = bad
				a := e.serve(t, segs)
				checkAnswer(t, strings.Join(segs, "/"), a)
				// A bad parameter is "no data", never "no such endpoint", unless it is
				// longer than any path segment the server reads.
				if strings.HasPrefix(pattern[i], "{") && a.status != http.StatusOK && len(url.PathEscape(bad)) <= maxRawSegment {
					t.Errorf("%s with %.40q as %s: status %d", p, bad, pattern[i], a.status)
				}
			}
		}
		for n := range good {
			checkAnswer(t, "missing", e.serve(t, good[:n]))
		}
		for _, extra := range []string{"x", "1", "..", "a/b"} {
			a := e.serve(t, append(append([]string(nil), good...), extra))
			checkAnswer(t, "extra", a)
			if a.status != http.StatusNotFound && !strings.HasPrefix(p, "livescore/") {
				t.Errorf("%s + %q: status %d, want 404", p, extra, a.status)
			}
		}
	}
}

// Parameters that cannot name anything are answered "No data found", not an error.
func TestUnusableParametersAreNoData(t *testing.T) {
	e := fullEnv(t, apitest.Options{})
	for _, path := range []string{
		"lookup/team/Arsenal", "lookup/team/-1", "lookup/team/1.5", "lookup/team/",
		"lookup/team/99999999999999999999999", "schedule/league/4328/", "filter/tv/day/2026-02-30",
		"filter/tv/day/05-10-2026", "filter/tv/day/2026-10-5", "search/team/_", "search/team/%20",
		"search/event/Arsenal", "list/teams/EPL", "filter/tv/channelid/TSN", "search/team/%00",
		"search/team/Arsenal%00", "search/team/%C3%28", "filter/tv/channel/%09", "livescore/%7F",
		"search/team/%25", "filter/tv/channel/%25", "search/team/*", "search/league/%5C",
	} {
		a := e.get(t, "/api/v2/json/"+path, store.Premium)
		if a.status != http.StatusOK || string(a.body) != `{"Message":"No data found"}` {
			t.Errorf("%s: %d %s", path, a.status, a.body)
		}
	}
}

// goodPath fills a route's parameters with values that exist in fullStore.
func goodPath(t testing.TB, path string) []string {
	t.Helper()
	fill := map[string]string{"{name}": "Arsenal", "{id}": "4328", "{date}": "2026-10-05",
		"{season}": "2026-2027", "{sportOrLeague}": "Soccer"}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if v, ok := fill[s]; ok {
			segs[i] = v
		}
	}
	return segs
}
