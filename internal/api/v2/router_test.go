package v2_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// Raw paths a client can send, through the real server: percent escapes of every kind,
// dot segments, overlong and odd unicode segments. None gets a 5xx or a non-JSON body.
func TestRouterBadPaths(t *testing.T) {
	env := fullEnv(t, apitest.Options{})
	long := strings.Repeat("a", 3000)
	raw := []string{
		"search/team/Arsenal%2FChelsea", "search/team/%2e%2e", "search/team/..", "search/team/.",
		"search/team/%00", "search/team/%zz", "search/team/%", "search/team/%C3%28", "search/team/" + long,
		"search/team/%E2%80%AE", "search/team/%20%20", "search/team/+", "search/team/a%2Fb%2Fc",
		"lookup/team/%31%33%33%36%30%34", "lookup/team/133604%00", "lookup/team/-1", "lookup/team/1e9",
		"lookup/team//", "lookup//133604", "lookup/team/133604/", "lookup/team/133604/extra",
		"schedule/league/4328/..%2F..", "schedule/league/4328", "filter/tv/day/2026-10-05T00:00",
		"filter/tv/day/%32%30%32%36-10-05", "livescore/", "livescore/%E2%9A%BD", "all", "all/", "all//",
		"../v1/json/123/all_sports.php", "search/../lookup/team/133604", "LOOKUP/team/1",
	}
	for _, p := range raw {
		a := env.V2(t, p)
		if a.Status >= 500 || !json.Valid(a.Body) || a.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %q %.200s", p, a.Status, a.Header.Get("Content-Type"), a.Body)
		}
		if a.Status != http.StatusOK && a.Status != http.StatusNotFound {
			t.Errorf("%s: status %d %s", p, a.Status, a.Body)
		}
	}
	if a := env.V2(t, "lookup/team/%31%33%33%36%30%34"); !strings.Contains(string(a.Body), `"idTeam":"133604"`) {
		t.Errorf("an escaped id is still the id: %.200s", a.Body)
	}
}

// What a client sees of keys on v2: premium and business keys in the header or (the alias
// real clients send) as a path segment get the same body; free keys and no key get 400.
func TestRouterKeys(t *testing.T) {
	env := apitest.New(t, apitest.Options{Imports: allFixtures(t)})
	const path = "/api/v2/json/search/team/Arsenal"
	want := env.Get(t, path, "X-API-KEY", env.PremiumKey)
	if want.Status != http.StatusOK || !strings.HasPrefix(string(want.Body), `{"search":[{"idTeam":133604,`) {
		t.Fatalf("premium: %d %.200s", want.Status, want.Body)
	}
	for name, got := range map[string]*apitest.Response{
		"business":    env.Get(t, path, "X-API-KEY", env.BusinessKey),
		"key in path": env.Get(t, "/api/v2/json/"+env.PremiumKey+"/search/team/Arsenal"),
	} {
		if got.Status != http.StatusOK || string(got.Body) != string(want.Body) {
			t.Errorf("%s: %d %.200s", name, got.Status, got.Body)
		}
	}
	for name, got := range map[string]*apitest.Response{
		"free":   env.Get(t, path, "X-API-KEY", env.FreeKey),
		"no key": env.Get(t, path),
	} {
		if got.Status != http.StatusBadRequest || !json.Valid(got.Body) {
			t.Errorf("%s: %d %s", name, got.Status, got.Body)
		}
	}
}
