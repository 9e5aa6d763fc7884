package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// Find returns the records the query selects.
func (s *Store) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	query, args, lookups, err := selectSQL(q)
	if err != nil {
		return nil, fmt.Errorf("sqlite: find: %w", err)
	}
	var rows *sql.Rows
	if len(lookups) == 0 {
		rows, err = s.read.QueryContext(ctx, query, args...)
	} else {
		// The index lookups and the query share a read transaction, so they see the same
		// data; it ends after the rows are read.
		var tx *sql.Tx
		if tx, err = s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
			return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, mapErr(err))
		}
		defer tx.Rollback()
		if query, args, err = resolve(ctx, tx, q, query, args, lookups); err != nil {
			return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, err)
		}
		rows, err = tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, mapErr(err))
	}
	var out []record.Record
	err = decodeRows(rows, q.Kind, func(r record.Record) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, err)
	}
	return out, nil
}

// decodeRows calls fn with each row's doc decoded, and closes rows. An error of fn comes
// back as it is.
func decodeRows(rows *sql.Rows, k *record.Kind, fn func(record.Record) error) error {
	defer rows.Close()
	for rows.Next() {
		var doc sql.RawBytes
		if err := rows.Scan(&doc); err != nil {
			return mapErr(err)
		}
		r, err := record.DecodeDoc(k, doc)
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return mapErr(rows.Err())
}

// Get returns one record by id, or store.ErrNotFound.
func (s *Store) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	if k == nil {
		return record.Record{}, fmt.Errorf("sqlite: get: %w: no kind", store.ErrBadQuery)
	}
	var doc []byte
	err := s.read.QueryRowContext(ctx, `SELECT doc FROM `+sqlstore.Table(k)+` WHERE id = ?`, id).Scan(&doc)
	if err != nil {
		return record.Record{}, fmt.Errorf("sqlite: get %s %q: %w", k.Name, id, mapErr(err))
	}
	r, err := record.DecodeDoc(k, doc)
	if err != nil {
		return record.Record{}, fmt.Errorf("sqlite: get %s %q: %w", k.Name, id, err)
	}
	return r, nil
}

// Scan calls fn for every record of a kind in insertion order. It stops at the first error
// of fn and returns it unwrapped.
func (s *Store) Scan(ctx context.Context, k *record.Kind, fn func(record.Record) error) error {
	if k == nil {
		return fmt.Errorf("sqlite: scan: %w: no kind", store.ErrBadQuery)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT doc FROM `+sqlstore.Table(k)+` ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("sqlite: scan %s: %w", k.Name, mapErr(err))
	}
	var fnErr error
	err = decodeRows(rows, k, func(r record.Record) error {
		fnErr = fn(r)
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("sqlite: scan %s: %w", k.Name, err)
	}
	return nil
}

// Count returns how many records of a kind there are.
func (s *Store) Count(ctx context.Context, k *record.Kind) (int64, error) {
	if k == nil {
		return 0, fmt.Errorf("sqlite: count: %w: no kind", store.ErrBadQuery)
	}
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM `+sqlstore.Table(k)).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count %s: %w", k.Name, mapErr(err))
	}
	return n, nil
}

// DataVersion changes whenever a Write succeeds, in this process or another one on the same
// file. It reads the meta row only when the file changed since the last call.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	v, err := s.version.get(ctx)
	if err != nil {
		return 0, fmt.Errorf("sqlite: data version: %w", err)
	}
	return v, nil
}
