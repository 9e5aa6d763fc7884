package sqlite

import (
	"context"
	"fmt"
	"hash/maphash"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// kindState is what a transaction knows of one kind's table.
type kindState struct {
	// fresh says the table was empty when the transaction first wrote to it (or was emptied
	// since), so the only stored records are the ones written holds.
	fresh bool
	// written holds a hash of the id of each record the transaction wrote while fresh. A hash
	// that matches costs a read of the stored doc, never a wrong merge.
	written map[uint64]struct{}
}

// state returns the kind's state, looking at its table the first time.
func (t *tx) state(ctx context.Context, k *record.Kind) (*kindState, error) {
	if ks := t.kinds[k]; ks != nil {
		return ks, nil
	}
	// No queued insert touches the table: none of the kind's rows was sent before its state
	// was known, and DeleteAll waits for the queue. So the look need not wait for them.
	var found int
	if err := t.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+sqlstore.Table(k)+`)`).Scan(&found); err != nil {
		return nil, fmt.Errorf("is %s empty: %w", k.Name, mapErr(err))
	}
	ks := &kindState{fresh: found == 0}
	if ks.fresh {
		ks.written = map[uint64]struct{}{}
	}
	t.kinds[k] = ks
	return ks, nil
}

// emptied records that DeleteAll emptied the kind's table.
func (t *tx) emptied(k *record.Kind) {
	ks := t.kinds[k]
	if ks == nil {
		return
	}
	ks.fresh, ks.written = true, map[uint64]struct{}{}
}

// mayExist keeps the ids that can have a stored record.
func (t *tx) mayExist(ks *kindState, ids []string) []string {
	if !ks.fresh {
		return ids
	}
	var out []string
	for _, id := range ids {
		if _, ok := ks.written[maphash.String(t.seed, id)]; ok {
			out = append(out, id)
		}
	}
	return out
}

// wrote notes the rows written into the kind.
func (t *tx) wrote(ks *kindState, rows []sqlstore.Row) {
	if !ks.fresh {
		return
	}
	for _, r := range rows {
		ks.written[maphash.String(t.seed, r.ID)] = struct{}{}
	}
}
