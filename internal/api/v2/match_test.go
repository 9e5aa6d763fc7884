package v2_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/openapi/openapitest"
	"sportsdb/internal/record"
)

type matchAnswer struct {
	Match []struct {
		Score string          `json:"score"`
		Why   string          `json:"why"`
		Event json.RawMessage `json:"event"`
	} `json:"match"`
	Message string `json:"Message"`
}

func getMatch(t *testing.T, env *apitest.Env, q string, headers ...string) (*apitest.Response, matchAnswer) {
	t.Helper()
	if len(headers) == 0 {
		headers = []string{"X-API-KEY", env.PremiumKey}
	}
	r := env.Get(t, "/api/v2/json/match/event?q="+url.QueryEscape(q), headers...)
	var a matchAnswer
	if r.Status == http.StatusOK {
		if err := json.Unmarshal(r.Body, &a); err != nil {
			t.Fatalf("%s: body %s", q, r.Body)
		}
	}
	return r, a
}

// A file name of a demo game is answered with that game first, in lookup/event's view,
// with its score and reasons; at most five events.
func TestMatchEventFindsTheGame(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	ev := pickEvent(t, env, "Arsenal")
	day := strings.ReplaceAll(ev.Str("dateEvent"), "-", ".")
	name := "EPL." + day + "." + strings.ReplaceAll(ev.Str("strHomeTeam"), " ", ".") + ".vs." +
		strings.ReplaceAll(ev.Str("strAwayTeam"), " ", ".") + ".1080p.WEB.h264-GRP.mkv"
	r, a := getMatch(t, env, name)
	if r.Status != http.StatusOK || len(a.Match) == 0 || len(a.Match) > 5 {
		t.Fatalf("%s: status %d, %d matches: %s", name, r.Status, len(a.Match), r.Body)
	}
	var got map[string]any
	if err := json.Unmarshal(a.Match[0].Event, &got); err != nil {
		t.Fatal(err)
	}
	if got["idEvent"] != ev.Str("idEvent") || a.Match[0].Score != "1.00" || !strings.Contains(a.Match[0].Why, "date "+ev.Str("dateEvent")) {
		t.Errorf("first match %v score %s why %q, want event %s scored 1.00 on its date", got["idEvent"], a.Match[0].Score, a.Match[0].Why, ev.Str("idEvent"))
	}
	lookup := env.V2(t, "lookup/event/"+ev.Str("idEvent"))
	var want struct{ Lookup []json.RawMessage }
	if err := json.Unmarshal(lookup.Body, &want); err != nil || len(want.Lookup) != 1 {
		t.Fatalf("lookup: %s", lookup.Body)
	}
	if string(a.Match[0].Event) != string(want.Lookup[0]) {
		t.Errorf("event is not lookup/event's record:\n%s\n%s", a.Match[0].Event, want.Lookup[0])
	}
	if err := openapitest.New(t).Check("/api/v2/json/match/event?q="+url.QueryEscape(name), 200, r.Body); err != nil {
		t.Errorf("the answer is not the OpenAPI document's: %v", err)
	}
}

func pickEvent(t *testing.T, env *apitest.Env, team string) record.Record {
	t.Helper()
	id := pick(t, env, record.Event, "idEvent", func(r record.Record) bool {
		return r.Str("strHomeTeam") == team && r.Str("intHomeScore") != ""
	})
	recs, err := env.Store.Get(t.Context(), record.Event, id)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A name that is no game, an empty or overlong q, and bytes that are no text are
// "No data found"; a free key is refused as on every v2 path.
func TestMatchEventNoGame(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	for _, q := range []string{"Holiday.Video.2024.07.04.mkv", "", "   ", strings.Repeat("a", 401), "\x00\x01"} {
		r, a := getMatch(t, env, q)
		if r.Status != http.StatusOK || a.Message != "No data found" || len(a.Match) != 0 {
			t.Errorf("%.40q: status %d body %.200s, want No data found", q, r.Status, r.Body)
		}
	}
	r, _ := getMatch(t, env, "Arsenal vs Liverpool", "X-API-KEY", env.FreeKey)
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "Premium API key required") {
		t.Errorf("free key: %d %s", r.Status, r.Body)
	}
}

// The example of README.md and docs/MATCHING.md finds the game it names on the demo data.
func TestMatchEventDocumentedExample(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	_, a := getMatch(t, env, "EPL.2026.09.19.Arsenal.vs.Liverpool.1080p.WEB.h264-GRP.mkv")
	var first struct{ StrEvent, DateEvent string }
	if len(a.Match) > 0 {
		_ = json.Unmarshal(a.Match[0].Event, &first)
	}
	if first.StrEvent != "Arsenal vs Liverpool" || first.DateEvent != "2026-09-19" || a.Match[0].Score != "1.00" {
		t.Errorf("documented example: %+v", a)
	}
}
