package gen

import (
	"context"
	"crypto/sha256"
	"errors"
	"hash"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// recorder is a store.Records that keeps nothing but a digest of every write, in order, so
// two runs can be compared byte for byte without holding the dataset.
type recorder struct {
	failAt  int // Replace fails on this call when > 0
	sum     hash.Hash
	writes  int
	deletes []string
	counts  map[string]int64
}

func newRecorder() *recorder {
	return &recorder{sum: sha256.New(), counts: map[string]int64{}}
}

func (r *recorder) Find(context.Context, store.Query) ([]record.Record, error) { return nil, nil }
func (r *recorder) Get(context.Context, *record.Kind, string) (record.Record, error) {
	return record.Record{}, store.ErrNotFound
}
func (r *recorder) Scan(context.Context, *record.Kind, func(record.Record) error) error { return nil }
func (r *recorder) Count(_ context.Context, k *record.Kind) (int64, error) {
	return r.counts[k.Name], nil
}
func (r *recorder) DataVersion(context.Context) (int64, error) { return int64(r.writes), nil }

func (r *recorder) Write(ctx context.Context, fn func(store.Tx) error) error {
	r.writes++
	return fn(recTx{r})
}

type recTx struct{ r *recorder }

func (t recTx) Upsert(context.Context, record.Record) error {
	return errors.New("gen must replace, not merge")
}

func (t recTx) Replace(_ context.Context, rec record.Record) error {
	if _, err := rec.ID(); err != nil {
		return err
	}
	if t.r.failAt > 0 {
		if t.r.failAt--; t.r.failAt == 0 {
			return errDiskFull
		}
	}
	t.r.sum.Write([]byte(rec.Kind.Name))
	t.r.sum.Write(record.EncodeDoc(rec))
	t.r.counts[rec.Kind.Name]++
	return nil
}

func (t recTx) DeleteAll(_ context.Context, k *record.Kind) error {
	t.r.deletes = append(t.r.deletes, k.Name)
	return nil
}

var errDiskFull = errors.New("disk full")

var testNow = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

func openSQLite(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir()+"/gen.db")
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
