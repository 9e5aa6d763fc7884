package sqlite

import (
	"context"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// The inserts of a transaction run on a goroutine of their own (sqlstore.Pipe). Every other
// statement of the transaction first waits for them (sqlstore.Tx).

// Send queues rows for insertion. The caller boxes their values (in the order of
// sqlstore.InsertColumns, row after row), so that the insert goroutine, the slower side,
// only runs statements. It returns the error of an earlier insert, if one failed.
func (t *tx) Send(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	t.Fresh.Wrote(k, rows)
	args := make([]any, 0, len(rows)*(2+len(k.Indexed)))
	for _, row := range rows {
		args = row.AppendArgs(args)
	}
	return t.Pipe.Send(func() error { return t.insert(ctx, k, args) })
}
