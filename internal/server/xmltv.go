package server

import (
	"net/http"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/store"
	"sportsdb/internal/xmltv"
)

// newXMLTV is the XMLTV guides' handler on the server's store and clock, its keys checked
// and counted as any request's.
func (s *Server) newXMLTV() http.Handler {
	return xmltv.New(xmltv.Config{Store: s.cfg.Store, Clock: s.cfg.Clock, Gate: s.gate})
}

// gate checks a key and counts the request, for a surface that reads its own paths.
func (s *Server) gate(w http.ResponseWriter, r *http.Request, key string) (store.Tier, bool) {
	k, err := s.cfg.Auth.Resolve(r.Context(), key)
	if err != nil {
		s.refuseKey(w, r, s.clientAddr(r), err)
		return "", false
	}
	return k.Tier, s.admit(w, r, k)
}

// serveXMLTV answers a path under /xmltv/, as serveCalendar does a calendar's: the logged
// path loses its key, the route is set first.
func (s *Server) serveXMLTV(w http.ResponseWriter, r *http.Request, logPath, route *string) {
	*logPath = clip(xmltv.LogPath(*logPath))
	if rt := xmltv.RouteOf(r.URL.EscapedPath()); rt != "" {
		*route = rt
	}
	ctx := withLazyDeadline(respond.NewContext(r.Context(), *route, s.cfg.Logger), s.cfg.RequestTimeout)
	defer ctx.stop()
	s.xmltv.ServeHTTP(w, r.WithContext(ctx))
}
