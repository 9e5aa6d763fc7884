package v2_test

import (
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/testsupport"
)

// Every recorded v2 response, imported alone into a fresh database with its URL as import
// context, is served back by the real server at that URL (premium key in X-API-KEY) as
// recorded: byte for byte, so the same keys in the same order and numbers where the public
// service sends numbers.
func TestFixturesServedBackAsRecorded(t *testing.T) {
	for _, fx := range apitest.Fixtures(t, "v2") {
		t.Run(fx.Name, func(t *testing.T) {
			env := apitest.New(t, apitest.Options{Imports: []apitest.Import{{Path: fx.File, URL: fx.PathQuery}}})
			if !strings.Contains(fx.Auth, "X-API-KEY") {
				t.Fatalf("v2 fixture not taken with X-API-KEY: %s", fx.Auth)
			}
			got := env.Get(t, fx.PathQuery, "X-API-KEY", env.PremiumKey)
			if got.Status != http.StatusOK {
				t.Fatalf("GET %s: status %d, body %s", fx.PathQuery, got.Status, got.Body)
			}
			if ct := got.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			want := readFile(t, fx.File)
			if diff := testsupport.JSONDiff(got.Body, want); diff != "" {
				t.Fatalf("GET %s: %s", fx.PathQuery, diff)
			}
			if string(got.Body) != string(want) {
				t.Errorf("GET %s: same JSON but not the same bytes as recorded", fx.PathQuery)
			}
		})
	}
}
