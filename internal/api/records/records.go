// Package records is the records API (docs/CONTRACT.md section 13): one stored record read,
// created, replaced, patched or deleted at /api/v2/json/records/{kind}/{id}, by keys whose
// role lets them write. Every write is one store transaction in which the record is held
// (store.HoldTx), its version and lock checked and the new record written, so two writers
// never overwrite each other unseen, on one replica or many. The server mounts it apart from
// the read APIs (server.Writes): its paths take more methods than GET, and no answer of it
// goes through the response cache.
package records

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Route is the one route name of the records path, for caps, logs and metrics.
const Route = "v2/records"

// The methods of a records path and the request headers a browser may send with them.
const (
	Methods = "GET, HEAD, PUT, PATCH, DELETE"
	// BatchMethods are those of /api/v2/json/records, HistoryMethods those of a history.
	BatchMethods   = "POST"
	HistoryMethods = "GET, HEAD"
	// PreflightMethods are what a preflight of any records path allows: one answer for the
	// whole prefix, so that a browser's cached preflight stays right.
	PreflightMethods = "GET, PUT, PATCH, DELETE, POST"
	PreflightHeaders = "X-API-KEY, Content-Type, If-Match, If-None-Match"
)

// The fixed answers of section 13.
var (
	errCannotWrite  = respond.WithCode(http.StatusForbidden, "This key cannot write", nil)
	errLockField    = respond.WithCode(http.StatusForbidden, "Only an admin key sets or clears strLocked", nil)
	errLocked       = respond.WithCode(http.StatusLocked, "Locked", nil)
	errPrecondition = respond.WithCode(http.StatusPreconditionFailed, "Precondition failed", nil)
)

// API answers the records paths from a store it writes through.
type API struct {
	store store.Records
	clock clock.Clock
}

// New returns the records API over st, which must not be a store that tracks reads for the
// response cache: the API reads what it writes, inside its own transactions. clk is the data
// clock: the time a live score entry was updated.
func New(st store.Records, clk clock.Clock) *API { return &API{store: st, clock: clk} }

// Match reads /api/v2/json/records/{kind}/{id} (key in X-API-KEY) and
// /api/v2/json/{key}/records/{kind}/{id}, the batches at /api/v2/json/records (Args empty)
// and the histories at .../records/{kind}/{id}/history (Args kind, id, "history"). A kind
// no record has is a path of the API's form that names no endpoint: answered 404 once its
// key is checked.
func (a *API) Match(version string, segs []string) (api.Target, bool) {
	if version != "v2" {
		return api.Target{}, false
	}
	t := api.Target{Route: Route}
	switch {
	case len(segs) >= 1 && segs[0] == "records":
		t.HeaderKey, t.Args = true, segs[1:]
	case len(segs) >= 2 && segs[1] == "records":
		t.Key, t.Args = segs[0], segs[2:]
	default:
		return api.Target{}, false
	}
	switch {
	case len(t.Args) == 0, len(t.Args) == 2:
	case len(t.Args) == 3 && t.Args[2] == historySeg:
	default:
		return api.Target{}, false
	}
	if len(t.Args) > 0 {
		if _, ok := record.ByName(t.Args[0]); !ok {
			t.Route, t.Row = api.OtherRoute, api.NoRow
		}
	}
	return t, true
}

const historySeg = "history"

// Routes lists the route names Match gives, api.OtherRoute aside.
func (a *API) Routes() []string { return []string{Route} }

// Preflight is what a browser's preflight of a records path is allowed.
func (a *API) Preflight() (methods, headers string) { return PreflightMethods, PreflightHeaders }

// Serve answers a matched records path for the key k, whose role decides what it may write.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, t api.Target, k store.Key) {
	if !t.Known() {
		respond.Error(w, r, respond.ErrNotFound)
		return
	}
	var err error
	switch {
	case len(t.Args) == 0:
		err = a.serveBatch(w, r, k)
	case len(t.Args) == 3:
		err = a.serveHistory(w, r, k, t.Args[0], t.Args[1])
	default:
		err = a.serveRecord(w, r, k, t.Args[0], t.Args[1])
	}
	if err != nil {
		respond.Error(w, r, err)
	}
}

func (a *API) serveBatch(w http.ResponseWriter, r *http.Request, k store.Key) error {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", BatchMethods)
		return respond.ErrMethodNotAllowed
	}
	return a.batch(w, r, k)
}

func (a *API) serveHistory(w http.ResponseWriter, r *http.Request, k store.Key, kindName, id string) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", HistoryMethods)
		return respond.ErrMethodNotAllowed
	}
	kind, _ := record.ByName(kindName)
	return a.history(w, r, k, kind, id)
}

func (a *API) serveRecord(w http.ResponseWriter, r *http.Request, k store.Key, kindName, id string) error {
	kind, _ := record.ByName(kindName)
	var err error
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		err = a.get(w, r, k, kind, id)
	case http.MethodPut, http.MethodPatch:
		err = a.write(w, r, k, kind, id)
	case http.MethodDelete:
		err = a.delete(w, r, k, kind, id)
	default:
		w.Header().Set("Allow", Methods)
		err = respond.ErrMethodNotAllowed
	}
	return err
}

// get answers the stored record with its version; a key without a role reads it as v2
// does, so a free one is refused.
func (a *API) get(w http.ResponseWriter, r *http.Request, k store.Key, kind *record.Kind, id string) error {
	if !k.Role.CanWrite() && k.Tier == store.Free {
		return respond.ErrPremiumNeeded
	}
	if _, ok := keyParts(kind, id); !ok {
		return respond.ErrNotFound
	}
	rec, err := a.store.Get(r.Context(), kind, id)
	if errors.Is(err, store.ErrNotFound) {
		return respond.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("records: get %s: %w", kind.Name, err)
	}
	tag := etag(rec)
	w.Header().Set("ETag", tag)
	if matches(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	return answer(w, http.StatusOK, rec, tag)
}

// answer writes {"record":{...}}, the record's fields in wire order, with its ETag.
func answer(w http.ResponseWriter, status int, rec record.Record, tag string) error {
	body, err := record.AppendView([]byte(`{"record":`), rec, rec.Kind.View(record.FullView), false)
	if err != nil {
		return fmt.Errorf("records: write %s: %w", rec.Kind.Name, err)
	}
	w.Header().Set("ETag", tag)
	w.Header().Set("Cache-Control", "no-store")
	respond.Status(w, status, append(body, '}'))
	return nil
}

// keyParts splits an id into the values of the kind's key fields: one, or several joined by
// "|" (a season: idLeague|strSeason). ok is false when the count is not the kind's, or the
// id holds what import would never store (ingest.ValueProblem: a database may refuse to
// even look for it), so that no path asks the store for a record no write could have made.
func keyParts(kind *record.Kind, id string) ([]string, bool) {
	parts := strings.SplitN(id, "|", len(kind.Key))
	if len(parts) != len(kind.Key) || id == "" || ingest.ValueProblem(id) != "" {
		return nil, false
	}
	for _, p := range parts {
		if p == "" {
			return nil, false
		}
	}
	return parts, true
}

// locked says whether a record is locked: only an admin key writes or deletes it.
func locked(r record.Record) bool { return r.Str(lockField) == "locked" }

const lockField = "strLocked"
