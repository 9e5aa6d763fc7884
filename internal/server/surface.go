package server

import (
	"net/http"
	"strings"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/respcache"
)

// surfaceAt is the surface whose prefix starts path, or nil.
func (s *Server) surfaceAt(path string) Surface {
	for _, sf := range s.cfg.Mounts.Surfaces {
		if strings.HasPrefix(path, sf.Prefix()) {
			return sf
		}
	}
	return nil
}

// serveSurface answers a path under a surface's prefix. ServeHTTP calls it with the path it
// logs and the route it counts, which it sets first: the logged path loses its key. The key
// is checked and counted as for any API request, and the answer is the response cache's, so
// a client's If-None-Match is answered before anything is computed.
func (s *Server) serveSurface(w http.ResponseWriter, r *http.Request, sf Surface, addr string, logPath, route *string) {
	*logPath = clip(sf.LogPath(*logPath))
	t, ok := sf.Match(r.URL.EscapedPath())
	if !ok {
		s.fail(w, r, respond.ErrNotFound)
		return
	}
	*route = t.Route
	ctx := s.requestContext(r, *route)
	defer ctx.stop()
	r = r.WithContext(ctx)
	k, ok := s.admitKey(w, r, t, t.Key, addr, func() {})
	if !ok {
		return
	}
	s.cache.Serve(w, r, respcache.Key(r, t.Route, t.Args, k.Tier), func(w http.ResponseWriter, r *http.Request) {
		r, cancel := s.storeRequest(r)
		defer cancel()
		sf.Serve(w, r, t, k.Tier)
	})
}
