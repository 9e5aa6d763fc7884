package v1_test

import (
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

// Every HTTP test goes through the real server (routing, keys, cache) on a real database.

var fixtureNow = apitest.FixtureNow

type resp = apitest.Response

type env struct {
	*apitest.Env
	st store.Store
}

func newEnv(t testing.TB, now time.Time, imports ...apitest.Import) *env {
	t.Helper()
	e := apitest.New(t, apitest.Options{Imports: imports, Now: now})
	return &env{Env: e, st: e.Store}
}

// key returns the env's key of a tier.
func (e *env) key(tier store.Tier) string {
	switch tier {
	case store.Premium:
		return e.PremiumKey
	case store.Business:
		return e.BusinessKey
	}
	return e.FreeKey
}

// get requests a v1 file and query with a key of the tier.
func (e *env) get(t testing.TB, tier store.Tier, fileAndQuery string) *resp {
	t.Helper()
	return e.V1(t, e.key(tier), fileAndQuery)
}

func (e *env) free(t testing.TB, fq string) *resp { return e.get(t, store.Free, fq) }

func wantStatus(t testing.TB, r *resp, status int, body string) {
	t.Helper()
	if r.Status != status || (body != "" && string(r.Body) != body) {
		t.Fatalf("got %d %q, want %d %q", r.Status, r.Body, status, body)
	}
}

// fixtureURL is a fixture's request with the published free key in place of {key}.
func fixtureURL(fx apitest.Fixture) string { return strings.ReplaceAll(fx.PathQuery, "{key}", "123") }
