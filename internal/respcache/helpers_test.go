package respcache

import (
	"net/http"
	"path"

	"sportsdb/internal/store"
)

// testRoute is an endpoint as the tests name it.
type testRoute struct{ Route string }

// parseTarget names the endpoint of a v1 path by its file, as the route table would.
func parseTarget(p string) (testRoute, bool) { return testRoute{Route: "v1/" + path.Base(p)}, true }

// keyOf is the cache key of a premium request for the endpoint.
func keyOf(r *http.Request, t testRoute) string { return Key(r, t.Route, nil, store.Premium) }
