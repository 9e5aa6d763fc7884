package server

import (
	"net/http"

	"sportsdb/internal/api"
)

// serveWrites answers a path of Mounts.Writes, any method, and returns the route it names:
// a preflight as every API path's (no key, no quota), anything else with its key checked
// and counted, outside the response cache. A refused key names no endpoint.
func (s *Server) serveWrites(w http.ResponseWriter, r *http.Request, t target, addr string) string {
	if r.Method == http.MethodOptions {
		methods, headers := s.cfg.Mounts.Writes.Preflight()
		return preflight(w, []string{methods}, []string{headers})
	}
	route := t.Route
	ctx := s.requestContext(r, route)
	defer ctx.stop()
	r = r.WithContext(ctx)
	k, ok := s.admitKey(w, r, t.Target, requestKey(r, t.Target), addr, func() { route = api.OtherRoute })
	if !ok {
		return route
	}
	r, cancel := s.storeRequest(r)
	defer cancel()
	s.cfg.Mounts.Writes.Serve(w, r, t.Target, k)
	return route
}
