// Package v1 serves the v1 read API of the public sports database: the key in the URL path,
// one .php file per endpoint, one record key per answer. The endpoints are the rows of the
// table in endpoints.go; this file runs a row and writes its answer.
package v1

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// API answers v1 requests.
type API struct {
	deps  api.Deps
	files map[string]*endpoint
}

// New builds the v1 API and registers the default cap of every file in d.Caps.
func New(d api.Deps) *API {
	a := &API{deps: d, files: make(map[string]*endpoint, len(endpoints))}
	for _, ep := range endpoints {
		a.files[ep.file] = ep
		d.Caps.Default(capName(ep.file), ep.cap)
	}
	return a
}

func capName(file string) string { return "v1/" + file }

// Files lists the served file names in the order of the spec's tables.
func Files() []string {
	out := make([]string, len(endpoints))
	for i, ep := range endpoints {
		out[i] = ep.file
	}
	return out
}

// Serve answers /api/v1/json/{key}/{file}?query for a key of the given tier.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, file string, tier store.Tier) {
	ep, ok := a.files[file]
	if !ok {
		respond.NotFound(w)
		return
	}
	a.run(w, r, ep, ep.key, tier)
}

// ServeV2Livescore answers the older premium feed /api/v2/json/{key}/livescore.php?s=&l=:
// the live score records under the key "events". Here l selects a league; the server lets
// only premium and business keys through.
func (a *API) ServeV2Livescore(w http.ResponseWriter, r *http.Request, tier store.Tier) {
	a.run(w, r, legacyLivescore, "events", tier)
}

// request is what a row's build function reads.
type request struct {
	ctx   context.Context
	p     params
	tier  store.Tier
	clk   clock.Clock
	st    store.Records
	kind  *record.Kind
	limit int
}

func (a *API) run(w http.ResponseWriter, r *http.Request, ep *endpoint, key string, tier store.Tier) {
	req := &request{
		ctx:   r.Context(),
		p:     params{r.URL.Query()},
		tier:  tier,
		clk:   a.deps.Clock,
		st:    a.deps.Store,
		kind:  ep.kind,
		limit: a.deps.Caps.Limit(capName(ep.capFile()), tier),
	}
	ans, err := ep.build(req)
	if err != nil {
		respond.Error(w, r, fmt.Errorf("v1 %s: %w", ep.file, err))
		return
	}
	switch ans.outcome {
	case outEmpty:
		respond.Empty(w)
	case outNotFound:
		respond.NotFound(w)
	default:
		respond.JSON(w, render(key, ep, ans))
	}
}

// outcome is what kind of answer a row gives.
type outcome int

const (
	// outRecords: {"key":[records]}, or {"key":null} when there are none.
	outRecords outcome = iota
	// outRejected: {"key":"message"}, the public service's answer to a wrong parameter.
	outRejected
	// outEmpty: HTTP 200 with an empty body, for a parameter combination not allowed.
	outEmpty
	// outNotFound: HTTP 404 {"Message":"Not found"}.
	outNotFound
)

// answer is the result of a row's build function.
type answer struct {
	outcome outcome
	recs    []record.Record
	// fields, when set, replaces the row's view (the seasons flags choose fields).
	fields []string
	// relevance, when set, appends a "relevance" field to each record.
	relevance func(record.Record) string
	msg       string
}

var (
	none     = answer{}
	empty    = answer{outcome: outEmpty}
	notFound = answer{outcome: outNotFound}
)

func rejected(msg string) answer { return answer{outcome: outRejected, msg: msg} }

func records(recs []record.Record) answer { return answer{recs: recs} }

// render writes the body of a JSON answer. This is the one place that decides between null,
// a message string and an array: no records is always null, never [].
func render(key string, ep *endpoint, ans answer) []byte {
	b := make([]byte, 0, 256+512*len(ans.recs))
	b = append(b, '{')
	b = record.AppendString(b, key)
	b = append(b, ':')
	switch {
	case ans.outcome == outRejected:
		b = record.AppendString(b, ans.msg)
	case len(ans.recs) == 0:
		b = append(b, "null"...)
	default:
		view := ep.kind.View(ep.view)
		b = append(b, '[')
		for i, rec := range ans.recs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRecord(b, rec, view, ans)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendRecord(b []byte, rec record.Record, view *record.View, ans answer) []byte {
	if ans.fields != nil {
		b = append(b, '{')
		for i, f := range ans.fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = record.AppendString(b, f)
			b = append(b, ':')
			b = record.AppendValue(b, f, rec.Get(f), false)
		}
		b = append(b, '}')
	} else {
		b = record.AppendView(b, rec, view, false)
	}
	if ans.relevance != nil {
		b = b[:len(b)-1] // reopen the object to add the computed field
		b = append(b, `,"relevance":`...)
		b = record.AppendString(b, ans.relevance(rec))
		b = append(b, '}')
	}
	return b
}

// find runs a query on the row's kind, capped for the tier.
func (r *request) find(q store.Query) ([]record.Record, error) {
	q.Kind = r.kind
	if q.Limit == 0 || q.Limit > r.limit {
		q.Limit = r.limit
	}
	recs, err := r.st.Find(r.ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", r.kind.Name, err)
	}
	return recs, nil
}

// findFirst runs queries in order of preference and keeps the first records found, each once,
// up to the cap: better matches come before looser ones.
func (r *request) findFirst(qs ...store.Query) ([]record.Record, error) {
	var out []record.Record
	seen := map[string]bool{}
	for _, q := range qs {
		if len(out) >= r.limit {
			break
		}
		recs, err := r.find(q)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			id, _ := rec.ID()
			if seen[id] || len(out) >= r.limit {
				continue
			}
			seen[id] = true
			out = append(out, rec)
		}
	}
	return out, nil
}

// get reads one record by id; a missing one is no result.
func (r *request) get(k *record.Kind, id string) ([]record.Record, error) {
	rec, err := r.st.Get(r.ctx, k, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", k.Name, id, err)
	}
	return []record.Record{rec}, nil
}

// now reads the clock for an answer that depends on it; the build function then declares
// until when its answer stays right (clock.Until, api.UntilStarts).
func (r *request) now() time.Time { return clock.Read(r.ctx, r.clk).UTC() }

// timestamp is now in the form of Event.strTimestamp, so the two compare as text.
func (r *request) timestamp() string { return r.now().Format(api.TimestampLayout) }
