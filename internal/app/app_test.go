package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// A caps file is checked against the endpoints before any database exists, and its caps
// outlive the APIs' defaults once the server is built.
func TestPrepareChecksCapsFirst(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"v1/searchteamz.php": {"free": 1, "premium": 1}}`), 0o644)
	cfg := config.Defaults()
	cfg.Caps = bad
	if _, err := Prepare(cfg); err == nil || !strings.Contains(err.Error(), `unknown endpoint "v1/searchteamz.php"`) {
		t.Fatalf("bad caps file: %v", err)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"v1/searchteams.php": {"free": 1, "premium": 2}}`), 0o644)
	cfg.Caps = good
	p, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := p.Server(Deps{Store: st, Limiter: ratelimit.NewMemory(clock.System{})})
	defer srv.Close()
	if got := p.caps.Limit("v1/searchteams.php", store.Premium); got != 2 {
		t.Errorf("premium cap %d after the server was built, want the file's 2", got)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("healthz %d", rec.Code)
	}
}

// The browser origins configured reach the server: a listed origin is echoed, another is not.
func TestServerTakesCORSOrigins(t *testing.T) {
	cfg := config.Defaults()
	cfg.CORSOrigins = []string{"https://app.example"}
	p, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := p.Server(Deps{Store: st, Limiter: ratelimit.NewMemory(clock.System{})})
	defer srv.Close()
	for origin, want := range map[string]string{"https://app.example": "https://app.example", "https://other.example": ""} {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/123/all_sports.php", nil)
		req.Header.Set("Origin", origin)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if got := rec.Header().Get("Access-Control-Allow-Origin"); got != want {
			t.Errorf("origin %s: Access-Control-Allow-Origin %q, want %q", origin, got, want)
		}
	}
}
