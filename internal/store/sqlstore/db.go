package sqlstore

import (
	"context"
	"fmt"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Querier runs statements on a database: a pool, a connection or a transaction. The
// backends adapt their driver to it (database/sql: Std; pgx: the postgres package), so the
// reads and the key store below are written once.
type Querier interface {
	// Query runs a statement that returns rows; the caller closes them.
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	// Exec runs a statement and says how many rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
}

// QueryFunc runs a statement that returns rows, as Querier.Query does.
type QueryFunc func(ctx context.Context, query string, args ...any) (Rows, error)

// Rows is the result of Query, read row by row.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	// Record is the current row's one column, a record's doc of kind k, as a record in its
	// stored form (record.FromDoc), not decoded: the driver's own string where it hands one
	// over, else one copy of its bytes.
	Record(k *record.Kind) (record.Record, error)
	Err() error
	Close()
}

// Config describes a backend to New.
type Config struct {
	// Name starts the backend's error messages: "sqlite", "postgres".
	Name string
	// Read runs the reads; Write the key store's writes.
	Read, Write Querier
	Dialect     Dialect
	// Classify names the store sentinel a driver error stands for, or returns nil (see MapErr).
	Classify func(error) error
	// Timeout bounds each read but Scan, which lasts as long as its caller; 0 means none.
	Timeout time.Duration
	// Atomic runs fn in one transaction on the writer: committed when fn returns nil,
	// rolled back otherwise (the image store's writes, which touch several tables).
	Atomic func(ctx context.Context, fn func(q Querier) error) error
}

// DB is the part of a store both backends share: records read by id, kind or query, and the
// key store. A backend's Store embeds it and adds writes, and its own faster reads.
type DB struct {
	c        Config
	keys     keySQL
	frontier FrontierStatements
}

// New returns the shared part of a store.
func New(c Config) *DB {
	return &DB{c: c, keys: newKeySQL(c.Dialect), frontier: FrontierFor(c.Dialect)}
}

// MapErr puts the store's sentinel on an error of the backend's driver (see MapErr).
func (db *DB) MapErr(err error) error { return MapErr(err, db.c.Classify) }

// bounded gives a read its deadline.
func (db *DB) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if db.c.Timeout == 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, db.c.Timeout)
}

// Bounded gives a backend's own reads (the change feed's, say) the deadline of the shared ones.
func (db *DB) Bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return db.bounded(ctx)
}

// Find returns the records the query selects.
func (db *DB) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	query, args, err := Select(db.c.Dialect, q)
	if err != nil {
		return nil, fmt.Errorf("%s: find: %w", db.c.Name, err)
	}
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	rows, err := db.c.Read.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: find %s: %w", db.c.Name, q.Kind.Name, db.MapErr(err))
	}
	out, err := db.Collect(rows, q.Kind)
	if err != nil {
		return nil, fmt.Errorf("%s: find %s: %w", db.c.Name, q.Kind.Name, err)
	}
	return out, nil
}

// Collect reads every row's record (in its stored form, Rows.Record), and closes rows.
func (db *DB) Collect(rows Rows, k *record.Kind) ([]record.Record, error) {
	var out []record.Record
	err := db.EachRecord(rows, k, func(r record.Record) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// EachRecord calls fn with each row's record (in its stored form, Rows.Record), and closes
// rows. An error of fn comes back as it is.
func (db *DB) EachRecord(rows Rows, k *record.Kind, fn func(record.Record) error) error {
	defer rows.Close()
	for rows.Next() {
		r, err := rows.Record(k)
		if err != nil {
			return db.MapErr(err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return db.MapErr(rows.Err())
}

// Get returns one record by id, or store.ErrNotFound.
func (db *DB) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	return db.GetWith(ctx, db.c.Read.Query, k, id)
}

// GetWith is Get running its statement with query: a backend's prepared statements, say.
func (db *DB) GetWith(ctx context.Context, query QueryFunc, k *record.Kind, id string) (record.Record, error) {
	if k == nil {
		return record.Record{}, fmt.Errorf("%s: get: %w: no kind", db.c.Name, store.ErrBadQuery)
	}
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	rows, err := query(ctx, `SELECT doc FROM `+Table(k)+` WHERE id = `+db.c.Dialect.Param(1), id)
	if err != nil {
		return record.Record{}, fmt.Errorf("%s: get %s %q: %w", db.c.Name, k.Name, id, db.MapErr(err))
	}
	r, err := db.first(rows, k)
	if err != nil {
		return record.Record{}, fmt.Errorf("%s: get %s %q: %w", db.c.Name, k.Name, id, err)
	}
	return r, nil
}

// first reads the record of the first row, or returns store.ErrNotFound; it closes rows.
func (db *DB) first(rows Rows, k *record.Kind) (record.Record, error) {
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return record.Record{}, db.MapErr(err)
		}
		return record.Record{}, store.ErrNotFound
	}
	r, err := rows.Record(k)
	return r, db.MapErr(err)
}

// Scan calls fn for every record of a kind in insertion order. It has no deadline of its
// own (an export takes as long as it takes) and returns an error of fn unwrapped.
func (db *DB) Scan(ctx context.Context, k *record.Kind, fn func(record.Record) error) error {
	if k == nil {
		return fmt.Errorf("%s: scan: %w: no kind", db.c.Name, store.ErrBadQuery)
	}
	rows, err := db.c.Read.Query(ctx, `SELECT doc FROM `+Table(k)+` ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("%s: scan %s: %w", db.c.Name, k.Name, db.MapErr(err))
	}
	var fnErr error
	err = db.EachRecord(rows, k, func(r record.Record) error {
		fnErr = fn(r)
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("%s: scan %s: %w", db.c.Name, k.Name, err)
	}
	return nil
}

// Count returns how many records of a kind there are.
func (db *DB) Count(ctx context.Context, k *record.Kind) (int64, error) {
	if k == nil {
		return 0, fmt.Errorf("%s: count: %w: no kind", db.c.Name, store.ErrBadQuery)
	}
	var n int64
	if err := db.QueryRow(ctx, `SELECT count(*) FROM `+Table(k), nil, &n); err != nil {
		return 0, fmt.Errorf("%s: count %s: %w", db.c.Name, k.Name, err)
	}
	return n, nil
}

// QueryRow runs a read that returns one row, within the read deadline, and scans it into
// dest: store.ErrNotFound when there is no row, errors mapped.
func (db *DB) QueryRow(ctx context.Context, query string, args []any, dest ...any) error {
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	return db.MapErr(queryRow(ctx, db.c.Read, query, args, dest...))
}

func queryRow(ctx context.Context, q Querier, query string, args []any, dest ...any) error {
	return queryRowFunc(ctx, q, query, args, func(scan func(...any) error) error { return scan(dest...) })
}

// queryRowFunc reads the one row a statement selects with scan (a row's Scan); none is
// store.ErrNotFound.
func queryRowFunc(ctx context.Context, q Querier, query string, args []any, scan func(func(...any) error) error) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return store.ErrNotFound
	}
	if err := scan(rows.Scan); err != nil {
		return err
	}
	return rows.Err()
}
