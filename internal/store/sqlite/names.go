package sqlite

import (
	"context"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// DocsBySeqs is sqlstore's, on Find's prepared statements: the name index
// (internal/store/nameindex) reads the docs of every search it answers with it.
func (s *Store) DocsBySeqs(ctx context.Context, k *record.Kind, seqs []int64) ([]record.Record, int64, error) {
	return s.DocsBySeqsWith(ctx, func(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
		rows, err := s.stmts.query(ctx, nil, query, args...)
		if err != nil {
			return nil, err
		}
		return sqlstore.StdRows(rows), nil
	}, k, seqs)
}
