// Package api holds what the v1 and v2 packages share: their dependencies, the form of an
// endpoint row, the request an answer function reads, the query helpers, the boundary of
// next and previous events, and the form of a route table's verdict on a path (Target).
// Each version owns its path grammar and route table; internal/server only mounts them and
// calls Serve with the key's tier already established.
//
// An answer must depend only on the request URL (less the key), the tier, the records in
// the store and the clock: the server caches answers on that basis.
package api

import (
	"sportsdb/internal/api/caps"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Deps is what an API version needs to answer.
type Deps struct {
	Store store.Records
	Clock clock.Clock
	Caps  *caps.Table
	// Lenient also answers what older clients send that the public service refuses or
	// renamed (serve --compat lenient, docs/CONTRACT.md section 16); false answers as it does.
	Lenient bool
}

// Endpoint is one row of a route table, in one keyed form for v1 and v2. In is what the
// version reads parameters from: v1 the query, v2 the path segments.
type Endpoint[In any] struct {
	// Path is the .php file (v1) or the path under /api/v2/json/, parameters written {type}.
	Path string
	// Params lists the query parameters it reads, as docs/CONTRACT.md does (v1).
	Params string
	// Key is the record key of the answer (v1; a v2 answer's key is its path's group).
	Key  string
	Kind *record.Kind
	// View is the view of Kind records are written with.
	View string
	// Order is the order of the answer's records (primary key, then tie-breaks), taken from
	// the recorded answers of the public service; nil keeps the order records were stored in.
	// A query of the answer function that sets its own order (exact matches first, the
	// relevance window) keeps it.
	Order []store.Order
	Cap   caps.Cap
	// Route names the endpoint in caps, logs and metrics; the version fills in its default.
	Route string
	// PremiumOnly refuses free keys.
	PremiumOnly bool
	// Clock says the answer depends on the time (live scores, next and previous events), not
	// only on the stored records: read-through asks the upstream before every such answer,
	// and a mirror follows it more often.
	Clock bool
	// Local marks an endpoint of sportsdb's own that no upstream has: read-through never
	// asks one for it.
	Local bool
	// CapOf is the route whose cap applies, when not its own; its cap is then not registered.
	CapOf string
	// Answer reads the request and answers.
	Answer func(*Request, In) (Answer, error)
}

// CapName is the name of the cap that applies to the row.
func (e *Endpoint[In]) CapName() string {
	if e.CapOf != "" {
		return e.CapOf
	}
	return e.Route
}

// Outcome is what kind of answer a row gives.
type Outcome int

const (
	// Found: the records, or no result (v1 writes null, v2 "No data found").
	Found Outcome = iota
	// Rejected: {"key":"message"}, the public service's v1 answer to a wrong parameter.
	Rejected
	// Empty: HTTP 200 with an empty body, for a v1 parameter combination not allowed.
	Empty
	// NotFound: HTTP 404 {"Message":"Not found"}.
	NotFound
)

// Answer is the result of a row's answer function.
type Answer struct {
	Outcome Outcome
	Recs    []record.Record
	// Fields, when set, replaces the row's view (v1's season flags choose fields).
	Fields []string
	// Relevance, when set, appends a "relevance" field to each record (v1 player search).
	Relevance func(record.Record) string
	// Msg is the message of a Rejected answer.
	Msg string
	// Wrap, when set, puts record i of a v2 answer inside an object of its own: Wrap gives
	// the object's opening up to the record's member name (`{"score":"0.97","why":"…",
	// "event":`), and a `}` closes it (v2 match/event).
	Wrap func(i int) []byte
}

// Answers every row gives in the same words.
var (
	None       = Answer{}
	EmptyBody  = Answer{Outcome: Empty}
	NoEndpoint = Answer{Outcome: NotFound}
)

// Records answers records (none is no result).
func Records(recs []record.Record) Answer { return Answer{Recs: recs} }

// Reject answers the public service's message for a wrong parameter.
func Reject(msg string) Answer { return Answer{Outcome: Rejected, Msg: msg} }
