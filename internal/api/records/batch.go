package records

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// MaxBatch bounds the body of a batch (POST /api/v2/json/records).
const MaxBatch = 64 << 20

var errBatchTooBig = respond.WithCode(http.StatusRequestEntityTooLarge, fmt.Sprintf("The body is larger than %d MiB", MaxBatch>>20), nil)

// batchCounts is a batch's answer: records stored new or changed, records deleted, and
// records the batch sent as they were stored already.
type batchCounts struct {
	upserted, deleted, unchanged int
}

// batch answers a POST of many records: what `sportsdb import` reads from one file (NDJSON
// of records and delete lines when the Content-Type is application/x-ndjson; any
// TheSportsDB response body, an array of records or one record when it is
// application/json), in one transaction. Records are merged into the stored ones as an
// import merges them, each held and checked against its lock as a single write is. The first
// line that fails fails the batch, named in the answer, and nothing of it is kept.
func (a *API) batch(w http.ResponseWriter, r *http.Request, k store.Key) error {
	if !k.Role.CanWrite() {
		return errCannotWrite
	}
	ndjson, ok := batchType(r.Header.Get("Content-Type"))
	if !ok {
		return respond.WithCode(http.StatusUnsupportedMediaType,
			"The body must be JSON (Content-Type: application/json) or NDJSON (application/x-ndjson)", nil)
	}
	// Read whole before the transaction: a slow client never holds the writer.
	body, err := readBody(r, MaxBatch, errBatchTooBig)
	if err != nil {
		return err
	}
	var n batchCounts
	err = a.store.Write(r.Context(), func(tx store.Tx) error {
		store.SetBy(tx, writer(k))
		store.KeepDocs(tx)
		n = batchCounts{} // should the store run fn again
		_, err := ingest.ReadBody(r.Context(), tx, bytes.NewReader(body), ndjson, ingest.Handlers{
			Upsert: func(ctx context.Context, tx store.Tx, rec record.Record) error {
				return batchUpsert(ctx, tx, k, a.clock.Now(), rec, &n)
			},
			Delete: func(ctx context.Context, tx store.Tx, kind *record.Kind, id string) error {
				return batchDelete(ctx, tx, k, kind, id, &n)
			},
		})
		return err
	})
	if err != nil {
		return batchError(err)
	}
	w.Header().Set("Cache-Control", "no-store")
	out := fmt.Appendf(nil, `{"upserted":%d,"deleted":%d,"unchanged":%d}`, n.upserted, n.deleted, n.unchanged)
	respond.Status(w, http.StatusOK, out)
	return nil
}

// batchUpsert merges one record of a batch into the stored one, as import does, after the
// checks of a single write (a locked record only for an admin key, and strLocked set only
// by one), and stores it with what a single write keeps besides (onWrite: derived fields, an
// event's live score entry, now being the data clock's time).
func batchUpsert(ctx context.Context, tx store.Tx, k store.Key, now time.Time, rec record.Record, n *batchCounts) error {
	id, err := rec.ID()
	if err != nil {
		return &ingest.RuleError{Err: err}
	}
	// An event's minute goes to its live score entry, as a single write's does.
	var progress string
	if rec.Kind == record.Event {
		if v, ok := rec.TakeExtra("strProgress"); ok {
			progress = v.S
		}
	}
	cur, exists, err := hold(ctx, tx, rec.Kind, id)
	if err != nil {
		return storeFailure{err}
	}
	out := rec
	if exists {
		if locked(cur) && k.Role != store.Admin {
			return errLocked
		}
		d, err := cur.Decoded()
		if err != nil {
			return storeFailure{fmt.Errorf("records: read stored %s: %w", cur.Kind.Name, err)}
		}
		out = record.Merge(d, rec)
	}
	_, wrote, err := put(ctx, tx, k, now, cur, exists, out, progress)
	var he *respond.HTTPError
	switch {
	case errors.As(err, &he):
		return err
	case err != nil:
		return storeFailure{err}
	case wrote:
		n.upserted++
	default:
		n.unchanged++
	}
	return nil
}

// batchDelete deletes one record of a batch, as a DELETE does: 404 when there is none, 423
// when it is locked and the key no admin's.
func batchDelete(ctx context.Context, tx store.Tx, k store.Key, kind *record.Kind, id string, n *batchCounts) error {
	cur, exists, err := hold(ctx, tx, kind, id)
	if err != nil {
		return storeFailure{err}
	}
	if !exists {
		return respond.ErrNotFound
	}
	if locked(cur) && k.Role != store.Admin {
		return errLocked
	}
	n.deleted++
	if err := remove(ctx, tx, kind, id); err != nil {
		return storeFailure{err}
	}
	return nil
}

// storeFailure is a failure of the database during a batch, not of its body: answered as
// any such failure (503, 500), never as the client's fault.
type storeFailure struct{ err error }

func (e storeFailure) Error() string { return e.err.Error() }
func (e storeFailure) Unwrap() error { return e.err }

// batchError words the failure of a batch for its client, naming the line or record: the
// answer a single write would give for a refused record (403, 404, 423), 422 for a record
// that breaks a rule of import, 400 for text that is not JSON.
func batchError(err error) error {
	var fe *ingest.FileError
	where := ""
	if errors.As(err, &fe) && fe.Where != "" {
		where = fe.Where
	}
	at := func(msg string) string {
		if where == "" {
			return msg
		}
		return msg + " (" + where + ")"
	}
	var he *respond.HTTPError
	var rule *ingest.RuleError
	var none *ingest.NoRecordsError
	var sf storeFailure
	switch {
	case errors.As(err, &sf):
		return sf.err
	case errors.As(err, &he) && he.Status < 500:
		out := *he
		out.Message = at(he.Message)
		return &out
	case errors.As(err, &rule):
		problem := rule.Error()
		var bad *record.IDError
		if errors.As(rule, &bad) { // worded as a single write words it
			problem = "not an id a lookup can ask for: " + bad.Problem
		}
		e := respond.InvalidRecord([]respond.Problem{{Field: rule.Field, Problem: problem}})
		e.Message = at(e.Message)
		return e
	case errors.As(err, &none):
		e := respond.InvalidRecord([]respond.Problem{{Field: "", Problem: "the body holds no record and no delete line"}})
		e.Message = "Nothing to write"
		return e
	case fe != nil:
		msg := at("Malformed JSON") + ": " + fe.Err.Error()
		if errors.Is(err, ingest.ErrTrailingData) {
			msg += " (one record a line is NDJSON: send it as Content-Type: application/x-ndjson)"
		}
		return respond.WithCode(http.StatusBadRequest, msg, nil)
	}
	return err
}

// batchType reads a batch's Content-Type: NDJSON (application/x-ndjson, application/jsonl)
// or one JSON body.
func batchType(contentType string) (ndjson, ok bool) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false, false
	}
	switch mt {
	case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines":
		return true, true
	}
	return false, isJSON(contentType)
}
