package api

import "sportsdb/internal/record"

// Doc is one path a client sends, as a route table answers it: what an API description
// (internal/openapi) is generated from, so the description follows the tables.
type Doc struct {
	// Path is the template under the server's root, parameters written {name}:
	// /api/v1/json/{key}/searchteams.php, /api/v2/json/lookup/team/{id}.
	Path string
	// HeaderKey says the key comes in X-API-KEY; otherwise it is the {key} segment.
	HeaderKey bool
	// Route is the route name (caps, logs, metrics); Cap the name of the cap that applies.
	Route, Cap string
	// Params are the query parameters as the row lists them (v1).
	Params string
	// Key is the record key of the answer object.
	Key  string
	Kind *record.Kind
	View string
	// PremiumOnly refuses free keys.
	PremiumOnly bool
	// NumericIDs says id* fields holding an integer are sent as JSON numbers (v2 search).
	NumericIDs bool
	// V1 says the body follows v1's rules (null for no result), else v2's ("No data found").
	V1 bool
}
