package v2

import (
	"net/http"
	"net/url"
	"strings"
	"sync"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
)

// Upstream is a request as an upstream knows it under v2: its path under /api/v2/json/,
// without the key.
func (a *API) Upstream(_ *http.Request, t api.Target) string {
	segs := make([]string, len(t.Args))
	for i, s := range t.Args {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// table is a route table on no store, to read rows by path.
var table = sync.OnceValue(func() *API { return New(api.Deps{Caps: caps.New()}) })

// ClockBound says whether the answer of a path under /api/v2/json/ (escaped, without the key
// or query) depends on the time (its row's Clock).
func ClockBound(path string) bool {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil {
			return false
		}
		segs[i] = u
	}
	a := table()
	if i, ok := a.match(segs); ok {
		return a.routes[i].Clock
	}
	return false
}
