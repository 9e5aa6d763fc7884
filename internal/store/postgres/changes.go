package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// notifyChannel, followed by the schema's name, is where a Write that recorded changes
// notifies the listeners (Listen) of every replica, at its commit. Notifications are for the
// whole database: the schema keeps two deployments (or two tests) in one database apart.
const notifyChannel = "sportsdb_changes:"

// SetFeedOptions sets the retention and clock of the change feed.
func (s *Store) SetFeedOptions(o store.FeedOptions) { s.feed = o.WithDefaults() }

// LatestCursor is the cursor of the last committed change.
func (s *Store) LatestCursor(ctx context.Context) (int64, error) {
	ctx, cancel := s.Bounded(ctx)
	defer cancel()
	latest, _, err := sqlstore.FeedBounds(ctx, querier{s.pool})
	if err != nil {
		return 0, fmt.Errorf("postgres: latest cursor: %w", mapErr(err))
	}
	return latest, nil
}

// Changes reads the change feed (see store.Feed). Writers draw cursors under a table lock
// held to their commit, so every cursor up to the latest one seen is committed and visible.
func (s *Store) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	ctx, cancel := s.Bounded(ctx)
	defer cancel()
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: changes: %w", mapErr(err))
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	out, next, err := sqlstore.ReadChanges(ctx, querier{tx}, sqlstore.Postgres, since, kinds, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: changes: %w", mapErr(err))
	}
	return out, next, nil
}

// noteDeletes tells the change set which records DeleteAll is about to remove.
func (t *tx) noteDeletes(ctx context.Context, k *record.Kind) error {
	return mapErr(t.changes.NoteDeletesIn(ctx, querier{t.tx}, k))
}

// recordChanges appends the transaction's changes to the feed, prunes what retention no
// longer keeps and notifies the listeners. The EXCLUSIVE lock (reads go on) is held to the
// commit, so writers draw cursors one after the other in commit order: a reader never sees
// a cursor while a smaller one is still to commit.
func (t *tx) recordChanges(ctx context.Context, o store.FeedOptions) error {
	list, bulk := t.changes.List(), t.changes.Bulk()
	if len(list) == 0 && len(bulk) == 0 {
		return nil
	}
	if _, err := t.tx.Exec(ctx, `LOCK TABLE changes IN EXCLUSIVE MODE`); err != nil {
		return fmt.Errorf("record changes: %w", mapErr(err))
	}
	kinds, ids, ops := make([]string, len(list)), make([]string, len(list)), make([]string, len(list))
	keys := make([]*string, len(list)) // nil: NULL, a change that is not bounded
	for i, c := range list {
		kinds[i], ids[i], ops[i] = c.Kind.Name, c.ID, c.Op
		if c.Keys != "" {
			keys[i] = &list[i].Keys
		}
	}
	now := o.Now().UTC()
	at := now.Format(sqlstore.ChangeTime)
	// WITH ORDINALITY keeps the order of the list in the order cursors are drawn.
	_, err := t.tx.Exec(ctx, `INSERT INTO changes (kind, id, op, time, keys)
		SELECT k, i, o, $4, ks FROM unnest($1::text[], $2::text[], $3::text[], $5::text[]) WITH ORDINALITY AS u(k, i, o, ks, n) ORDER BY n`,
		kinds, ids, ops, at, keys)
	if err != nil {
		return fmt.Errorf("record changes: %w", mapErr(err))
	}
	for _, k := range bulk {
		if _, err := t.tx.Exec(ctx, sqlstore.BulkChangesSQL(sqlstore.Postgres, k), k.Name, store.OpUpsert, at); err != nil {
			return fmt.Errorf("record changes of %s: %w", k.Name, mapErr(err))
		}
	}
	cutoff := now.Add(-o.Retention).Format(sqlstore.ChangeTime)
	var upto int64
	if err := t.tx.QueryRow(ctx, sqlstore.PruneCutoffSQL+`$1`, cutoff).Scan(&upto); err != nil {
		return fmt.Errorf("prune changes: %w", mapErr(err))
	}
	if upto > 0 {
		if _, err := t.tx.Exec(ctx, `DELETE FROM changes WHERE seq <= $1`, upto); err != nil {
			return fmt.Errorf("prune changes: %w", mapErr(err))
		}
		if _, err := t.tx.Exec(ctx, `UPDATE meta SET value = $1 WHERE name = 'changes_pruned' AND value < $1`, upto); err != nil {
			return fmt.Errorf("prune changes: %w", mapErr(err))
		}
	}
	if _, err := t.tx.Exec(ctx, `SELECT pg_notify($1 || current_schema(), '')`, notifyChannel); err != nil {
		return fmt.Errorf("notify changes: %w", mapErr(err))
	}
	return nil
}

// Listen calls fn after each notification of committed changes, from any replica, until ctx
// ends or the connection fails (the error says which). It holds one connection of the pool.
func (s *Store) Listen(ctx context.Context, fn func()) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: listen: %w", mapErr(err))
	}
	// The connection leaves the pool: a LISTEN must not follow it to another user.
	pc := conn.Hijack()
	defer pc.Close(context.WithoutCancel(ctx))
	var schema string
	if err := pc.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return fmt.Errorf("postgres: listen: %w", mapErr(err))
	}
	if _, err := pc.Exec(ctx, `LISTEN `+pgx.Identifier{notifyChannel + schema}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: listen: %w", mapErr(err))
	}
	for {
		if _, err := pc.WaitForNotification(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("postgres: listen: %w", mapErr(err))
		}
		fn()
	}
}
