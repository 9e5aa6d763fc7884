package records_test

import (
	"strconv"
	"strings"
	"testing"
)

// A score update reaches every cached answer that lists the event (its day, its league's
// season and next events, its teams' schedules, in v1 and v2) at once; those answers are
// computed again from the records their queries kept, brought up to date with the write,
// not from the store: the server's metrics count the queries answered so.
func TestScoreUpdateReachesAnswersFromKeptRecords(t *testing.T) {
	e := newEnv(t)
	e.fixture(t, fixtureEvent)
	v1 := []string{"eventsday.php?d=2026-10-10", "eventsseason.php?id=9100001&s=2026-2027", "eventsnextleague.php?id=9100001",
		"eventsnext.php?id=9000001"}
	v2 := []string{"schedule/league/9100001/2026-2027", "schedule/next/team/9000002"}
	ask := func() []string {
		var bodies []string
		for _, p := range v1 {
			bodies = append(bodies, string(e.V1(t, e.PremiumKey, p).Body))
		}
		for _, p := range v2 {
			bodies = append(bodies, string(e.V2(t, p).Body))
		}
		return bodies
	}
	kept := func() int { return e.metric(t, `sportsdb_response_cache_finds_total{source="kept"}`) }
	for i, body := range ask() {
		if !strings.Contains(body, `"idEvent":"9200001"`) || !strings.Contains(body, `"intHomeScore":null`) {
			t.Fatalf("before the goal, answer %d: %.300s", i, body)
		}
	}
	before := kept()
	for goals := 1; goals <= 3; goals++ {
		want(t, "goal", e.send(t, "PATCH", eventPath, e.editor, `{"intHomeScore":"`+strconv.Itoa(goals)+`"}`), 200, "")
		for i, body := range ask() {
			if !strings.Contains(body, `"intHomeScore":"`+strconv.Itoa(goals)+`"`) {
				t.Errorf("after goal %d, answer %d: %.300s", goals, i, body)
			}
		}
	}
	if n := kept() - before; n < 3*len(v1) {
		t.Errorf("%d queries answered from kept records over three writes, want at least %d", n, 3*len(v1))
	}
}

// metric reads a counter from /metrics (0 before its first count).
func (e *env) metric(t *testing.T, series string) int {
	t.Helper()
	for _, line := range strings.Split(string(e.Get(t, "/metrics").Body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("metrics: %q", line)
			}
			return n
		}
	}
	return 0
}

// An edit of a team reaches the searches its names meet, before or after the edit, at once
// (its alternate names too, a list); the cached searches for other names stay as they are,
// and are answered from the cache.
func TestTeamEditLeavesOtherSearchesCached(t *testing.T) {
	e := newEnv(t)
	e.fixture(t, fixtureEvent)
	hits := func() int { return e.metric(t, `sportsdb_response_cache_total{result="hit"}`) }
	searches := map[string]string{ // a search of each team's name, and of an alternate name
		"riverside": "searchteams.php?t=Riverside", "hillside": "searchteams.php?t=Hillside",
		"gunners": "searchteams.php?t=Gunners", "town": "searchteams.php?t=Town",
	}
	for _, p := range searches {
		e.V1(t, e.PremiumKey, p)
	}
	want(t, "edit", e.send(t, "PATCH", "/api/v2/json/records/team/9000002", e.editor,
		`{"strKeywords":"hill, town","strTeamAlternate":"The Gunners"}`), 200, "")
	before := hits()
	for what, p := range searches {
		r := e.V1(t, e.PremiumKey, p)
		switch what {
		case "riverside":
			if !strings.Contains(string(r.Body), `"strTeam":"Riverside FC"`) {
				t.Errorf("%s: %s", p, r.Body)
			}
		case "hillside", "gunners": // by its name; by the alternate name it has now
			if !strings.Contains(string(r.Body), `"strKeywords":"hill, town"`) {
				t.Errorf("%s after the edit: %s", p, r.Body)
			}
		case "town":
			if !strings.Contains(string(r.Body), `{"teams":null}`) {
				t.Errorf("%s: %s", p, r.Body)
			}
		}
	}
	// Riverside's search and the search of a name no team has were not touched by the edit.
	if got := hits() - before; got != 2 {
		t.Errorf("%d searches answered from the cache after the edit, want 2 (riverside, town)", got)
	}
}
