package sqlstore

import (
	"context"
	"database/sql"
)

// Std is the Querier of a database/sql pool, connection or transaction.
func Std(db StdQuerier) Querier { return stdQuerier{db} }

// StdQuerier is what *sql.DB, *sql.Conn and *sql.Tx have in common.
type StdQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type stdQuerier struct{ db StdQuerier }

func (q stdQuerier) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	rows, err := q.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return StdRows(rows), nil
}

func (q stdQuerier) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := q.db.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// StdRows is the Rows of a database/sql result.
func StdRows(rows *sql.Rows) Rows { return stdRows{rows} }

type stdRows struct{ *sql.Rows }

func (r stdRows) Doc() ([]byte, error) {
	var doc sql.RawBytes
	err := r.Rows.Scan(&doc)
	return doc, err
}

func (r stdRows) Close() { r.Rows.Close() }
