package api

import (
	"slices"
	"strings"
	"testing"
)

// SplitPath reads the prefix exactly as sent: no decoding, no cleaning, so a path that is an
// API path only once cleaned is none; segments are decoded one by one.
func TestSplitPath(t *testing.T) {
	for _, c := range []struct {
		raw     string
		version string
		segs    []string
	}{
		{"/api/v1/json/123/all_sports.php", "v1", []string{"123", "all_sports.php"}},
		{"/api/v2/json/search/team/Real%20Madrid", "v2", []string{"search", "team", "Real Madrid"}},
		{"/api/v2/json/search/team/a%2Fb", "v2", []string{"search", "team", "a/b"}},
		{"/api/v2/json/", "v2", []string{""}},
		{"/api/v1/json//x.php", "v1", []string{"", "x.php"}},
		{"/api/v1/json", "", nil},
		{"/api/v3/json/123/x.php", "", nil},
		{"//api/v1/json/123/x.php", "", nil},
		{"/API/v1/json/123/x.php", "", nil},
		{"/%61pi/v1/json/123/x.php", "", nil},
		{"/api/v1/JSON/123/x.php", "", nil},
		{"/api/v1/json/123/%zz.php", "", nil},
		{"/api/v1/json/123/" + strings.Repeat("a", 3*MaxSegment+1), "", nil},
	} {
		version, segs, ok := SplitPath(c.raw)
		if ok != (c.version != "") || version != c.version || !slices.Equal(segs, c.segs) {
			t.Errorf("SplitPath(%.60s) = %q %q %v", c.raw, version, segs, ok)
		}
	}
}
