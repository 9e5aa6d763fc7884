package v1_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/openapi/openapitest"
)

// Every golden answer validates against the OpenAPI document's schema of its path and status.
func TestGoldenMatchesOpenAPI(t *testing.T) {
	v := openapitest.New(t)
	for _, g := range goldens {
		body, err := os.ReadFile(filepath.Join("testdata", "golden", g.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		path := "/api/v1/json/123/" + g.path
		if g.path[0] == '/' {
			path = strings.ReplaceAll(g.path, "{key}", "123")
		}
		status := 200
		if g.name == "not_found" {
			status = 404
		}
		if err := v.Check(path, status, body); err != nil {
			t.Errorf("%s: %v", g.name, err)
		}
	}
}
