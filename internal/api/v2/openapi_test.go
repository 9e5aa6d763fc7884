package v2_test

import (
	"path/filepath"
	"testing"

	"sportsdb/internal/openapi/openapitest"
)

// Every golden answer validates against the OpenAPI document's schema of its path and
// status, asked with the key in X-API-KEY as the golden test asks it.
func TestGoldenMatchesOpenAPI(t *testing.T) {
	v := openapitest.New(t)
	for _, c := range goldenCases {
		body := readFile(t, filepath.Join("testdata", "golden", c.name+".json"))
		status := 200
		if c.name == "not_found" {
			status = 404
		}
		if err := v.Check("/api/v2/json/"+c.path, status, body); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
