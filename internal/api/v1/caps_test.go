package v1_test

import (
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

// TestCapsRegistered: every file has its cap in the shared table, with docs/CONTRACT.md's figures.
func TestCapsRegistered(t *testing.T) {
	table := caps.New()
	v1.New(api.Deps{Caps: table})
	want := map[string][2]int{
		"searchteams.php": {1, 100}, "lookuptable.php": {5, 100}, "lookupplayerstats.php": {10, 10000},
		"all_countries.php": {50, 500}, "all_leagues.php": {10, 3000}, "eventsday.php": {3, 1500},
		"eventshighlights.php": {2, 50}, "eventsseason.php": {15, 3000}, "eventstv.php": {1, 1500},
		"livescore.php": {caps.Ceiling, caps.Ceiling}, "eventsround.php": {caps.Ceiling, caps.Ceiling},
	}
	// lookup_all_teams.php answers with search_all_teams.php's caps (docs/CONTRACT.md section 5).
	shared := map[string]string{"lookup_all_teams.php": "v1/search_all_teams.php"}
	for _, f := range v1.Files() {
		name := "v1/" + f
		if s, ok := shared[f]; ok {
			name = s
		}
		free, premium := table.Limit(name, store.Free), table.Limit(name, store.Premium)
		if w, ok := want[f]; ok && (free != w[0] || premium != w[1]) {
			t.Errorf("%s: caps %d/%d, want %d/%d", f, free, premium, w[0], w[1])
		}
		if free > premium || table.Limit(name, store.Business) != premium {
			t.Errorf("%s: free %d, premium %d, business %d", f, free, premium, table.Limit(name, store.Business))
		}
	}
	if got := len(table.Names()); got != len(v1.Files())-len(shared) {
		t.Errorf("%d caps registered for %d files", got, len(v1.Files()))
	}
}

// TestCapsFile: an operator's caps file changes what a call returns.
func TestCapsFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "caps.json")
	if err := os.WriteFile(file, []byte(`{"v1/eventshighlights.php":{"free":5,"premium":7}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := &env{Env: apitest.New(t, apitest.Options{Now: fixtureNow, CapsFile: file})}
	e.st = e.Store
	put(t, e.st, world()...)
	rule{path: "eventshighlights.php?d=2026-10-04", key: "tvhighlights", field: "idEvent", want: ids(5000, 5)}.check(t, e)
	rule{tier: store.Premium, path: "eventshighlights.php?d=2026-10-04", key: "tvhighlights", field: "idEvent", want: ids(5000, 7)}.check(t, e)
}

// TestV2LivescoreAlias: the older premium feed answers live scores under "events", narrowed
// by league l; free keys are refused by the server.
func TestV2LivescoreAlias(t *testing.T) {
	e := newEnv(t, fixtureNow)
	put(t, e.st, world()...)
	res := e.Get(t, "/api/v2/json/"+e.PremiumKey+"/livescore.php?s=Soccer&l=4335")
	wantStatus(t, res, 200, "")
	if got := listField(t, res.Body, "events", "idLiveScore"); len(got) != 1 || got[0] != "2" {
		t.Fatalf("idLiveScore %q, want [2]", got)
	}
	res = e.Get(t, "/api/v2/json/"+e.BusinessKey+"/livescore.php?s=Soccer")
	if got := listField(t, res.Body, "events", "idLiveScore"); len(got) != 2 {
		t.Fatalf("business: idLiveScore %q, want two", got)
	}
	if res := e.Get(t, "/api/v2/json/123/livescore.php?s=Soccer"); res.Status != 400 {
		t.Fatalf("free key: status %d, want 400", res.Status)
	}
}
