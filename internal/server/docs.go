package server

import (
	"net/http"

	"sportsdb/internal/api/respond"
)

// serveDocs answers the API's document (openapi.json, openapi.yaml and the reference page
// /docs): no key, no rate limit, and the CORS fields of API answers, so a page elsewhere can
// read the document.
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request) {
	s.cors.set(w.Header(), r)
	s.cfg.Mounts.Docs.Serve(w, r,
		func() { s.fail(w, r, respond.ErrNotFound) },
		func(err error) { s.fail(w, r, respond.Internal(err)) })
}
