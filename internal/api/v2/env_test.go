package v2_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// fixtureNow is when the fixtures were recorded; schedules and TV listings are relative to it.
var fixtureNow = apitest.FixtureNow

// put stores records as they are given.
func put(t testing.TB, st store.Records, recs ...record.Record) {
	t.Helper()
	err := st.Write(context.Background(), func(tx store.Tx) error {
		for _, r := range recs {
			if err := tx.Upsert(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("put: %v", err)
	}
}

// failing is a store whose reads all fail, as a database that went away.
type failing struct {
	store.Records
	err error
}

func (f failing) Find(context.Context, store.Query) ([]record.Record, error) { return nil, f.err }
func (f failing) Get(context.Context, *record.Kind, string) (record.Record, error) {
	return record.Record{}, f.err
}

// testEnv is the real server (routing, keys, cache) through apitest, on the database
// apitest chooses (SQLite, or PostgreSQL with SPORTSDB_TEST_API_DB=postgres), holding every
// recorded response and the hand-made records (see fullEnv).
type testEnv struct{ *apitest.Env }

// fullEnv is a testEnv holding every recorded response, v1 and v2, each with its request as
// context, and a few records of the kinds no recording shows (honours, milestones,
// contracts). The clock is opts.Now (default: when the responses were recorded).
func fullEnv(t testing.TB, opts apitest.Options) *testEnv {
	t.Helper()
	opts.Imports = allFixtures(t)
	if opts.KeyFails == 0 {
		opts.KeyFails = 1 << 30 // bad paths may read as wrong keys in the path; never block them
	}
	env := apitest.New(t, opts)
	put(t, env.Store, handMade()...)
	return &testEnv{env}
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

// get requests a raw path (as a client sends it) with a key of the tier in X-API-KEY.
func (e *testEnv) get(t testing.TB, path string, tier store.Tier) answer {
	t.Helper()
	key := map[store.Tier]string{store.Free: e.FreeKey, store.Premium: e.PremiumKey, store.Business: e.BusinessKey}[tier]
	r := e.Get(t, path, "X-API-KEY", key)
	return answer{status: r.Status, header: r.Header, body: r.Body}
}

// serve requests the v2 path of decoded segments (each escaped, so a "/" stays inside its
// segment) with the premium key.
func (e *testEnv) serve(t testing.TB, segs []string) answer {
	t.Helper()
	esc := make([]string, len(segs))
	for i, s := range segs {
		esc[i] = url.PathEscape(s)
	}
	return e.get(t, "/api/v2/json/"+strings.Join(esc, "/"), store.Premium)
}

// direct answers v2 paths with the API alone over st, without the server's keys and cache:
// for answers to a failing store and for measuring whole answers.
func direct(st store.Records) func(tb testing.TB, path string) answer {
	a := v2.New(api.Deps{Store: st, Clock: clock.Fixed(fixtureNow), Caps: caps.New()})
	return func(tb testing.TB, path string) answer {
		tb.Helper()
		version, segs, ok := api.SplitPath(path)
		tg, matched := a.Match(version, segs)
		if !ok || !matched {
			tb.Fatalf("%s is no v2 path", path)
		}
		w := httptest.NewRecorder()
		a.Serve(w, httptest.NewRequest(http.MethodGet, "/", nil), tg, store.Premium)
		return answer{status: w.Code, header: w.Header(), body: w.Body.Bytes()}
	}
}
