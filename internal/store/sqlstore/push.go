package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/store"
)

// The progress of pushes (store.Pushes, migrations *_push): one row per push. A lease is
// taken by a statement that changes the row only while it is free, expired or already the
// holder's, so two processes never hold it at once, on SQLite or PostgreSQL.

type pushSQL struct {
	ensure, take, release, cursor, save string
}

func newPushSQL(d Dialect) pushSQL {
	ph := numbered(d)
	return pushSQL{
		ensure: `INSERT INTO push_progress (name, last_cursor, holder, until_ms) VALUES (` + ph(1) + `, -1, '', 0) ON CONFLICT (name) DO NOTHING`,
		// $1 name, $2 holder, $3 the lease's end, $4 now.
		take: `UPDATE push_progress SET holder = ` + ph(2) + `, until_ms = ` + ph(3) +
			` WHERE name = ` + ph(1) + ` AND (holder = ` + ph(2) + ` OR until_ms <= ` + ph(4) + `)`,
		release: `UPDATE push_progress SET until_ms = 0 WHERE name = ` + ph(1) + ` AND holder = ` + ph(2),
		cursor:  `SELECT last_cursor FROM push_progress WHERE name = ` + ph(1),
		save:    `UPDATE push_progress SET last_cursor = ` + ph(3) + ` WHERE name = ` + ph(1) + ` AND holder = ` + ph(2),
	}
}

// TakePushLease takes or renews a push's lease (store.Pushes).
func (db *DB) TakePushLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	q := newPushSQL(db.c.Dialect)
	if _, err := db.c.Write.Exec(ctx, q.ensure, name); err != nil {
		return false, fmt.Errorf("%s: push lease: %w", db.c.Name, db.MapErr(err))
	}
	n, err := db.c.Write.Exec(ctx, q.take, name, holder, now.Add(ttl).UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("%s: push lease: %w", db.c.Name, db.MapErr(err))
	}
	return n == 1, nil
}

// ReleasePushLease ends a holder's lease (store.Pushes).
func (db *DB) ReleasePushLease(ctx context.Context, name, holder string) error {
	if _, err := db.c.Write.Exec(ctx, newPushSQL(db.c.Dialect).release, name, holder); err != nil {
		return fmt.Errorf("%s: push lease: %w", db.c.Name, db.MapErr(err))
	}
	return nil
}

// PushCursor reads a push's stored cursor (store.Pushes).
func (db *DB) PushCursor(ctx context.Context, name string) (int64, error) {
	var c int64
	err := queryRow(ctx, db.c.Read, newPushSQL(db.c.Dialect).cursor, []any{name}, &c)
	if errors.Is(err, store.ErrNotFound) {
		return store.NoCursor, nil
	}
	if err != nil {
		return 0, fmt.Errorf("%s: push cursor: %w", db.c.Name, db.MapErr(err))
	}
	return c, nil
}

// SavePushCursor stores a push's cursor while holder holds its lease (store.Pushes).
func (db *DB) SavePushCursor(ctx context.Context, name, holder string, cursor int64) error {
	n, err := db.c.Write.Exec(ctx, newPushSQL(db.c.Dialect).save, name, holder, cursor)
	if err != nil {
		return fmt.Errorf("%s: push cursor: %w", db.c.Name, db.MapErr(err))
	}
	if n != 1 {
		return store.ErrLeaseLost
	}
	return nil
}
