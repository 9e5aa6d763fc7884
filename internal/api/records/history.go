package records

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// history answers GET .../records/{kind}/{id}/history: the record's changes the feed still
// keeps, newest first, each with the record as it left it. The records API's writes keep
// the record with each change (store.KeepDocs); other writers (import, mirror, gen) do not,
// and their changes show the record only where it is the record's newest change (the
// stored record is then what it left), else null, as a delete does. Keys as GET.
func (a *API) history(w http.ResponseWriter, r *http.Request, k store.Key, kind *record.Kind, id string) error {
	if !k.Role.CanWrite() && k.Tier == store.Free {
		return respond.ErrPremiumNeeded
	}
	if _, ok := keyParts(kind, id); !ok {
		return respond.ErrNotFound
	}
	h, ok := a.store.(store.History)
	if !ok {
		return errors.New("records: the store keeps no history")
	}
	versions, err := h.History(r.Context(), kind, id)
	if err != nil {
		return fmt.Errorf("records: history of %s: %w", kind.Name, err)
	}
	// The stored record is read only where it is wanted: to show the newest change when that
	// change kept no record, or to tell a record with no change kept from none at all.
	var cur record.Record
	exists := false
	if len(versions) == 0 || !versions[0].Kept && versions[0].Op == store.OpUpsert {
		cur, err = a.store.Get(r.Context(), kind, id)
		exists = err == nil
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("records: get %s: %w", kind.Name, err)
		}
		if len(versions) == 0 && !exists {
			return respond.ErrNotFound
		}
	}
	body := []byte(`{"history":[`)
	for i, v := range versions {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, `{"cursor":`...)
		body = record.AppendString(body, strconv.FormatInt(v.Cursor, 10))
		body = record.AppendString(append(body, `,"op":`...), v.Op)
		body = record.AppendString(append(body, `,"time":`...), v.Time.UTC().Format(store.ChangeTimeLayout))
		if v.By != "" {
			body = record.AppendString(append(body, `,"by":`...), v.By)
		}
		body = append(body, `,"record":`...)
		rec, shown := v.Record, v.Kept
		if !shown && i == 0 && v.Op == store.OpUpsert && exists {
			rec, shown = cur, true
		}
		if !shown || v.Op != store.OpUpsert {
			body = append(body, "null"...)
		} else if body, err = record.AppendView(body, rec, kind.View(record.FullView), false); err != nil {
			return fmt.Errorf("records: history of %s: %w", kind.Name, err)
		}
		body = append(body, '}')
	}
	w.Header().Set("Cache-Control", "no-store")
	respond.Status(w, http.StatusOK, append(body, "]}"...))
	return nil
}
