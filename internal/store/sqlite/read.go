package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// Find returns the records the query selects. Get (below) and DocsBySeqs (names.go) are
// sqlstore's on the prepared statements; Scan, Count and the key store are sqlstore's.
func (s *Store) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	query, args, lookups, seqs, err := selectSQL(q, s.ordered[q.Kind])
	if err != nil {
		return nil, fmt.Errorf("sqlite: find: %w", err)
	}
	var rows *sql.Rows
	if len(lookups) == 0 {
		if byKeys(q) {
			ctx = keyed(ctx)
		}
		rows, err = s.stmts.query(ctx, nil, query, args...)
	} else {
		// The index lookups and the query share a read transaction, so they see the same
		// data; it ends after the rows are read.
		var tx *sql.Tx
		if tx, err = s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
			return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, mapErr(err))
		}
		defer tx.Rollback()
		var scan bool
		if query, args, scan, err = s.resolve(ctx, tx, q, query, args, lookups); err != nil {
			return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, err)
		}
		rows, err = s.findIn(ctx, tx, q.Kind, query, args, seqs && !scan)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, mapErr(err))
	}
	out, err := s.Collect(sqlstore.StdRows(rows), q.Kind)
	if err != nil {
		return nil, fmt.Errorf("sqlite: find %s: %w", q.Kind.Name, err)
	}
	return out, nil
}

// Get is sqlstore's, on the prepared statements.
func (s *Store) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	return s.GetWith(keyed(ctx), s.prepared, k, id)
}

// prepared runs a read on the kept prepared statements.
func (s *Store) prepared(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := s.stmts.query(ctx, nil, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.StdRows(rows), nil
}

// keyed is the context of a read whose rows are named by key (an id, a list of seqs), so
// that its cost is bounded by its arguments: a context that has already ended is kept, and
// fails the read at once as before; one still running is not watched while the read runs.
// For a context that can end, the driver starts a goroutine per statement to interrupt it,
// and database/sql one per result to close it: together they were a large share of a
// short read's CPU (docs/PERFORMANCE.md). Such a read ends in microseconds whatever its
// context does. Find's queries of equalities alone (byKeys) run the same way; the reads
// that can run long (ranges, substring searches, Count, Scan) still stop with their context.
func keyed(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// byKeys says whether every condition of q is made of equalities (store.Cond.ByEqualities).
// Every condition of a query is on an index (store.Query), so such a query reads only the
// rows the indexes hold for its values, as a read by id does, and runs as one (keyed). A
// range, a substring, a list item or no condition at all may read a whole table: those
// queries stay watched, and stop with their request.
func byKeys(q store.Query) bool {
	if len(q.Where) == 0 {
		return false
	}
	for _, c := range q.Where {
		if !c.ByEqualities() {
			return false
		}
	}
	return true
}

// findIn runs a query in tx; when it selects seqs, it then reads their docs, in its order.
func (s *Store) findIn(ctx context.Context, tx *sql.Tx, k *record.Kind, query string, args []any, seqs bool) (*sql.Rows, error) {
	if !seqs {
		return s.stmts.query(ctx, tx, query, args...)
	}
	rows, err := s.stmts.query(ctx, tx, query, args...)
	if err != nil {
		return nil, err
	}
	ids, _, err := jsonInts(rows)
	if err != nil {
		return nil, err
	}
	return s.stmts.query(ctx, tx, docsSQL(k), ids)
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
