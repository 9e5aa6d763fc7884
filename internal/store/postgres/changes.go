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

// History reads a record's changes with the record as each left it (store.History).
func (s *Store) History(ctx context.Context, k *record.Kind, id string) ([]store.Version, error) {
	ctx, cancel := s.Bounded(ctx)
	defer cancel()
	out, err := sqlstore.ReadHistory(ctx, querier{s.pool}, sqlstore.Postgres, k, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: history: %w", mapErr(err))
	}
	return out, nil
}

// InsertChanges appends changes to the feed and notifies the listeners at the commit. The
// EXCLUSIVE lock (reads go on) is held to the commit, so writers draw cursors one after the
// other in commit order: a reader never sees a cursor while a smaller one is still to commit.
func (t *tx) InsertChanges(ctx context.Context, list []sqlstore.PendingChange, at, by string) error {
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	if _, err := t.tx.Exec(ctx, `LOCK TABLE changes IN EXCLUSIVE MODE`); err != nil {
		return mapErr(err)
	}
	if len(list) > 0 {
		kinds, ids, ops := make([]string, len(list)), make([]string, len(list)), make([]string, len(list))
		keys := make([]*string, len(list)) // nil: NULL, a change that is not bounded
		for i, c := range list {
			kinds[i], ids[i], ops[i] = c.Kind.Name, c.ID, c.Op
			if c.Keys != "" {
				keys[i] = &list[i].Keys
			}
		}
		// WITH ORDINALITY keeps the order of the list in the order cursors are drawn.
		_, err := t.tx.Exec(ctx, `INSERT INTO changes (kind, id, op, time, keys, writer)
		SELECT k, i, o, $4, ks, $6::text FROM unnest($1::text[], $2::text[], $3::text[], $5::text[]) WITH ORDINALITY AS u(k, i, o, ks, n) ORDER BY n`,
			kinds, ids, ops, at, keys, sqlstore.NullIfEmpty(by))
		if err != nil {
			return mapErr(err)
		}
	}
	if _, err := t.tx.Exec(ctx, `SELECT pg_notify($1 || current_schema(), '')`, notifyChannel); err != nil {
		return fmt.Errorf("notify: %w", mapErr(err))
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
