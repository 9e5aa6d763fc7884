package server

import (
	"net/http"
	"runtime/debug"

	"sportsdb/internal/api/respond"
)

// serveDocs answers /openapi.json, /openapi.yaml and the reference page /docs: no key, no
// rate limit, and the CORS fields of API answers, so a page elsewhere can read the document.
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request) {
	s.cors.set(w.Header(), r)
	s.docs.Serve(w, r,
		func() { s.fail(w, r, respond.ErrNotFound) },
		func(err error) { s.fail(w, r, respond.Internal(err)) })
}

// version is the module version the binary was built as, the document's version.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "dev"
}
