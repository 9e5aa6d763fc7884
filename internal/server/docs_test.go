package server_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/openapi/openapitest"
	"sportsdb/internal/ratelimit"
)

// The document and the reference page are the server's own paths: no key, no rate limit,
// the CORS fields of API answers, and their own metrics labels.
func TestDocsAreServedWithoutKey(t *testing.T) {
	env := apitest.New(t, apitest.Options{Limiter: ratelimit.NewMemory(clock.System{})})
	for _, c := range []struct {
		path, ctype, contains string
	}{
		{"/openapi.json", "application/json", `"openapi":"3.1.0"`},
		{"/openapi.yaml", "application/yaml", `"openapi":"3.1.0"`},
		{"/docs", "text/html; charset=utf-8", `<div id="swagger-ui">`},
		{"/docs/docs.js", "text/javascript; charset=utf-8", `url: "/openapi.json"`},
		{"/docs/swagger-ui-bundle.js", "text/javascript; charset=utf-8", "SwaggerUIBundle"},
		{"/docs/swagger-ui.css", "text/css; charset=utf-8", ".swagger-ui"},
		{"/docs/LICENSE", "text/plain; charset=utf-8", "Apache License"},
	} {
		// More requests than any tier's limit: none is counted.
		var res *apitest.Response
		for range 35 {
			res = env.Get(t, c.path, "Origin", "https://example.org")
		}
		if res.Status != 200 || res.Header.Get("Content-Type") != c.ctype || !strings.Contains(string(res.Body), c.contains) {
			t.Errorf("%s: %d %q %.80q", c.path, res.Status, res.Header.Get("Content-Type"), res.Body)
		}
		if res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no CORS field", c.path)
		}
		if res.Header.Get("X-RateLimit-Limit") != "" {
			t.Errorf("%s: rate limited", c.path)
		}
	}
	if csp := env.Get(t, "/docs").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("/docs CSP %q", csp)
	}
	for _, p := range []string{"/docs/", "/docs/nothing.js", "/docs/../openapi.json"} {
		res := env.Get(t, p)
		if res.Status != 404 || string(res.Body) != `{"Message":"Not found"}` {
			t.Errorf("%s: %d %s", p, res.Status, res.Body)
		}
	}
	metrics := string(env.Get(t, "/metrics").Body)
	for _, label := range []string{`route="openapi"`, `route="docs"`} {
		if !strings.Contains(metrics, label) {
			t.Errorf("/metrics has no %s", label)
		}
	}
}

// The served document is the one the tests validate answers against, built from the
// server's own tables (its caps included), and the answers the server gives validate.
func TestServedDocumentDescribesTheServer(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	raw := env.Get(t, "/openapi.json").Body
	v, err := openapitest.FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) < 200 {
		t.Errorf("%d paths", len(doc.Paths))
	}
	for _, c := range []struct {
		path, key string
	}{
		{"/api/v1/json/123/all_sports.php", ""},
		{"/api/v1/json/123/searchteams.php?t=nobody", ""},
		{"/api/v2/json/all/countries", env.PremiumKey},
		{"/api/v2/json/" + env.PremiumKey + "/search/team/nobody", ""},
		{"/api/v2/json/all/countries", env.FreeKey},
		{"/api/v1/json/wrong/all_sports.php", ""},
		{"/api/v2/json/lookup/nothing/1", env.PremiumKey},
		{"/calendar/wrong/team/1.ics", ""},
		{"/api/v2/json/changes", env.PremiumKey},
		{"/api/v2/json/" + env.PremiumKey + "/changes?since=1&kinds=team&limit=5", ""},
		{"/api/v2/json/changes?since=999999", env.PremiumKey},
		{"/api/v2/json/changes?limit=ten", env.PremiumKey},
	} {
		res := env.Get(t, c.path, "X-API-KEY", c.key)
		if err := v.Check(c.path, res.Status, res.Body); err != nil {
			t.Error(err)
		}
	}
}

// Clients that do not take gzip get the renderer's files as they are; the others get the
// embedded gzip.
func TestDocsAssetsEncoding(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	get := func(enc string) *http.Response {
		req := httptest.NewRequest("GET", "/docs/swagger-ui.css", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		w := httptest.NewRecorder()
		env.Server.ServeHTTP(w, req)
		return w.Result()
	}
	plain, _ := io.ReadAll(get("").Body)
	res := get("gzip, br")
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, unzipped) || len(plain) < 100000 {
		t.Errorf("gzip and plain differ (%d, %d bytes)", len(plain), len(unzipped))
	}
}
