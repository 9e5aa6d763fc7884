package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// versionReader answers DataVersion, which every API request asks for, from one dedicated
// read connection. SQLite's PRAGMA data_version on a connection changes whenever another
// connection, of this process or another, commits to the file; all writes of a Store go
// through its writer connection, so the meta row is read again only after a commit.
type versionReader struct {
	db *sql.DB

	mu      sync.Mutex
	conn    *sql.Conn // nil until first use, and after an error
	pragma  *sql.Stmt
	meta    *sql.Stmt
	seen    int64 // PRAGMA data_version when cached was read
	cached  int64
	isValid bool // cached is the meta row as of seen
}

func (v *versionReader) get(ctx context.Context) (int64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn == nil {
		if err := v.open(ctx); err != nil {
			return 0, err
		}
	}
	var dv int64
	if err := v.pragma.QueryRowContext(ctx).Scan(&dv); err != nil {
		v.reset()
		return 0, mapErr(err)
	}
	if v.isValid && dv == v.seen {
		return v.cached, nil
	}
	var n int64
	if err := v.meta.QueryRowContext(ctx).Scan(&n); err != nil {
		v.reset()
		return 0, mapErr(err)
	}
	// A commit between the pragma and this read makes the pragma differ on the next call,
	// so the next call reads the row again: cached is never older than seen.
	v.seen, v.cached, v.isValid = dv, n, true
	return n, nil
}

func (v *versionReader) open(ctx context.Context) error {
	conn, err := v.db.Conn(ctx)
	if err != nil {
		return mapErr(err)
	}
	pragma, err := conn.PrepareContext(ctx, `PRAGMA data_version`)
	if err != nil {
		conn.Close()
		return mapErr(err)
	}
	meta, err := conn.PrepareContext(ctx, `SELECT value FROM meta WHERE name = 'data_version'`)
	if err != nil {
		pragma.Close()
		conn.Close()
		return mapErr(err)
	}
	v.conn, v.pragma, v.meta, v.isValid = conn, pragma, meta, false
	return nil
}

// reset gives the connection back after an error; the next call starts from a new one.
func (v *versionReader) reset() {
	if v.conn == nil {
		return
	}
	v.pragma.Close()
	v.meta.Close()
	v.conn.Close()
	v.conn, v.pragma, v.meta, v.isValid = nil, nil, nil, false
}

func (v *versionReader) close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn == nil {
		return nil
	}
	err := errors.Join(v.pragma.Close(), v.meta.Close(), v.conn.Close())
	v.conn, v.pragma, v.meta, v.isValid = nil, nil, nil, false
	if err != nil {
		return fmt.Errorf("data version connection: %w", err)
	}
	return nil
}
