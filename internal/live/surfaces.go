package live

import "sportsdb/internal/store"

// Surface is one path of the change feed and its streams (docs/CONTRACT.md section 9), under
// /api/v2/json/ with the key in X-API-KEY, or under /api/v2/json/{key}/. The server names
// requests by Route, and the OpenAPI document describes each Surface.
type Surface struct {
	Route string
	// Path follows /api/v2/json/ (or /api/v2/json/{key}/); {sport} is a path parameter.
	Path string
	// Stream answers text/event-stream; otherwise the answer is one JSON page of changes.
	Stream bool
	// Query are the query parameters it reads.
	Query   []string
	Summary string
}

// OpenStreams are the streams a key may hold open at once, by tier (free keys none); the
// next is refused with 429.
var OpenStreams = map[store.Tier]int{store.Premium: 5, store.Business: 10}

// Surfaces are every path of the change feed and its streams.
var Surfaces = []Surface{
	{Route: "v2/changes", Path: "changes", Query: []string{"since", "kinds", "limit"},
		Summary: "The change feed, oldest first: one change per record whose stored value changed; page on with `next`."},
	{Route: "v2/stream/livescore", Path: "stream/livescore", Query: []string{"since"}, Stream: true,
		Summary: "Server-Sent Events: every change of a live score entry (`event: livescore`, the entry as v2 live scores write it)."},
	{Route: "v2/stream/livescore", Path: "stream/livescore/{sport}", Query: []string{"since"}, Stream: true,
		Summary: "Server-Sent Events: the changes of live score entries of one sport."},
	{Route: "v2/stream/changes", Path: "stream/changes", Query: []string{"since", "kinds"}, Stream: true,
		Summary: "Server-Sent Events: every change (`event:` the kind, or `delete`), the record as the v2 lookup of its kind writes it."},
}

// Routes are the route names of the surfaces, each once.
func Routes() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range Surfaces {
		if !seen[s.Route] {
			seen[s.Route] = true
			out = append(out, s.Route)
		}
	}
	return out
}
