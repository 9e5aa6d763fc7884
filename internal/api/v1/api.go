// Package v1 serves the v1 read API of the public sports database: the key in the URL path,
// one .php file per endpoint, one record key per answer. The endpoints are the rows of the
// table in endpoints.go; routes.go reads the paths that reach them, and this file runs a row
// and writes its answer.
package v1

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// API answers v1 requests.
type API struct {
	deps api.Deps
	rows rows
}

// New builds the v1 API and registers the default cap of every file in d.Caps.
func New(d api.Deps) *API {
	a := &API{deps: d, rows: newRows(d.Lenient)}
	// The public service's rows, also those lenient rows replace: those rows' caps are the
	// lenient rows' (CapOf).
	for _, ep := range newRows(false).list {
		if ep.CapOf == "" {
			d.Caps.Default(ep.Route, ep.Cap)
		}
	}
	return a
}

// Files lists the served file names in the order of the spec's tables.
func Files() []string {
	out := make([]string, len(endpoints))
	for i, ep := range endpoints {
		out[i] = ep.Path
	}
	return out
}

func (a *API) run(w http.ResponseWriter, r *http.Request, ep *endpoint, tier store.Tier) {
	ans, err := a.answer(r.Context(), ep, params{r.URL.Query()}, tier)
	if err != nil {
		respond.Error(w, r, fmt.Errorf("v1 %s: %w", ep.Path, err))
		return
	}
	switch ans.Outcome {
	case api.Empty:
		respond.Empty(w)
	case api.NotFound:
		respond.NotFound(w)
	default:
		body, err := render(ep, ans, a.deps.Lenient)
		if err != nil {
			respond.Error(w, r, fmt.Errorf("v1 %s: %w", ep.Path, err))
			return
		}
		respond.JSON(w, body)
	}
}

// answer runs a row for a key of the tier.
func (a *API) answer(ctx context.Context, ep *endpoint, in params, tier store.Tier) (api.Answer, error) {
	limit := a.deps.Caps.Limit(ep.CapName(), tier)
	return api.Compute(ctx,
		func(ctx context.Context) *api.Request { return a.deps.NewRequest(ctx, tier, ep.Kind, limit, ep.Order) },
		func(req *api.Request) (api.Answer, error) { return ep.Answer(req, in) })
}

// Records answers a file of the table (as /api/v1/json/{key}/FILE?query reaches it) for a
// key of the tier with the records the row would write: for a dialect that writes the same
// data in its own shape (internal/api/sportarr). ok is false for a file no row names; an
// answer that is no list of records (a rejected parameter, an empty body) is no records.
func (a *API) Records(ctx context.Context, tier store.Tier, file string, query url.Values) (recs []record.Record, ok bool, err error) {
	i, ok := a.rows.files[v1Path][file]
	if !ok {
		return nil, false, nil
	}
	ep := a.rows.list[i]
	ans, err := a.answer(ctx, ep, params{query}, tier)
	if err != nil {
		return nil, true, fmt.Errorf("v1 %s: %w", ep.Path, err)
	}
	if ans.Outcome != api.Found {
		return nil, true, nil
	}
	return ans.Recs, true, nil
}

// render writes the body of a JSON answer. This is the one place that decides between null,
// a message string and an array: no records is always null, never []. The error is that of a
// stored record that does not decode. olderNames adds the older names of renamed fields and
// record keys.
func render(ep *endpoint, ans api.Answer, olderNames bool) ([]byte, error) {
	var view *record.View
	size := 256
	if len(ans.Recs) > 0 {
		view = ep.Kind.View(ep.View)
		size += view.ListSize(ans.Recs)
		if ans.Fields != nil || ans.Relevance != nil {
			size += 64 * len(ans.Recs)
		}
	}
	b := make([]byte, 0, size+size/32)
	b = append(b, '{')
	b = record.AppendString(b, ep.Key)
	b = append(b, ':')
	start := len(b)
	switch {
	case ans.Outcome == api.Rejected:
		b = record.AppendString(b, ans.Msg)
	case len(ans.Recs) == 0:
		b = append(b, "null"...)
	default:
		b = append(b, '[')
		for i, rec := range ans.Recs {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendRecord(b, rec, view, ans); err != nil {
				return nil, err
			}
			if olderNames {
				b = record.AppendOlderNames(b, rec, written(view, ans))
			}
		}
		b = append(b, ']')
	}
	if older := olderRecordKeys[ep.Path]; olderNames && older != "" {
		value := b[start:]
		b = append(b, ',')
		b = record.AppendString(b, older)
		b = append(b, ':')
		b = append(b, value...)
	}
	return append(b, '}'), nil
}

// written lists the fields an answer's records are written with.
func written(view *record.View, ans api.Answer) []string {
	if ans.Fields != nil {
		return ans.Fields
	}
	return view.Fields
}

func appendRecord(b []byte, rec record.Record, view *record.View, ans api.Answer) ([]byte, error) {
	if ans.Fields != nil {
		// Fields are read one by one: decode the record once.
		rec, err := rec.Decoded()
		if err != nil {
			return nil, err
		}
		b = append(b, '{')
		for i, f := range ans.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = record.AppendString(b, f)
			b = append(b, ':')
			b = record.AppendValue(b, f, rec.Get(f), false)
		}
		b = append(b, '}')
	} else {
		var err error
		if b, err = record.AppendView(b, rec, view, false); err != nil {
			return nil, err
		}
	}
	if ans.Relevance != nil {
		b = b[:len(b)-1] // reopen the object to add the computed field
		b = append(b, `,"relevance":`...)
		b = record.AppendString(b, ans.Relevance(rec))
		b = append(b, '}')
	}
	return b, nil
}
