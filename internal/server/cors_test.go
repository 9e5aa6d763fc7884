package server_test

import (
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

const exposed = "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, ETag"

// Every API answer, errors and 429 included, lets browsers on other origins read it, with the
// rate limit fields and the ETag; health and metrics answers do not.
func TestEveryAPIAnswerCarriesCORS(t *testing.T) {
	c := newConfigured(t, func(cfg *server.Config) {
		cfg.Limits = map[store.Tier]int{store.Free: 1, store.Premium: 100, store.Business: 120}
	})
	const origin = "Origin"
	cases := []struct {
		name, path string
		headers    []string
		status     int
		cors       bool
	}{
		{"v1", "/api/v1/json/123/all_sports.php", nil, 200, true},
		{"v1 over the limit", "/api/v1/json/123/all_sports.php", nil, 429, true},
		{"v2", "/api/v2/json/all/sports", []string{"X-API-KEY", c.premiumKey}, 200, true},
		{"v2 missing key", "/api/v2/json/all/sports", nil, 400, true},
		{"unknown key", "/api/v1/json/nope/all_sports.php", nil, 400, true},
		{"unknown file", "/api/v1/json/" + c.premiumKey + "/nope.php", nil, 404, true},
		{"unknown path", "/api/v9/x", nil, 404, true},
		{"health", "/healthz", nil, 200, false},
		{"metrics", "/metrics", nil, 200, false},
	}
	for _, tc := range cases {
		w := c.get(tc.path, "192.0.2.1:1", append([]string{origin, "https://app.example"}, tc.headers...)...)
		h := w.Header()
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, w.Code, tc.status)
		}
		got := h.Get("Access-Control-Allow-Origin") == "*" && h.Get("Access-Control-Expose-Headers") == exposed
		if got != tc.cors {
			t.Errorf("%s: Allow-Origin %q Expose %q, want CORS %v", tc.name, h.Get("Access-Control-Allow-Origin"),
				h.Get("Access-Control-Expose-Headers"), tc.cors)
		}
	}
}

// A preflight on an API path is answered 204 without a key and costs no quota; other methods
// are refused with the methods allowed.
func TestPreflight(t *testing.T) {
	c := newConfigured(t, func(cfg *server.Config) {
		cfg.Limits = map[store.Tier]int{store.Free: 1, store.Premium: 100, store.Business: 120}
	})
	for range 5 {
		w := c.do(http.MethodOptions, "/api/v2/json/all/sports", "192.0.2.1:1", "Origin", "https://app.example",
			"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "x-api-key")
		h := w.Header()
		if w.Code != 204 || w.Body.Len() != 0 || h.Get("Access-Control-Allow-Origin") != "*" ||
			h.Get("Access-Control-Allow-Headers") != "X-API-KEY, If-None-Match" ||
			h.Get("Access-Control-Allow-Methods") != "GET, HEAD" || h.Get("Access-Control-Max-Age") == "" {
			t.Fatalf("preflight: %d %v %s", w.Code, h, w.Body)
		}
		if w := c.do(http.MethodOptions, "/api/v1/json/123/all_sports.php", "192.0.2.1:1"); w.Code != 204 {
			t.Fatalf("v1 preflight: %d", w.Code)
		}
	}
	if w := c.get("/api/v1/json/123/all_sports.php", "192.0.2.1:1"); w.Code != 200 {
		t.Fatalf("after preflights the free key's only request: %d, want 200", w.Code)
	}
	if m := c.get("/metrics", "192.0.2.1:1").Body.String(); !strings.Contains(m, `sportsdb_http_requests_total{code="204",route="preflight"} 10`) {
		t.Errorf("preflights are not counted under their own route:\n%s", m)
	}
	for _, tc := range []struct{ method, path, allow string }{
		{http.MethodPost, "/api/v1/json/123/all_sports.php", "GET, HEAD, OPTIONS"},
		{http.MethodOptions, "/metrics", "GET, HEAD"},
	} {
		w := c.do(tc.method, tc.path, "192.0.2.1:1")
		if w.Code != 405 || w.Header().Get("Allow") != tc.allow || w.Body.String() != `{"Message":"Method not allowed"}` {
			t.Errorf("%s %s: %d Allow %q %s", tc.method, tc.path, w.Code, w.Header().Get("Allow"), w.Body)
		}
	}
}

// With a list of origins, a listed origin is echoed and others get no Allow-Origin; the
// answer varies by Origin, also when it comes from the response cache.
func TestCORSOriginList(t *testing.T) {
	c := newConfigured(t, func(cfg *server.Config) { cfg.CORSOrigins = []string{"https://a.example", "https://b.example/"} })
	cases := []struct{ origin, want string }{
		{"https://a.example", "https://a.example"},
		{"https://b.example", "https://b.example"},
		{"https://evil.example", ""},
		{"", ""},
	}
	for _, tc := range cases {
		for _, path := range []string{"/api/v1/json/123/all_sports.php", "/api/v1/json/nope/all_sports.php"} {
			w := c.get(path, "192.0.2.1:1", "Origin", tc.origin)
			h := w.Header()
			if h.Get("Access-Control-Allow-Origin") != tc.want {
				t.Errorf("%s from %q: Allow-Origin %q, want %q", path, tc.origin, h.Get("Access-Control-Allow-Origin"), tc.want)
			}
			vary := h.Values("Vary")
			if len(vary) != 1 || (vary[0] != "Origin" && vary[0] != "Origin, Accept-Encoding") {
				t.Errorf("%s from %q: Vary %q", path, tc.origin, vary)
			}
			if (tc.want != "") != (h.Get("Access-Control-Expose-Headers") == exposed) {
				t.Errorf("%s from %q: Expose-Headers %q", path, tc.origin, h.Get("Access-Control-Expose-Headers"))
			}
		}
	}
	if v := c.get("/api/v1/json/123/all_sports.php", "192.0.2.1:1").Header().Get("Vary"); v != "Origin, Accept-Encoding" {
		t.Errorf("cached answer: Vary %q, want Origin, Accept-Encoding", v)
	}
}
