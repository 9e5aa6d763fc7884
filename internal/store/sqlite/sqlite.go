// Package sqlite is the store.Store of one SQLite file (pure Go driver, no C compiler). Reads
// go through a pool of several connections; writes through a single connection, so writers
// queue in Go instead of failing with SQLITE_BUSY, and WAL lets reads run during a write.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Pragmas of every connection. busy_timeout covers another process (an import while the
// server runs) holding the write lock; synchronous=NORMAL is safe with WAL and much faster;
// journal_size_limit shrinks the WAL file back after a large import.
var pragmas = []string{
	"busy_timeout(5000)",
	"journal_mode(WAL)",
	"synchronous(NORMAL)",
	"foreign_keys(ON)",
	"temp_store(MEMORY)",
	"journal_size_limit(67108864)",
}

// Page cache of each connection, in KiB. Every connection has a cache of its own, so the
// readers get a small one: together they stay well under the writer's, and a page they
// miss comes from the operating system's file cache, which the readers share. Measured at
// full scale under the benchmark's mixed workload, SQLite's own memory was about 190 MB with
// 8 MiB per reader and 90 MB with 3 MiB, for 10% fewer misses served per second. The writer
// gets a large one because an import rewrites the same b-tree pages over and over.
const (
	readCacheKiB  = 3 << 10
	writeCacheKiB = 64 << 10
)

// Store is a sportsdb database in one SQLite file.
type Store struct {
	read      *sql.DB
	readConns int // the read pool's size
	write     *sql.DB
	version   *versionReader
	loading   sync.Mutex // held by Load, which changes the journal mode
}

var _ store.Store = (*Store)(nil)

// Open opens the SQLite database at path, creating the file when it is missing, and brings
// its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: open %q: want the path of a database file", path)
	}
	write, err := sql.Open("sqlite", dsn(path, writeCacheKiB, "_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxIdleTime(0)
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, mapErr(err))
	}
	// A migration that filled an index left the writer's cache full; a server seldom writes,
	// so it would hold that memory for nothing.
	if _, err := write.ExecContext(ctx, `PRAGMA shrink_memory`); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, mapErr(err))
	}
	read, err := sql.Open("sqlite", dsn(path, readCacheKiB, "_pragma=query_only(1)"))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// One connection more than the readers: DataVersion holds one for itself.
	n := max(4, runtime.GOMAXPROCS(0)) + 1
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	read.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{read: read, readConns: n, write: write, version: &versionReader{db: read}}
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return s, nil
}

// dsn is the driver's name of the file with the pragmas and a page cache of cacheKiB. The
// path goes in as a URI so that '?' or '#' in a file name cannot be read as parameters.
func dsn(path string, cacheKiB int, extra string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	var b strings.Builder
	b.WriteString("file:" + esc + "?")
	for _, p := range pragmas {
		b.WriteString("_pragma=" + p + "&")
	}
	b.WriteString("_pragma=cache_size(-" + strconv.Itoa(cacheKiB) + ")&")
	b.WriteString(extra)
	return b.String()
}

func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := sqlstore.Migrations(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range ms {
		if err := migrateOne(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

// migrateOne applies one migration unless it is recorded; the check and the apply share an
// immediate transaction, so two processes opening a new file cannot both apply it.
func migrateOne(ctx context.Context, db *sql.DB, m sqlstore.Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.Version, err)
	}
	defer tx.Rollback()
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&done); err != nil {
		return fmt.Errorf("migration %s: %w", m.Version, err)
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("migration %s: %w", m.Version, err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied) VALUES (?, ?)`, m.Version, now); err != nil {
		return fmt.Errorf("migration %s: %w", m.Version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.Version, err)
	}
	return nil
}

// Ping says whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("sqlite: ping: %w", mapErr(err))
	}
	return nil
}

// Close releases the database. The writer closes last, so its connection checkpoints the WAL.
func (s *Store) Close() error {
	return errors.Join(s.version.close(), s.read.Close(), s.write.Close())
}
