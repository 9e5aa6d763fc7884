package sqlite

import (
	"context"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// DocsBySeqs is sqlstore's, on Find's prepared statements: the name index
// (internal/store/nameindex) reads the docs of every search it answers with it.
func (s *Store) DocsBySeqs(ctx context.Context, k *record.Kind, seqs []int64) ([]record.Record, int64, error) {
	return s.DocsBySeqsWith(keyed(ctx), s.prepared, k, seqs)
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
// and database/sql one per result to close it: with both, reading three docs by seq took
// 38-43 µs of CPU instead of 29-33 (docs/PERFORMANCE.md, nineteenth round). Such a read ends
// in microseconds whatever its context does. Find's queries of equalities alone (byKeys)
// run the same way; the reads that can run long (ranges, substring searches, Count, Scan)
// still stop with their context.
func keyed(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}
