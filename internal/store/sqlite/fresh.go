package sqlite

import (
	"context"
	"fmt"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// look looks at the kind's table the first time the transaction writes to it (see
// sqlstore.Fresh).
func (t *tx) look(ctx context.Context, k *record.Kind) error {
	if t.fresh.Known(k) {
		return nil
	}
	// No queued insert touches the table: none of the kind's rows was sent before its state
	// was known, and DeleteAll waits for the queue. So the look need not wait for them.
	var found int
	if err := t.tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+sqlstore.Table(k)+`)`).Scan(&found); err != nil {
		return fmt.Errorf("is %s empty: %w", k.Name, mapErr(err))
	}
	t.fresh.Found(k, found != 0)
	if found == 0 {
		t.changes.FoundEmpty(k)
	}
	return nil
}
