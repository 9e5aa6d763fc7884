package records

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// write answers a PUT (the body is the whole record: created 201 or replaced 200) or a PATCH
// (the body is a JSON merge patch of the stored record, RFC 7396: a string sets a field,
// null clears it). Everything a request alone decides is checked before the transaction;
// the version, the lock and the write are one transaction.
func (a *API) write(w http.ResponseWriter, r *http.Request, k store.Key, kind *record.Kind, id string) error {
	if !k.Role.CanWrite() {
		return errCannotWrite
	}
	members, err := readObject(r)
	if err != nil {
		return err
	}
	members, progress := takeProgress(kind, members)
	sent, problems := build(kind, id, members)
	if len(problems) > 0 {
		return respond.InvalidRecord(problems)
	}
	patch := r.Method == http.MethodPatch
	var out record.Record
	created := false
	err = a.store.Write(r.Context(), func(tx store.Tx) error {
		store.SetBy(tx, writer(k))
		store.KeepDocs(tx)
		cur, exists, err := hold(r.Context(), tx, kind, id)
		if err != nil {
			return err
		}
		if err := check(w, r, k, cur, exists); err != nil {
			return err
		}
		out, created = sent, !exists
		if patch {
			if !exists {
				return respond.ErrNotFound
			}
			if out, err = merge(cur, members); err != nil {
				return err
			}
		}
		out, _, err = put(r.Context(), tx, k, a.clock.Now(), cur, exists, out, progress)
		return err
	})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return answer(w, status, out, etag(out))
}

// delete answers a DELETE: 204, the record gone from every answer, a delete in the feed.
func (a *API) delete(w http.ResponseWriter, r *http.Request, k store.Key, kind *record.Kind, id string) error {
	if !k.Role.CanWrite() {
		return errCannotWrite
	}
	if _, ok := keyParts(kind, id); !ok {
		return respond.ErrNotFound
	}
	err := a.store.Write(r.Context(), func(tx store.Tx) error {
		store.SetBy(tx, writer(k))
		store.KeepDocs(tx)
		cur, exists, err := hold(r.Context(), tx, kind, id)
		if err != nil {
			return err
		}
		if !exists {
			return respond.ErrNotFound
		}
		if err := check(w, r, k, cur, exists); err != nil {
			return err
		}
		return remove(r.Context(), tx, kind, id)
	})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// put stores out, the record a key writes in place of cur (when exists), after the checks
// every write makes (strLocked set or cleared only by an admin key) and with what it keeps
// besides (onWrite). A record that would be stored as it is already is not written: no
// change in the feed, the same ETag. It answers the record as stored, and whether it wrote.
func put(ctx context.Context, tx store.Tx, k store.Key, now time.Time, cur record.Record, exists bool, out record.Record, progress string) (record.Record, bool, error) {
	if k.Role != store.Admin && locked(out) {
		return out, false, errLockField
	}
	out, err := onWrite(ctx, tx, now, out, progress)
	if err != nil {
		return out, false, err
	}
	if exists && etag(out) == etag(cur) {
		return out, false, nil
	}
	return out, true, tx.Replace(ctx, out)
}

// remove deletes a held record, and with an event the live score entry the server kept of
// it (onDelete).
func remove(ctx context.Context, tx store.Tx, kind *record.Kind, id string) error {
	if err := onDelete(ctx, tx, kind, id); err != nil {
		return err
	}
	return tx.(store.HoldTx).Delete(ctx, kind, id)
}

// writer is who a key's writes name in the change feed: its label, or the first 8
// characters of its hash, never the key.
func writer(k store.Key) string {
	if k.Label != "" {
		return k.Label
	}
	return k.Hash[:min(8, len(k.Hash))]
}

// hold reads the record to change and holds it until the transaction ends.
func hold(ctx context.Context, tx store.Tx, kind *record.Kind, id string) (record.Record, bool, error) {
	h, ok := tx.(store.HoldTx)
	if !ok {
		return record.Record{}, false, errors.New("records: the store's transaction cannot hold a record")
	}
	cur, err := h.Hold(ctx, kind, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return record.Record{}, false, nil
	case err != nil:
		return record.Record{}, false, fmt.Errorf("records: hold %s: %w", kind.Name, err)
	}
	return cur, true, nil
}

// check applies the request's conditions to the stored record (If-Match, If-None-Match:
// 412 with the current ETag) and its lock (423 for a key that is no admin's).
func check(w http.ResponseWriter, r *http.Request, k store.Key, cur record.Record, exists bool) error {
	tag := ""
	if exists {
		tag = etag(cur)
	}
	ifMatch := strings.Join(r.Header.Values("If-Match"), ",")
	ifNoneMatch := strings.Join(r.Header.Values("If-None-Match"), ",")
	if ifMatch != "" && (!exists || !matches(ifMatch, tag)) || ifNoneMatch != "" && exists && matches(ifNoneMatch, tag) {
		if exists {
			w.Header().Set("ETag", tag)
		}
		return errPrecondition
	}
	if exists && locked(cur) && k.Role != store.Admin {
		return errLocked
	}
	return nil
}

// build makes the record a body sends for kind and id: its members set, its key fields from
// the id where the body leaves them out, and every rule an import applies checked.
func build(kind *record.Kind, id string, members []member) (record.Record, []respond.Problem) {
	var problems []respond.Problem
	parts, ok := keyParts(kind, id)
	switch p := ingest.ValueProblem(id); {
	case p != "":
		problems = append(problems, respond.Problem{Field: kind.Key[0], Problem: "the id in the path: " + p})
	case !ok:
		problems = append(problems, respond.Problem{Field: kind.Key[0],
			Problem: "the id in the path is not one of a " + kind.Name + " (" + strings.Join(kind.Key, "|") + ")"})
	}
	r := kind.NewRecord()
	for _, m := range members {
		switch {
		case !kind.Has(m.name):
			problems = append(problems, respond.Problem{Field: m.name, Problem: "not a field of " + kind.Name})
		case m.problem != "":
			problems = append(problems, respond.Problem{Field: m.name, Problem: m.problem})
		default:
			r.Set(m.name, m.value)
		}
	}
	if !ok {
		return r, problems
	}
	for i, f := range kind.Key {
		switch v := r.Get(f); {
		case v.Empty():
			r.Set(f, record.Str(parts[i]))
		case v.S != parts[i]:
			problems = append(problems, respond.Problem{Field: f, Problem: "must equal the id in the path (" + parts[i] + ")"})
		}
	}
	var bad *record.IDError
	if err := r.CheckIDs(); errors.As(err, &bad) {
		problems = append(problems, respond.Problem{Field: bad.Field, Problem: "not an id a lookup can ask for: " + bad.Problem})
	} else if err != nil {
		problems = append(problems, respond.Problem{Field: kind.Key[0], Problem: err.Error()})
	}
	return r, problems
}

// merge applies a merge patch's members to the stored record; its key fields stay the
// path's (build checked that the patch names no other).
func merge(cur record.Record, members []member) (record.Record, error) {
	d, err := cur.Decoded()
	if err != nil {
		return record.Record{}, fmt.Errorf("records: read stored %s: %w", cur.Kind.Name, err)
	}
	out := d.Clone()
	for _, m := range members {
		if !slices.Contains(out.Kind.Key, m.name) || m.value.Valid && m.value.S != "" {
			out.Set(m.name, m.value)
		}
	}
	return out, nil
}
