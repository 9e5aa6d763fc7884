package v1

import (
	"net/http"

	"sportsdb/internal/api"
)

// Upstream is a request as an upstream knows it under v1: the row's file, whatever the
// version in the request's path, and the query.
func (a *API) Upstream(r *http.Request, t api.Target) string {
	file := a.rows.list[t.Row].Path
	if r.URL.RawQuery == "" {
		return file
	}
	return file + "?" + r.URL.RawQuery
}

// ClockBound says whether the answer of a v1 file depends on the time (its row's Clock).
func ClockBound(file string) bool {
	if file == legacyLivescore.Path {
		return legacyLivescore.Clock
	}
	for _, ep := range endpoints {
		if ep.Path == file {
			return ep.Clock
		}
	}
	return false
}
