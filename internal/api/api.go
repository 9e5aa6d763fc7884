// Package api holds what the v1 and v2 packages share: their dependencies. Routing of
// /api/v1 and /api/v2 URLs, keys and rate limits live in internal/server, which calls
// v1.API.Serve and v2.API.Serve with the key's tier already established.
//
// An answer must depend only on the request URL (less the key), the tier, the records in
// the store and the clock: the server caches answers on that basis.
package api

import (
	"sportsdb/internal/api/caps"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// Deps is what an API version needs to answer.
type Deps struct {
	Store store.Records
	Clock clock.Clock
	Caps  *caps.Table
}
