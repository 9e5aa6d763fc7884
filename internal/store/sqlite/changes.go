package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// changesPerInsert changes with their values go in one INSERT; idsPerInsert changes go in
// one JSON array of ids.
const (
	changesPerInsert = 128
	idsPerInsert     = 8192
)

// SetFeedOptions sets the retention and clock of the change feed.
func (s *Store) SetFeedOptions(o store.FeedOptions) { s.feed = o.WithDefaults() }

// LatestCursor is the cursor of the last committed change.
func (s *Store) LatestCursor(ctx context.Context) (int64, error) {
	latest, _, err := sqlstore.FeedBounds(ctx, sqlstore.Std(s.changes))
	if err != nil {
		return 0, fmt.Errorf("sqlite: latest cursor: %w", mapErr(err))
	}
	return latest, nil
}

// Changes reads the change feed (see store.Feed) in one read transaction.
func (s *Store) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	tx, err := s.changes.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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

// History reads a record's changes with the record as each left it (store.History).
func (s *Store) History(ctx context.Context, k *record.Kind, id string) ([]store.Version, error) {
	out, err := sqlstore.ReadHistory(ctx, sqlstore.Std(s.read), sqlstore.SQLite, k, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: history: %w", mapErr(err))
	}
	return out, nil
}

// InsertChanges appends changes to the feed, in their order. The ids of a stretch of changes
// of one kind and operation without keys go as one JSON array: an import's hundreds of
// thousands of changes (past the keyed ones, see sqlstore.ChangeSet) then cost a few
// statements, where binding the values of each change cost more than writing the rows.
// Changes with keys, and ids that are not valid UTF-8 (JSON would alter them), go
// changesPerInsert to a statement.
func (t *tx) InsertChanges(ctx context.Context, list []sqlstore.PendingChange, at, by string) error {
	writer := sqlstore.NullIfEmpty(by)
	var ids []byte
	for len(list) > 0 {
		c := list[0]
		if !inArray(c) {
			n := 1
			for n < len(list) && n < changesPerInsert && !inArray(list[n]) {
				n++
			}
			args := make([]any, 0, 6*n)
			for _, c := range list[:n] {
				args = append(args, c.Kind.Name, c.ID, c.Op, at, sqlstore.NullIfEmpty(c.Keys), writer)
			}
			if err := t.execChange(ctx, changesInsertSQL(n), args...); err != nil {
				return err
			}
			list = list[n:]
			continue
		}
		ids = append(ids[:0], '[')
		n := 0
		for ; n < len(list) && n < idsPerInsert && inArray(list[n]) && list[n].Kind == c.Kind && list[n].Op == c.Op; n++ {
			if n > 0 {
				ids = append(ids, ',')
			}
			ids = record.AppendString(ids, list[n].ID)
		}
		ids = append(ids, ']')
		if err := t.execChange(ctx, `INSERT INTO changes (kind, id, op, time, writer) SELECT ?, value, ?, ?, ? FROM json_each(?)`, c.Kind.Name, c.Op, at, writer, string(ids)); err != nil {
			return err
		}
		list = list[n:]
	}
	return nil
}

// inArray says whether a change can go in a JSON array of ids (see insertChanges).
func inArray(c sqlstore.PendingChange) bool { return c.Keys == "" && utf8.ValidString(c.ID) }

func (t *tx) execChange(ctx context.Context, query string, args ...any) error {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, args...); err != nil {
		return mapErr(err)
	}
	return nil
}

func changesInsertSQL(n int) string {
	return `INSERT INTO changes (kind, id, op, time, keys, writer) VALUES ` +
		strings.TrimSuffix(strings.Repeat(`(?, ?, ?, ?, ?, ?), `, n), ", ")
}
