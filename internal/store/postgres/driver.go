package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// querier runs sqlstore's statements on the pool, through pgx itself: rows come without
// database/sql's conversions, and a doc is decoded straight from the wire buffer.
type querier struct{ pool pgxQuerier }

// pgxQuerier is what a pool and a transaction of pgx have in common.
type pgxQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func (q querier) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := q.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgxRows{rows}, nil
}

func (q querier) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := q.pool.Exec(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

type pgxRows struct{ pgx.Rows }

// Record copies the text of the row's one column out of pgx's wire buffer, which the next
// row reuses.
func (r pgxRows) Record(k *record.Kind) (record.Record, error) {
	raw := r.RawValues()
	if len(raw) != 1 {
		return record.Record{}, fmt.Errorf("want 1 column, got %d", len(raw))
	}
	return record.FromDoc(k, string(raw[0])), nil
}
