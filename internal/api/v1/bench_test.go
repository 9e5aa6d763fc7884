package v1_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

// BenchmarkServe measures v1 answers on the demo dataset straight from the store (the
// server's answer cache is not in the way).
func BenchmarkServe(b *testing.B) {
	e := apitest.New(b, apitest.Options{Demo: true, Now: fixtureNow})
	a := v1.New(api.Deps{Store: e.Store, Clock: e.Clock, Caps: caps.New()})
	for _, c := range []struct {
		name string
		tier store.Tier
		fq   string
	}{
		{"lookupteam", store.Free, "lookupteam.php?id=133604"},
		{"searchteams_premium", store.Premium, "searchteams.php?t=ar"},
		{"searchplayers_premium", store.Premium, "searchplayers.php?p=an"},
		{"eventsnext_premium", store.Premium, "eventsnext.php?id=133602"},
		{"eventsday_premium", store.Premium, "eventsday.php?d=2026-10-04"},
		{"search_all_teams", store.Premium, "search_all_teams.php?l=English_Premier_League"},
		{"lookup_all_players_premium", store.Premium, "lookup_all_players.php?id=133604"},
	} {
		file, q, _ := strings.Cut(c.fq, "?")
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/"+file+"?"+q, nil)
			tg, ok := a.Match("v1", []string{"k", file})
			if !ok || !tg.Known() {
				b.Fatalf("%s is no v1 file", file)
			}
			for b.Loop() {
				rec := httptest.NewRecorder()
				a.Serve(rec, req, tg, c.tier)
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}
