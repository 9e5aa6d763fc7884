package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// Find returns the records the query selects.
func (s *Store) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	query, args, err := sqlstore.Select(sqlstore.Postgres, q)
	if err != nil {
		return nil, err
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: find %s: %w", q.Kind.Name, mapErr(err))
	}
	var out []record.Record
	err = decodeRows(rows, q.Kind, func(r record.Record) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: find %s: %w", q.Kind.Name, err)
	}
	return out, nil
}

// decodeRows calls fn with each row's doc decoded, and closes rows. An error of fn comes
// back as it is.
func decodeRows(rows pgx.Rows, k *record.Kind, fn func(record.Record) error) error {
	defer rows.Close()
	for rows.Next() {
		// RawValues is the text of the doc column, valid until Next: decoding copies it.
		raw := rows.RawValues()
		if len(raw) != 1 {
			return fmt.Errorf("want 1 column, got %d", len(raw))
		}
		r, err := record.DecodeDoc(k, raw[0])
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
		return record.Record{}, fmt.Errorf("postgres: get: %w: no kind", store.ErrBadQuery)
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	var doc []byte
	err := s.pool.QueryRow(ctx, `SELECT doc FROM `+sqlstore.Table(k)+` WHERE id = $1`, id).Scan(&doc)
	if err != nil {
		return record.Record{}, fmt.Errorf("postgres: get %s %q: %w", k.Name, id, mapErr(err))
	}
	r, err := record.DecodeDoc(k, doc)
	if err != nil {
		return record.Record{}, fmt.Errorf("postgres: get %s %q: %w", k.Name, id, err)
	}
	return r, nil
}

// Scan calls fn for every record of a kind in insertion order. It has no deadline of its
// own (an export takes as long as it takes) and returns an error of fn unwrapped.
func (s *Store) Scan(ctx context.Context, k *record.Kind, fn func(record.Record) error) error {
	if k == nil {
		return fmt.Errorf("postgres: scan: %w: no kind", store.ErrBadQuery)
	}
	rows, err := s.pool.Query(ctx, `SELECT doc FROM `+sqlstore.Table(k)+` ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("postgres: scan %s: %w", k.Name, mapErr(err))
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
		return fmt.Errorf("postgres: scan %s: %w", k.Name, err)
	}
	return nil
}

// Count returns how many records of a kind there are.
func (s *Store) Count(ctx context.Context, k *record.Kind) (int64, error) {
	if k == nil {
		return 0, fmt.Errorf("postgres: count: %w: no kind", store.ErrBadQuery)
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM `+sqlstore.Table(k)).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count %s: %w", k.Name, mapErr(err))
	}
	return n, nil
}

// DataVersion changes whenever a Write succeeds, on any replica.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	var v int64
	if err := s.pool.QueryRow(ctx, `SELECT value FROM meta WHERE name = 'data_version'`).Scan(&v); err != nil {
		return 0, fmt.Errorf("postgres: data version: %w", mapErr(err))
	}
	return v, nil
}
