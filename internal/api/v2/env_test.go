package v2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// fixtureNow is when the fixtures were recorded; schedules and TV listings are relative to it.
var fixtureNow = apitest.FixtureNow

// openStore opens a fresh SQLite database for one test.
func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "v2.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// importFixture loads a recorded response with the importer, the request it answered
// supplying what the body leaves out (a season list's league, a highlight list's day).
func importFixture(t testing.TB, st store.Records, file, reqURL string) {
	t.Helper()
	// A recorded "No data found" holds no records: nothing to load, and no failure.
	_, err := ingest.Import(context.Background(), st, []string{file}, ingest.Options{SourceURL: reqURL})
	if err != nil && !errors.Is(err, ingest.ErrNoRecords) {
		t.Fatalf("import %s: %v", file, err)
	}
}

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

// testEnv answers v2 paths the way the server hands them over: the path after
// /api/v2/json/ split on "/" and percent-decoded per segment, with a premium key's tier.
type testEnv struct {
	api *v2.API
	st  store.Records
}

func newTestEnv(st store.Records, now time.Time) *testEnv {
	return &testEnv{api: v2.New(api.Deps{Store: st, Clock: clock.Fixed(now), Caps: caps.New()}), st: st}
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (e *testEnv) get(t testing.TB, path string, tier store.Tier) answer {
	t.Helper()
	rest, ok := strings.CutPrefix(path, "/api/v2/json/")
	if !ok {
		t.Fatalf("not a v2 path: %s", path)
	}
	var segs []string
	for _, s := range strings.Split(rest, "/") {
		d, err := url.PathUnescape(s)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		segs = append(segs, d)
	}
	return e.getSegs(t, segs, tier)
}

func (e *testEnv) getSegs(t testing.TB, segs []string, tier store.Tier) answer {
	t.Helper()
	w := httptest.NewRecorder()
	e.api.Serve(w, httptest.NewRequest(http.MethodGet, "/", nil), segs, tier)
	res := w.Result()
	body, _ := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: body}
}

// jsonTokens lists a JSON document's tokens: keys in order, numbers apart from strings.
func jsonTokens(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%T:%v", tok, tok))
	}
}

// sameJSON says where two JSON documents first differ, keeping key order and the type of
// every value; "" when they are the same.
func sameJSON(got, want []byte) string {
	g, err := jsonTokens(got)
	if err != nil {
		return "got is not JSON: " + err.Error()
	}
	w, err := jsonTokens(want)
	if err != nil {
		return "want is not JSON: " + err.Error()
	}
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("token %d: got %s, want %s", i, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		return fmt.Sprintf("got %d tokens, want %d", len(g), len(w))
	}
	return ""
}
