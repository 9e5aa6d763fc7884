package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A valid key on a stream path that names nothing is answered 404, and counts nothing
// against the address's failed key checks: past the guard's limit of such requests, a
// wrong key is still answered 400, not 429.
func TestMalformedStreamPathIsNotFound(t *testing.T) {
	e := newLiveEnv(t, nil)
	paths := []string{"/api/v2/json/stream/livescore/Soccer%20", "/api/v2/json/stream/livescore//",
		"/api/v2/json//stream/livescore", "/api/v2/json/stream/livescore/soccer/extra",
		"/api/v2/json/{key}/stream/livescore/soccer/extra", "/api/v2/json/changes/x"}
	for i := range 30 {
		p := paths[i%len(paths)]
		r := httptest.NewRequest(http.MethodGet, "http://sportsdb.test"+strings.ReplaceAll(p, "{key}", e.premium), nil)
		r.Header.Set("X-API-KEY", e.premium)
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		if w.Code != http.StatusNotFound || w.Body.String() != `{"Message":"Not found"}` {
			t.Fatalf("%s: %d %s, want 404 Not found", p, w.Code, w.Body)
		}
	}
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, mustRequest(t, "/api/v2/json/changes", "wrong-key"))
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a wrong key after the malformed paths: %d %s, want 400 (the paths counted as failed key checks)", w.Code, w.Body)
	}
}
