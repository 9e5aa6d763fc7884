package openapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/openapi"
)

// A server under --compat lenient describes its lenient rows: each file with its route, the
// cap of the row it stands beside, and every parameter it reads.
func TestLenientRowsDescribed(t *testing.T) {
	table := caps.New()
	d := api.Deps{Caps: table, Lenient: true}
	raw, err := openapi.Build(openapi.For(v1.New(d), v2.New(d), table, "test"))
	if err != nil {
		t.Fatal(err)
	}
	var doc document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"eventsround.php", "lookuphonors.php", "searchloves.php", "searchvenues.php", "search_all_leagues.php"} {
		op := doc.Paths["/api/v1/json/{key}/"+file]["get"]
		if op.Route != "v1/lenient/"+file || op.Caps["free"] == 0 {
			t.Errorf("%s: route %q caps %v", file, op.Route, op.Caps)
		}
	}
	if !strings.Contains(string(raw), "read as `v` when `v` is not sent") {
		t.Error("searchvenues.php's t is not described as lenient reads it")
	}
}
