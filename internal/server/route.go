package server

import (
	"sportsdb/internal/api"
	"sportsdb/internal/calendar"
	"sportsdb/internal/live"
	"sportsdb/internal/openapi"
	"sportsdb/internal/xmltv"
)

// maxSegment bounds a segment of the server's own paths (calendars) as the APIs bound theirs.
const maxSegment = api.MaxSegment

// target is an API path, as the route table of the API that owns it reads it.
type target struct {
	api.Target
	// mount is the API whose table recognised the path; it answers the request.
	mount api.Mount
}

// mounts are the APIs in the order their tables are asked. v2 comes first: a v2 group as
// the first segment wins over reading that segment as a key (/api/v2/json/search/x.php is
// v2's), as it always has.
func (s *Server) mounts() [2]api.Mount { return [2]api.Mount{s.v2, s.v1} }

// match asks each API's table whether the escaped path is its own. ok is false for a path
// that is no API path (404 before any key is checked).
func (s *Server) match(rawPath string) (t target, ok bool) {
	version, segs, ok := api.SplitPath(rawPath)
	if !ok {
		return t, false
	}
	for _, m := range s.mounts() {
		if at, ok := m.Match(version, segs); ok {
			return target{Target: at, mount: m}, true
		}
	}
	return t, false
}

// routeNames are every route name the tables can give, and the names of the server's own
// paths: the fixed label set of the metrics.
func (s *Server) routeNames() []string {
	names := []string{api.OtherRoute, "healthz", "readyz", "metrics", routePreflight}
	for _, sc := range calendar.Scopes {
		names = append(names, "calendar/"+string(sc))
	}
	names = append(names, openapi.Routes...)
	names = append(names, xmltv.Routes...)
	names = append(names, live.Routes()...)
	for _, m := range s.mounts() {
		names = append(names, m.Routes()...)
	}
	return names
}
