package server

import (
	"net/http"
	"testing"
)

// The CORS fields go with every API answer, so setting them allocates nothing: the values
// are built once with the policy, for a listed origin too.
func TestCORSSetAllocatesNothing(t *testing.T) {
	for _, origins := range [][]string{nil, {"https://a.example", "https://b.example/"}} {
		p := newCORSPolicy(origins)
		r, _ := http.NewRequest(http.MethodGet, "/api/v1/json/123/all_sports.php", nil)
		r.Header.Set("Origin", "https://b.example")
		h := http.Header{}
		allocs := testing.AllocsPerRun(100, func() {
			clear(h)
			p.set(h, r)
		})
		if allocs != 0 {
			t.Errorf("origins %q: %v allocations an answer, want 0", origins, allocs)
		}
		if got := h.Get("Access-Control-Allow-Origin"); got != map[bool]string{true: "*", false: "https://b.example"}[origins == nil] {
			t.Errorf("origins %q: Allow-Origin %q", origins, got)
		}
	}
}
