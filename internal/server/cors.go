package server

import (
	"net/http"
	"strings"

	"sportsdb/internal/api/respond"
)

// Browser apps call the API from pages on other origins (docs/CONTRACT.md section 12): every API
// answer, errors and 429 included, says which origins may read it and exposes the rate limit
// fields and the ETag; a preflight (OPTIONS) is answered without a key and costs no quota.

// corsPolicy is the origins allowed to read API answers: any, or a list. Each listed
// origin maps to its Access-Control-Allow-Origin value, built once with the policy.
type corsPolicy struct {
	any     bool
	origins map[string][]string
}

func newCORSPolicy(origins []string) corsPolicy {
	p := corsPolicy{any: len(origins) == 0, origins: map[string][]string{}}
	for _, o := range origins {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "*" {
			p.any = true
		}
		p.origins[o] = []string{o}
	}
	return p
}

// The header values are shared slices assigned under their canonical keys: these headers go
// with every API answer, and Header.Set would canonicalise and allocate each time.
var (
	corsAnyOrigin = []string{"*"}
	corsExposed   = []string{"X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, " +
		"RateLimit, RateLimit-Policy, Retry-After, ETag"}
	corsMethods = []string{"GET, HEAD"}
	corsHeaders = []string{"X-API-KEY, If-None-Match"}
	// corsMaxAge is how long, in seconds, a browser may keep a preflight's answer (Chromium
	// keeps at most two hours).
	corsMaxAge = []string{"7200"}
	varyOrigin = []string{"Origin"}
)

// set writes the CORS fields of an answer to r. With a list, the answer depends on the
// request's Origin, so it says so (Vary) for caches in between; an origin not listed gets no
// Access-Control-Allow-Origin, so its pages cannot read the answer.
func (p corsPolicy) set(h http.Header, r *http.Request) {
	if p.any {
		h["Access-Control-Allow-Origin"] = corsAnyOrigin
	} else {
		h["Vary"] = varyOrigin
		allow, ok := p.origins[r.Header.Get("Origin")]
		if !ok {
			return
		}
		h["Access-Control-Allow-Origin"] = allow
	}
	h["Access-Control-Expose-Headers"] = corsExposed
}

func isAPIPath(path string) bool { return strings.HasPrefix(path, "/api/") }

// commonHeaders sets what every answer carries before it is written: the CORS fields of an
// API or surface answer (cross), and, while the server drains, Connection: close
// (drain.go). Surfaces are keyed too: Sportarr's settings page, in a browser, asks its
// metadata API for all/sports.
func (s *Server) commonHeaders(h http.Header, r *http.Request, cross bool) {
	if cross {
		s.cors.set(h, r)
	}
	if s.draining.Load() {
		h["Connection"] = connectionClose
	}
}

// routePreflight labels preflights in logs and metrics: one route for every API path.
const routePreflight = "preflight"

// otherMethod answers a method other than GET and HEAD, and returns the route it names: a
// preflight on an API path gets 204, anything else 405.
func (s *Server) otherMethod(w http.ResponseWriter, r *http.Request, path string) string {
	if !isAPIPath(path) {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, respond.ErrMethodNotAllowed)
		return "other"
	}
	if r.Method != http.MethodOptions {
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		s.fail(w, r, respond.ErrMethodNotAllowed)
		return "other"
	}
	return preflight(w, corsMethods, corsHeaders)
}

// preflight answers a preflight (OPTIONS) with the methods and request headers it allows.
func preflight(w http.ResponseWriter, methods, headers []string) string {
	h := w.Header()
	h["Access-Control-Allow-Methods"] = methods
	h["Access-Control-Allow-Headers"] = headers
	h["Access-Control-Max-Age"] = corsMaxAge
	w.WriteHeader(http.StatusNoContent)
	return routePreflight
}
