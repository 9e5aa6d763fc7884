package sqlite

import (
	"context"

	"sportsdb/internal/record"
)

// DocsBySeqs is sqlstore's, on Find's prepared statements: the name index
// (internal/store/nameindex) reads the docs of every search it answers with it.
func (s *Store) DocsBySeqs(ctx context.Context, k *record.Kind, seqs []int64) ([]record.Record, int64, error) {
	return s.DocsBySeqsWith(keyed(ctx), s.prepared, k, seqs)
}
