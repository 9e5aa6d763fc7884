package sqlite

import (
	"context"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// The inserts of a transaction run on a goroutine of their own (sqlstore.Pipe). Every other
// statement of the transaction that could meet queued rows first waits for them (sync);
// only the look at a kind's table before its first rows are sent goes ahead (see look).

// send queues rows for insertion. The caller boxes their values (in the order of
// sqlstore.InsertColumns, row after row), so that the insert goroutine, the slower side,
// only runs statements. It returns the error of an earlier insert, if one failed.
func (t *tx) send(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	if len(rows) == 0 {
		return nil // a failed insert is told by the next send or sync
	}
	args := make([]any, 0, len(rows)*(2+len(k.Indexed)))
	for _, row := range rows {
		args = row.AppendArgs(args)
	}
	return t.pipe.Send(func() error { return t.insert(ctx, k, args) })
}

// sync waits for the queued inserts and returns the error of the first that failed.
func (t *tx) sync() error { return t.pipe.Sync() }
