package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"unsafe"
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
	var doc docColumn
	err := r.Rows.Scan(&doc)
	return doc.b, err
}

func (r stdRows) Close() { r.Rows.Close() }

// docColumn takes a doc column as the driver holds it. The SQLite driver hands text over as
// a string, which database/sql would copy into a RawBytes, a new buffer for every query;
// under uncached searches those copies were a sixth of the server's allocations. As a
// Scanner it gets the string itself, and Doc's bytes are the string's: read-only, like the
// RawBytes they replace (DecodeDoc only reads them, and copies what it keeps).
type docColumn struct{ b []byte }

func (d *docColumn) Scan(src any) error {
	switch v := src.(type) {
	case string:
		d.b = unsafe.Slice(unsafe.StringData(v), len(v))
	case []byte:
		d.b = v
	default:
		return fmt.Errorf("doc column holds %T, not text", src)
	}
	return nil
}
