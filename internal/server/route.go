package server

import (
	"net/http"

	"sportsdb/internal/api"
	"sportsdb/internal/live"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Mounts are what the server serves besides its own paths (health, metrics, the change feed
// and streams): built by the caller (internal/app), each once, and only mounted here.
type Mounts struct {
	// APIs are the API versions, in the order their route tables are asked for a path.
	APIs []API
	// Surfaces are the keyed paths outside /api/ (calendars and the like).
	Surfaces []Surface
	// Writes are the API paths that change stored records (the records API); nil serves
	// none. Its table is asked for an API path before the APIs', whatever the method.
	Writes Writes
	// Docs are the keyless pages: the API's document and reference page, the
	// scorekeeper's page; nil serves none.
	Docs Docs
	// LiveView is the view a record of each kind is written in on the change feed and
	// streams (v2's).
	LiveView func(*record.Kind) *record.View
	// Images is the tree of kept pictures; nil serves none.
	Images Images
}

// Images is the tree of kept pictures outside /api/ (/images/...): GET and HEAD without a
// key and outside every rate limit, as browsers load them from <img>; other methods (an
// upload) with the key of X-API-KEY checked and counted as the writes' are, the whole key
// handed over (its role decides), and none of it through the response cache.
type Images interface {
	// Route names an escaped path requested with method, ok false for a path not its own.
	Route(method, rawPath string) (route string, ok bool)
	// Serve answers GET and HEAD.
	Serve(w http.ResponseWriter, r *http.Request)
	// Write answers other methods for the key.
	Write(w http.ResponseWriter, r *http.Request, k store.Key)
	// Preflight is what a browser's preflight allows: methods and request headers.
	Preflight() (methods, headers string)
	// Routes lists every route name Route can give.
	Routes() []string
}

// API is an API version as the server mounts it. Name is the version as an upstream knows
// it ("v1", "v2"): read-through asks the upstream under the name of the API that matched.
type API struct {
	Name string
	api.Mount
}

// Surface is a keyed part of the interface outside /api/: a path under Prefix names its key
// and endpoint; the key is checked and counted as for an API request, and the answer goes
// through the response cache like an API answer (so it must depend only on the request less
// the key, the tier, the stored records and the clock, and a 200 is kept).
type Surface interface {
	// Prefix is the start of every path of the surface, like "/calendar/".
	Prefix() string
	// Match reads an escaped path under Prefix; ok false is a 404 before any key is checked.
	Match(rawPath string) (t api.Target, ok bool)
	// LogPath is a path under Prefix as the access log shows it: never with its key.
	LogPath(rawPath string) string
	// Serve answers a matched target for a key of the tier, within the store's deadline.
	Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier)
	// Routes lists every route name Match can give.
	Routes() []string
}

// Writes is the part of an API that changes stored records. Its paths take other methods
// than GET and HEAD; the key is checked and counted as for any API request, the whole key
// (its role decides what it may write) is handed to Serve, and no answer goes through the
// response cache, which must never keep or serve a write.
type Writes interface {
	// Match reads the segments of /api/{version}/json/... (see api.SplitPath); ok false
	// leaves the path to the APIs.
	Match(version string, segs []string) (api.Target, bool)
	// Serve answers a matched target, every method, within the store's deadline.
	Serve(w http.ResponseWriter, r *http.Request, t api.Target, k store.Key)
	// Preflight is what a browser's preflight of its paths allows: the methods and the
	// request headers, each a comma-separated list.
	Preflight() (methods, headers string)
	// Routes lists every route name Match can give, api.OtherRoute aside.
	Routes() []string
}

// Docs are pages served without a key (the API's document, the scorekeeper's page).
type Docs interface {
	// Route names a path of the document, or ok is false for a path not its own.
	Route(path string) (route string, ok bool)
	Serve(w http.ResponseWriter, r *http.Request, notFound func(), fail func(error))
	// Routes lists every route name Route can give.
	Routes() []string
}

// maxSegment bounds a segment of the server's own paths as the APIs bound theirs.
const maxSegment = api.MaxSegment

// target is a path as the table, or the surface, that owns it reads it.
type target struct {
	api.Target
	// mount is the API whose table recognised the path; it answers the request.
	mount api.Mount
	// version is the API's name, as read-through asks the upstream; "" for a surface.
	version string
	// own says the path was a surface's, already shown without its key.
	own bool
	// writes says the path is one of Mounts.Writes; mount is then nil.
	writes bool
}

// match reads an escaped /api/ path once and asks the writes' table (any method), then each
// API's, whether it is their own. ok is false for a path that is no API path (404 before
// any key is checked).
func (s *Server) match(rawPath string) (t target, ok bool) {
	version, segs, ok := api.SplitPath(rawPath)
	if !ok {
		return t, false
	}
	if w := s.cfg.Mounts.Writes; w != nil {
		if wt, ok := w.Match(version, segs); ok {
			return target{Target: wt, version: version, writes: true}, true
		}
	}
	for _, m := range s.cfg.Mounts.APIs {
		if at, ok := m.Match(version, segs); ok {
			return target{Target: at, mount: m.Mount, version: m.Name}, true
		}
	}
	return t, false
}

// routeNames are every route name the tables and surfaces can give, and the names of the
// server's own paths: the fixed label set of the metrics.
func (s *Server) routeNames() []string {
	names := []string{api.OtherRoute, "healthz", "readyz", "metrics", routePreflight}
	for _, sf := range s.cfg.Mounts.Surfaces {
		names = append(names, sf.Routes()...)
	}
	if s.cfg.Mounts.Docs != nil {
		names = append(names, s.cfg.Mounts.Docs.Routes()...)
	}
	names = append(names, live.Routes()...)
	for _, m := range s.cfg.Mounts.APIs {
		names = append(names, m.Routes()...)
	}
	if s.cfg.Mounts.Writes != nil {
		names = append(names, s.cfg.Mounts.Writes.Routes()...)
	}
	if s.cfg.Mounts.Images != nil {
		names = append(names, s.cfg.Mounts.Images.Routes()...)
	}
	return names
}
