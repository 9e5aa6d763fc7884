package mirror

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// fetch asks the upstream for one frontier entry and commits the outcome. Only a refused
// key or a failing store stop the crawl; every other failure is reported and recorded on
// the entry, to be asked again on a later run.
func (cr *crawler) fetch(ctx context.Context, e store.FrontierEntry) error {
	if strings.HasPrefix(e.URL, imagePrefix) {
		return cr.fetchImage(ctx, e)
	}
	a, err := cr.c.get(ctx, e.URL)
	if errors.Is(err, errBadKey) {
		return fmt.Errorf("mirror: %w", err)
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	now := cr.opt.Clock.Now()
	if err != nil {
		cr.opt.Metrics.count("mirror", "failed", 0)
		cr.failed.Add(1)
		cr.lastFailure.Store(err.Error())
		cr.opt.Logger.Warn("mirror: request failed", "error", err)
		return cr.markFailed(ctx, e, now, err)
	}
	cr.requests.Add(1)
	n, err := commit(ctx, cr.st, e, a, now, cr.plan)
	a.release()
	if err != nil {
		return err
	}
	cr.records.Add(int64(n))
	cr.opt.Metrics.count("mirror", a.status, n)
	switch a.status {
	case "message":
		cr.messages.Add(1)
		cr.opt.Logger.Info("mirror: body held a message, not stored", "request", masked(e.URL), "message", a.note)
	case "refused":
		cr.refused.Add(1)
		cr.opt.Logger.Info("mirror: request refused", "request", masked(e.URL), "answer", a.note)
	}
	cr.prog.tick(cr)
	return nil
}

// markFailed records a failed attempt at e: asked again on the next run (this one asks only
// what was due at its start), or, following, after a wait that grows with the failures.
func (cr *crawler) markFailed(ctx context.Context, e store.FrontierEntry, now time.Time, err error) error {
	e.Fails++
	e.Status, e.Note = "failed", err.Error()
	e.Due = now.Add(time.Millisecond)
	if cr.opt.Follow {
		e.Due = now.Add(min(time.Duration(e.Fails)*time.Minute, time.Hour))
	}
	return cr.mark(ctx, e)
}

func (cr *crawler) mark(ctx context.Context, e store.FrontierEntry) error {
	err := cr.st.Write(ctx, func(tx store.Tx) error {
		ftx, err := frontierTx(tx)
		if err != nil {
			return err
		}
		return ftx.FrontierSet(ctx, e)
	})
	if err != nil {
		return fmt.Errorf("mirror: record %s: %w", masked(e.URL), err)
	}
	return nil
}

// By is the writer the mirror's changes name in the change feed, read-through's included.
const By = "mirror"

// commit stores an answer: its records, the entry marked answered at now, and (with a plan)
// the requests its records lead to, in one transaction. A body the importer rejects is kept
// out and the entry marked "refused" with the reason. It returns the records stored.
func commit(ctx context.Context, st store.Store, e store.FrontierEntry, a answer, now time.Time, p *plan) (int, error) {
	return commitOnly(ctx, st, e, a, now, p, nil)
}

// commitOnly is commit storing, with keep, only the records that answer the request (read-through).
func commitOnly(ctx context.Context, st store.Store, e store.FrontierEntry, a answer, now time.Time, p *plan, keep *answeringTx) (int, error) {
	e.Fetched, e.Status, e.Note, e.Fails = now, a.status, a.note, 0
	e.Due = now.Add(freshness(e.URL, nil, now))
	var stored int
	write := func(tx store.Tx) error {
		store.SetBy(tx, By)
		ftx, err := frontierTx(tx)
		if err != nil {
			return err
		}
		if a.status == "ok" {
			rt := &recordingTx{Tx: tx}
			var sink store.Tx = rt
			if keep != nil {
				*keep = answeringTx{Tx: rt, st: st, asked: keep.asked}
				sink = keep
			}
			if _, err := ingest.Response(ctx, sink, a.body, masked(e.URL)); err != nil {
				return &rejected{err}
			}
			if keep != nil && len(rt.recs) == 0 && keep.dropped+keep.renamed > 0 {
				return &rejected{keep.refusal()}
			}
			stored = len(rt.recs)
			e.Due = now.Add(freshness(e.URL, rt.recs, now))
			if p != nil {
				next := p.expand(e.URL, rt.recs, now)
				if p.imageHosts != nil {
					next = append(next, imageEntries(rt.recs, p.imageHosts)...)
				}
				if err := ftx.FrontierAdd(ctx, next); err != nil {
					return err
				}
			}
		}
		return ftx.FrontierSet(ctx, e)
	}
	err := st.Write(ctx, write)
	var rej *rejected
	if errors.As(err, &rej) {
		a = answer{status: "refused", note: "not stored: " + rej.err.Error()}
		return commitOnly(ctx, st, e, a, now, nil, nil)
	}
	if err != nil {
		return 0, fmt.Errorf("mirror: store %s: %w", masked(e.URL), err)
	}
	return stored, nil
}

type rejected struct{ err error }

func (r *rejected) Error() string { return r.err.Error() }

// recordingTx keeps the records an answer stored, for the plan to expand.
type recordingTx struct {
	store.Tx
	recs []record.Record
}

func (t *recordingTx) Upsert(ctx context.Context, r record.Record) error {
	t.recs = append(t.recs, r)
	return t.Tx.Upsert(ctx, r)
}

// masked is a frontier URL as logs and errors show it: the key never appears in it.
func masked(u string) string {
	if rest, ok := cutPrefix(u, "v1/"); ok {
		return "/api/v1/json/***/" + rest
	}
	if rest, ok := cutPrefix(u, "v2/"); ok {
		return "/api/v2/json/" + rest
	}
	return u
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}
