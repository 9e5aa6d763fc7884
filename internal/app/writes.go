package app

import (
	"net/http"
	"slices"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// writesChain is several server.Writes mounted as one (the records API, the webhooks API):
// the first whose table claims a path answers it.
type writesChain []server.Writes

func (c writesChain) Match(version string, segs []string) (api.Target, bool) {
	for _, w := range c {
		if t, ok := w.Match(version, segs); ok {
			return t, true
		}
	}
	return api.Target{}, false
}

// Serve hands a target to the part whose routes name it; a route no part names
// (api.OtherRoute) to the first part that claims the path, which answers it 404.
func (c writesChain) Serve(w http.ResponseWriter, r *http.Request, t api.Target, k store.Key) {
	for _, part := range c {
		if slices.Contains(part.Routes(), t.Route) {
			part.Serve(w, r, t, k)
			return
		}
	}
	version, segs, _ := api.SplitPath(r.URL.EscapedPath())
	for _, part := range c {
		if _, ok := part.Match(version, segs); ok {
			part.Serve(w, r, t, k)
			return
		}
	}
}

// Preflight allows what any part allows.
func (c writesChain) Preflight() (methods, headers string) {
	var ms, hs []string
	for _, part := range c {
		m, h := part.Preflight()
		ms, hs = union(ms, m), union(hs, h)
	}
	return strings.Join(ms, ", "), strings.Join(hs, ", ")
}

func union(have []string, list string) []string {
	for _, v := range strings.Split(list, ",") {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(have, v) {
			have = append(have, v)
		}
	}
	return have
}

func (c writesChain) Routes() []string {
	var out []string
	for _, part := range c {
		out = append(out, part.Routes()...)
	}
	return out
}
