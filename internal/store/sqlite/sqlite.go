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

	"sportsdb/internal/record"
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

// Page cache sizes, in KiB. The readers get a small one: a page they miss comes from the
// operating system's file cache, which they share, and each cached page takes a block of
// twice its size from the driver's allocator, so larger reader caches raised the server's
// peak memory without raising its rates. The memory the small caches leave goes to the Go
// runtime's limit (cmd/sportsdb, goHeadroomMB): the collector runs less often, which saves
// more CPU than the pages read again cost (docs/PERFORMANCE.md). The writer gets a large
// one because an import rewrites the same b-tree pages over and over, but only while it
// writes (see Write): between writes it has a reader's.
//
// The limits are not per connection. The driver's SQLite is built with
// SQLITE_ENABLE_MEMORY_MANAGEMENT, so all the page caches of the process are one pool
// (pcache1's global PGroup) holding up to the sum of every connection's cache_size: a
// connection at its own limit takes the least recently used page of the pool, often another
// connection's, which then grows back with new pages. So the writer's cache is counted only
// during writes: counted while idle, it let the readers hold many times the pages.
// changesConns is the size of the change feed's pool.
const changesConns = 2

const (
	readCacheKiB  = 1 << 10
	writeCacheKiB = 64 << 10
)

// Store is a sportsdb database in one SQLite file.
type Store struct {
	*sqlstore.DB // Get, Scan, Count and the key store
	read         *sql.DB
	readConns    int                           // the read pool's size
	changes      *sql.DB                       // the change feed's reads (changesConns)
	rowCounts    rowCounts                     // the searches' statistics (fts.go)
	stmts        stmts                         // the read pool's prepared statements (stmts.go)
	wstmts       stmts                         // the writer's prepared statements, for the shared code's writes
	ordered      map[*record.Kind][]tableIndex // the tables' indexes, for Find's ordered reads (order.go)
	write        *sql.DB
	version      *versionReader
	shm          *shmHold
	loading      sync.Mutex // held by Load, which changes the journal mode
	feed         store.FeedOptions
}

var _ store.Store = (*Store)(nil)

// Open opens the SQLite database at path, creating the file when it is missing, and brings
// its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: open %q: want the path of a database file", path)
	}
	shm := holdShm(path)
	s, err := open(ctx, path, shm)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open %s: %w", path, err), shm.release())
	}
	return s, nil
}

// open opens the writer, brings the schema up to date, then opens the readers.
func open(ctx context.Context, path string, shm *shmHold) (*Store, error) {
	write, err := sql.Open("sqlite", dsn(path, writeCacheKiB, "_txlock=immediate"))
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxIdleTime(0)
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, mapErr(err)
	}
	// Samples kept by an earlier version's ANALYZE go before the readers load the statistics.
	if err := dropSamples(ctx, write, ""); err != nil {
		write.Close()
		return nil, mapErr(err)
	}
	// A migration that filled an index left the writer's cache full; a server seldom writes,
	// so it would hold that memory for nothing. Its large cache returns with the next Write.
	for _, q := range []string{cacheSize(readCacheKiB), `PRAGMA shrink_memory`} {
		if _, err := write.ExecContext(ctx, q); err != nil {
			write.Close()
			return nil, mapErr(err)
		}
	}
	readDSN := dsn(path, readCacheKiB, "_pragma=query_only(1)")
	read, err := sql.Open("sqlite", readDSN)
	if err != nil {
		write.Close()
		return nil, err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	read.SetConnMaxIdleTime(5 * time.Minute)
	// DataVersion's connection is a pool of its own: a search asks for the version while its
	// transaction holds a read connection, so taken from the read pool it could wait for a
	// connection that only a finished search frees (version.go).
	vdb, err := sql.Open("sqlite", readDSN)
	if err != nil {
		read.Close()
		write.Close()
		return nil, err
	}
	vdb.SetMaxOpenConns(1)
	vdb.SetMaxIdleConns(1)
	// The change feed's reads have a pool of their own too: every request whose data version
	// moved asks the feed what changed (the response cache's tracker, internal/respcache)
	// before it can be answered from the cache, and behind the answers being computed in
	// the read pool it waited for them, every request with it.
	cdb, err := sql.Open("sqlite", readDSN)
	if err != nil {
		read.Close()
		vdb.Close()
		write.Close()
		return nil, err
	}
	cdb.SetMaxOpenConns(changesConns)
	cdb.SetMaxIdleConns(changesConns)
	cdb.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{read: read, readConns: n, changes: cdb, write: write, shm: shm, version: &versionReader{db: vdb, hold: shm},
		feed: store.FeedOptions{}.WithDefaults(), stmts: stmts{db: read}, wstmts: stmts{db: write}}
	s.DB = sqlstore.New(sqlstore.Config{Name: "sqlite", Read: preparedQuerier{stmts: &s.stmts},
		Write:   preparedQuerier{stmts: &s.wstmts},
		Dialect: sqlstore.SQLite, Classify: classify, Atomic: s.atomic})
	if err := s.Ping(ctx); err != nil {
		return nil, errors.Join(err, s.version.shut(), read.Close(), cdb.Close(), write.Close())
	}
	if s.ordered, err = readIndexes(ctx, write); err != nil {
		return nil, errors.Join(mapErr(err), s.version.shut(), read.Close(), cdb.Close(), write.Close())
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

// cacheSize is the statement that gives a connection a page cache of cacheKiB.
func cacheSize(cacheKiB int) string {
	return `PRAGMA cache_size = -` + strconv.Itoa(cacheKiB)
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

// Close releases the database. The writer closes last, so its connection checkpoints the WAL;
// the -shm descriptors are released after every connection (shm_unix.go).
func (s *Store) Close() error {
	err := errors.Join(s.version.shut(), s.stmts.close(), s.wstmts.close(), s.read.Close(), s.changes.Close(), s.write.Close())
	return errors.Join(err, s.shm.release())
}

// PoolStats reads the reader and writer pools.
func (s *Store) PoolStats() []store.PoolStats {
	return []store.PoolStats{sqlstore.PoolStatsOf("read", s.read), sqlstore.PoolStatsOf("write", s.write),
		sqlstore.PoolStatsOf("version", s.version.db), sqlstore.PoolStatsOf("changes", s.changes)}
}
