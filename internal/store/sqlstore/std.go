package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
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

func (r stdRows) Record(k *record.Kind) (record.Record, error) {
	var doc docColumn
	if err := r.Rows.Scan(&doc); err != nil {
		return record.Record{}, err
	}
	return doc.record(k), nil
}

func (r stdRows) Close() { r.Rows.Close() }

// docColumn takes a doc column as the driver holds it. The SQLite driver hands text over as
// a fresh string of its own, which database/sql would copy into a RawBytes (a new buffer for
// every query: under uncached searches, a sixth of the server's allocations). As a Scanner,
// docColumn gets the string itself, and the record keeps it as its stored form instead of a
// copy. Bytes (a driver's buffer, reused at the next row) are copied.
type docColumn struct {
	s     string // the doc when the driver gave a string of its own
	b     []byte
	isStr bool
}

func (d *docColumn) Scan(src any) error {
	switch v := src.(type) {
	case string:
		d.s, d.isStr = v, true
	case []byte:
		d.b = v
	default:
		return fmt.Errorf("doc column holds %T, not text", src)
	}
	return nil
}

func (d *docColumn) record(k *record.Kind) record.Record {
	if d.isStr {
		return record.FromDoc(k, d.s)
	}
	return record.FromDoc(k, string(d.b))
}

// PoolStatsOf reads a database/sql pool as the store reports it.
func PoolStatsOf(name string, db *sql.DB) store.PoolStats {
	st := db.Stats()
	return store.PoolStats{Pool: name, MaxOpen: st.MaxOpenConnections, InUse: st.InUse, Idle: st.Idle,
		Waits: st.WaitCount, WaitTime: st.WaitDuration}
}
