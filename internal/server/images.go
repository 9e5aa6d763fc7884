package server

import (
	"net/http"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
)

// imageTimeout bounds an image request's work: the first request for a copy may wait for
// its turn to decode a large original, and an upload reads and checks up to 50 MB.
const imageTimeout = 30 * time.Second

// serveImages answers a path of Mounts.Images and returns the route it names: GET and HEAD
// with no key and no quota, a preflight as the writes' is, anything else with its key
// checked and counted. A refused key names no endpoint.
func (s *Server) serveImages(w http.ResponseWriter, r *http.Request, im Images, route, addr string) string {
	s.cors.set(w.Header(), r)
	if r.Method == http.MethodOptions {
		methods, headers := im.Preflight()
		return preflight(w, []string{methods}, []string{headers})
	}
	ctx := withLazyDeadline(respond.NewContext(r.Context(), route, s.cfg.Logger), imageTimeout, s.deadlines)
	defer ctx.stop()
	r = r.WithContext(ctx)
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		im.Serve(w, r)
		return route
	}
	k, ok := s.admitKey(w, r, api.Target{Route: route}, r.Header.Get("X-API-KEY"), addr, func() { route = api.OtherRoute })
	if !ok {
		return route
	}
	im.Write(w, r, k)
	return route
}
