// Package storetest is the suite every store.Store implementation must pass: the SQLite and
// PostgreSQL stores run the same tests, so the API sees the same answers from either.
package storetest

import (
	"context"
	"slices"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Run runs the suite; open returns a new, empty store for each test and closes it when the
// test ends.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"FindOps", testFindOps},
		{"FindOrder", testFindOrder},
		{"NumericOrder", testNumericOrder},
		{"BadQuery", testBadQuery},
		{"NulMatchesNothing", testNulMatchesNothing},
		{"Substring", testSubstring},
		{"SubstringWrites", testSubstringWrites},
		{"Get", testGet},
		{"UpsertMerge", testUpsertMerge},
		{"UpsertTwiceInOneWrite", testUpsertTwice},
		{"EmptyTableBatches", testEmptyTableBatches},
		{"Replace", testReplace},
		{"DeleteAll", testDeleteAll},
		{"Delete", testDelete},
		{"DeleteMissing", testDeleteMissing},
		{"DeleteInWrite", testDeleteInWrite},
		{"Hold", testHold},
		{"HoldConcurrent", testHoldConcurrent},
		{"Rollback", testRollback},
		{"ScanCount", testScanCount},
		{"DataVersion", testDataVersion},
		{"Keys", testKeys},
		{"ConcurrentReadsDuringWrite", testConcurrentReads},
		{"ChangeFeed", testChangeFeed},
		{"ChangeFeedRewrite", testChangeFeedRewrite},
		{"ChangeFeedBulk", testChangeFeedBulk},
		{"ChangeRetention", testChangeRetention},
		{"ChangeKeys", testChangeKeys},
		{"ChangeBy", testChangeBy},
		{"History", testHistory},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// Rec builds a record from field, value pairs.
func Rec(k *record.Kind, kv ...string) record.Record {
	r := k.NewRecord()
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i], record.Str(kv[i+1]))
	}
	return r
}

func put(t *testing.T, s store.Store, recs ...record.Record) {
	t.Helper()
	err := s.Write(context.Background(), func(tx store.Tx) error {
		for _, r := range recs {
			if err := tx.Upsert(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("write: %v", err)
	}
}

func ids(t *testing.T, recs []record.Record) []string {
	t.Helper()
	out := []string{}
	for _, r := range recs {
		id, err := r.ID()
		if err != nil {
			t.Fatalf("record without id: %v", err)
		}
		out = append(out, id)
	}
	return out
}

func find(t *testing.T, s store.Store, q store.Query) []string {
	t.Helper()
	recs, err := s.Find(context.Background(), q)
	if err != nil {
		t.Fatalf("find: %v", err)
	}
	return ids(t, recs)
}

func wantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// Opened opens a store for a test, failing it when the store cannot be opened, and closes
// the store when the test ends.
func Opened[S interface{ Close() error }](t testing.TB, open func(context.Context) (S, error)) S {
	t.Helper()
	s, err := open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// WriteEach stores records, one write each, and returns the cursor of the last change.
func WriteEach(t testing.TB, s store.Store, recs ...record.Record) int64 {
	t.Helper()
	ctx := context.Background()
	for _, r := range recs {
		if err := s.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, r) }); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	return Latest(t, s)
}

// Remove deletes one record in a write of its own and returns the cursor of its change.
func Remove(t testing.TB, s store.Store, k *record.Kind, id string) int64 {
	t.Helper()
	ctx := context.Background()
	if err := s.Write(ctx, func(tx store.Tx) error { return tx.(store.DeleteTx).Delete(ctx, k, id) }); err != nil {
		t.Fatalf("delete: %v", err)
	}
	return Latest(t, s)
}
