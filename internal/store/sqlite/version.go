package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// versionReader answers DataVersion, which every API request asks for, from one dedicated
// read connection, of a pool of its own: a search asks for the version inside its read
// transaction, so a connection taken from the read pool could wait for one that only a
// finished search gives back. SQLite's PRAGMA data_version on a connection changes whenever another
// connection, of this process or another, commits to the file; all writes of a Store go
// through its writer connection, so the meta row is read again only after a commit.
//
// Before that query, the WAL-index header in the -shm file (shm_unix.go) is compared with
// the one read before the last query: any commit rewrites it, so when it is unchanged the
// last answer still holds, and a request pays a hundred nanoseconds instead of a query.
type versionReader struct {
	db   *sql.DB  // its own pool of one connection
	hold *shmHold // the process's descriptors of the -shm file (shm_unix.go)

	// last is the answer of the last query with the header read just before it.
	last atomic.Pointer[versionSnapshot]
	shm  *shmMap // nil until mapped, or where there is no -shm file to map

	mu      sync.Mutex
	conn    *sql.Conn // nil until first use, and after an error
	pragma  *sql.Stmt
	meta    *sql.Stmt
	seen    int64 // PRAGMA data_version when cached was read
	cached  int64
	isValid bool // cached is the meta row as of seen
}

type versionSnapshot struct {
	shm     *shmMap
	header  walHeader
	version int64
}

func (v *versionReader) get(ctx context.Context) (int64, error) {
	if last := v.last.Load(); last != nil {
		if h, ok := last.shm.header(); ok && h == last.header {
			return last.version, nil
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn == nil {
		if err := v.open(ctx); err != nil {
			return 0, err
		}
	}
	// The header is read before the query: a commit between the two makes the next call
	// query again, so the answer kept with a header is never older than that header.
	var h walHeader
	var mapped bool
	if v.shm != nil {
		h, mapped = v.shm.header()
	}
	n, err := v.query(ctx)
	if err != nil {
		return 0, err
	}
	if mapped {
		v.last.Store(&versionSnapshot{shm: v.shm, header: h, version: n})
	}
	return n, nil
}

// query reads the version with PRAGMA data_version, and the meta row when that changed.
func (v *versionReader) query(ctx context.Context) (int64, error) {
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
	if v.shm == nil {
		// The connection just read in WAL mode, so the -shm file exists and is initialised;
		// the store's connections keep it so while the store is open.
		v.shm = v.hold.mapShm()
	}
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

// close closes the version reader's connection, so that it no longer holds the file open;
// the next call opens another.
func (v *versionReader) close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	// The mapping itself stays: a request may be reading it still. It is one page, and the
	// system drops it with the process.
	v.last.Store(nil)
	if v.conn == nil {
		return nil
	}
	err := errors.Join(v.pragma.Close(), v.meta.Close(), v.conn.Close())
	v.conn, v.pragma, v.meta, v.isValid = nil, nil, nil, false
	// A connection given back stays open in the pool: closed idle, it lets the file go.
	v.db.SetMaxIdleConns(0)
	v.db.SetMaxIdleConns(1)
	if err != nil {
		return fmt.Errorf("data version connection: %w", err)
	}
	return nil
}

// shut closes the version reader and its pool, with the store.
func (v *versionReader) shut() error {
	return errors.Join(v.close(), v.db.Close())
}

// unmap closes the version reader's connection and drops its map of the -shm file, which
// leaving WAL mode deletes (Load): the next DataVersion maps the file that WAL mode creates
// again. The old map stays, as in close.
func (v *versionReader) unmap() error {
	err := v.close()
	v.mu.Lock()
	v.shm = nil
	v.mu.Unlock()
	return err
}
