package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Request is what an endpoint's answer function reads besides its parameters, on v1 and v2
// alike: the key's tier, the row's kind and cap, the store and the clock.
type Request struct {
	Ctx   context.Context
	Tier  store.Tier
	Kind  *record.Kind
	Limit int
	// Order is the row's order, for queries that set none.
	Order []store.Order
	deps  Deps
}

// NewRequest is a request of the row of kind k, capped at limit records, its records in
// order (nil: stored order).
func (d Deps) NewRequest(ctx context.Context, tier store.Tier, k *record.Kind, limit int, order []store.Order) *Request {
	return &Request{Ctx: ctx, Tier: tier, Kind: k, Limit: limit, Order: order, deps: d}
}

// Find runs a query, on the row's kind unless it names one, capped at the row's limit, in
// the row's order unless it sets its own. The order is in the query, so the cap keeps the
// first records of that order.
func (r *Request) Find(q store.Query) ([]record.Record, error) {
	q = r.query(q)
	recs, err := r.deps.Store.Find(r.Ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", q.Kind.Name, err)
	}
	return recs, nil
}

// query is q on the row's kind, order and cap where q sets none.
func (r *Request) query(q store.Query) store.Query {
	if q.Kind == nil {
		q.Kind = r.Kind
	}
	if q.OrderBy == nil && q.Kind == r.Kind {
		q.OrderBy = r.Order
	}
	if q.Limit == 0 || q.Limit > r.Limit {
		q.Limit = r.Limit
	}
	return q
}

// FindNames is Find giving the records' seqs and folded values of field instead of the
// records (store.NameFinder); ok is false when the store cannot answer so.
func (r *Request) FindNames(q store.Query, field string) (store.Names, bool, error) {
	nf, ok := r.deps.Store.(store.NameFinder)
	if !ok {
		return store.Names{}, false, nil
	}
	q = r.query(q)
	n, ok, err := nf.FindNames(r.Ctx, q, field)
	if err != nil {
		return store.Names{}, false, fmt.Errorf("find %s: %w", q.Kind.Name, err)
	}
	return n, ok, nil
}

// RecordsBySeqs reads the records of the row's kind with those seqs, found by FindNames at
// version, in that order; ok is false when the data has moved since.
func (r *Request) RecordsBySeqs(seqs []int64, version int64) ([]record.Record, bool, error) {
	nf, ok := r.deps.Store.(store.NameFinder)
	if !ok {
		return nil, false, nil
	}
	recs, ok, err := nf.RecordsBySeqs(r.Ctx, r.Kind, seqs, version)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", r.Kind.Name, err)
	}
	return recs, ok, nil
}

// FindFirstNames is FindFirst giving the records' seqs and folded values of field instead
// of the records (store.NameFinder), every query answered at one data version; field ""
// gives the seqs alone. ok is false when the store cannot answer every query so.
func (r *Request) FindFirstNames(qs []store.Query, field string) (store.Names, bool, error) {
	out := store.Names{Version: -1}
	seen := map[int64]bool{}
	for _, q := range qs {
		if len(out.Seqs) >= r.Limit {
			break
		}
		n, ok, err := r.FindNames(q, field)
		if err != nil || !ok || (out.Version >= 0 && n.Version != out.Version) {
			return store.Names{}, false, err
		}
		out.Version = n.Version
		for i, seq := range n.Seqs {
			if seen[seq] || len(out.Seqs) >= r.Limit {
				continue
			}
			seen[seq] = true
			out.Seqs = append(out.Seqs, seq)
			if field != "" {
				out.Values = append(out.Values, n.Values[i])
			}
		}
	}
	return out, out.Version >= 0, nil
}

// FindFirst runs queries in order of preference and keeps the first records found, each
// once, up to the cap: better matches come before looser ones. A store that answers the
// queries with seqs (store.NameFinder) has the records kept read at once, each once; with
// the others, or when the data moved in between, it is FindEach.
func (r *Request) FindFirst(qs ...store.Query) ([]record.Record, error) {
	n, ok, err := r.FindFirstNames(qs, "")
	if err != nil {
		return nil, err
	}
	if ok {
		recs, ok, err := r.RecordsBySeqs(n.Seqs, n.Version)
		if err != nil || ok {
			return recs, err
		}
	}
	return r.FindEach(qs...)
}

// FindEach is FindFirst running each query through Find in turn: for a caller whose
// FindFirstNames of the same queries just said !ok, which FindFirst would ask again.
func (r *Request) FindEach(qs ...store.Query) ([]record.Record, error) {
	var out []record.Record
	seen := map[string]bool{}
	for _, q := range qs {
		if len(out) >= r.Limit {
			break // the better matches filled the answer: a looser query would only scan
		}
		recs, err := r.Find(q)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			id, _ := rec.ID()
			if seen[id] || len(out) >= r.Limit {
				continue
			}
			seen[id] = true
			out = append(out, rec)
		}
	}
	return out, nil
}

// Records is the store the request reads, for an answer that runs its own bounded queries
// (the file name matcher); its reads count for the response cache as Find's do.
func (r *Request) Records() store.Records { return r.deps.Store }

// Get reads one record by id. A missing record is no result, never an error: that is the
// one not-found rule of both versions (each writes "no result" in its own body).
func (r *Request) Get(k *record.Kind, id string) ([]record.Record, error) {
	rec, err := r.deps.Store.Get(r.Ctx, k, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", k.Name, id, err)
	}
	return []record.Record{rec}, nil
}

// Now reads the clock for an answer that depends on it; the answer function then declares
// until when its answer stays right (clock.Until, UntilStarts).
func (r *Request) Now() time.Time { return clock.Read(r.Ctx, r.deps.Clock).UTC() }

// Timestamp is Now in the form of Event.strTimestamp, so the two compare as text.
func (r *Request) Timestamp() string { return r.Now().Format(TimestampLayout) }
