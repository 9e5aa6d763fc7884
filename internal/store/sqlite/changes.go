package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// changesPerInsert changes go in one INSERT.
const changesPerInsert = 128

// SetFeedOptions sets the retention and clock of the change feed.
func (s *Store) SetFeedOptions(o store.FeedOptions) { s.feed = o.WithDefaults() }

// LatestCursor is the cursor of the last committed change.
func (s *Store) LatestCursor(ctx context.Context) (int64, error) {
	latest, _, err := sqlstore.FeedBounds(ctx, sqlstore.Std(s.read))
	if err != nil {
		return 0, fmt.Errorf("sqlite: latest cursor: %w", mapErr(err))
	}
	return latest, nil
}

// Changes reads the change feed (see store.Feed) in one read transaction.
func (s *Store) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: changes: %w", mapErr(err))
	}
	defer tx.Rollback()
	out, next, err := sqlstore.ReadChanges(ctx, sqlstore.Std(tx), sqlstore.SQLite, since, kinds, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: changes: %w", mapErr(err))
	}
	return out, next, nil
}

// noteDeletes tells the change set which records DeleteAll is about to remove.
func (t *tx) noteDeletes(ctx context.Context, k *record.Kind) error {
	return mapErr(t.changes.NoteDeletesIn(ctx, sqlstore.Std(t.tx), k))
}

// recordChanges appends the transaction's changes to the feed and prunes what retention
// no longer keeps. The single writer connection makes cursors follow commit order.
func (t *tx) recordChanges(ctx context.Context, o store.FeedOptions) error {
	list := t.changes.List()
	if len(list) == 0 {
		return nil
	}
	now := o.Now().UTC()
	at := now.Format(sqlstore.ChangeTime)
	for len(list) > 0 {
		n := min(len(list), changesPerInsert)
		st, err := t.stmt(ctx, changesInsertSQL(n))
		if err != nil {
			return fmt.Errorf("record changes: %w", err)
		}
		args := make([]any, 0, 5*n)
		for _, c := range list[:n] {
			args = append(args, c.Kind.Name, c.ID, c.Op, at, nullIfEmpty(c.Keys))
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("record changes: %w", mapErr(err))
		}
		list = list[n:]
	}
	cutoff := now.Add(-o.Retention).Format(sqlstore.ChangeTime)
	var upto int64
	if err := t.tx.QueryRowContext(ctx, sqlstore.PruneCutoffSQL+`?`, cutoff).Scan(&upto); err != nil {
		return fmt.Errorf("prune changes: %w", mapErr(err))
	}
	if upto == 0 {
		return nil
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM changes WHERE seq <= ?`, upto); err != nil {
		return fmt.Errorf("prune changes: %w", mapErr(err))
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE name = 'changes_pruned' AND value < ?`, upto, upto); err != nil {
		return fmt.Errorf("prune changes: %w", mapErr(err))
	}
	return nil
}

func changesInsertSQL(n int) string {
	return `INSERT INTO changes (kind, id, op, time, keys) VALUES ` +
		strings.TrimSuffix(strings.Repeat(`(?, ?, ?, ?, ?), `, n), ", ")
}

// nullIfEmpty is the keys column of a change: NULL when it is not bounded.
func nullIfEmpty(keys string) any {
	if keys == "" {
		return nil
	}
	return keys
}
