package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlite"
)

// A calendar is an answer of the response cache like any other: asked again, or with the
// ETag the client holds, it is not computed again (no read reaches the store) until a
// change touches its league; a change to another league leaves it cached.
func TestCalendarServedFromTheResponseCache(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	counting := &countingStore{Store: st}
	srv, premium, _ := serveStore(t, counting, nil)
	league := record.League.NewRecord()
	league.Set("idLeague", record.Str("100"))
	league.Set("strLeague", record.Str("Test League"))
	league.Set("strCurrentSeason", record.Str("2025-2026"))
	upsert(t, st, league, leagueEvent("1", "100", "2026-01-10", "A1 vs A2"), leagueEvent("2", "200", "2026-01-11", "B1 vs B2"))

	path := "/calendar/" + premium + "/league/100.ics"
	get := func(step, etag string, wantStatus int, wantComputed bool) *httptest.ResponseRecorder {
		t.Helper()
		before := counting.reads.Load()
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if etag != "" {
			r.Header.Set("If-None-Match", etag)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		reads := counting.reads.Load() - before
		if w.Code != wantStatus || (reads > 0) != wantComputed {
			t.Fatalf("%s: %d with %d reads of the store; want %d, computed %v: %.300s", step, w.Code, reads, wantStatus, wantComputed, w.Body)
		}
		return w
	}
	first := get("first", "", http.StatusOK, true)
	etag := first.Header().Get("ETag")
	if etag == "" || first.Header().Get("Content-Type") != "text/calendar; charset=utf-8" ||
		first.Header().Get("Cache-Control") != "private, max-age=300" || !strings.Contains(first.Body.String(), "A1 vs A2") {
		t.Fatalf("first: %v %s", first.Header(), first.Body)
	}
	if again := get("again", "", http.StatusOK, false); again.Body.String() != first.Body.String() || again.Header().Get("ETag") != etag {
		t.Fatal("asked again: another answer")
	}
	get("with its ETag", etag, http.StatusNotModified, false)
	upsert(t, st, leagueEvent("3", "200", "2026-01-12", "B3 vs B4"))
	get("another league changed", etag, http.StatusNotModified, false)
	upsert(t, st, leagueEvent("4", "100", "2026-01-13", "A3 vs A4"))
	if w := get("its league changed", etag, http.StatusOK, true); !strings.Contains(w.Body.String(), "A3 vs A4") {
		t.Fatalf("after the change: %s", w.Body)
	}
}
