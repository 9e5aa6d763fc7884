//go:build unix

package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"sportsdb/internal/store"
)

// The data version answered from the WAL-index header follows every commit of another
// store on the file, also across checkpoints that restart the WAL, and is used at all.
func TestDataVersionFromSharedMemoryFollowsCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	ctx := context.Background()
	a := openAt(t, path)
	b := openAt(t, path)
	prev, err := a.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last := a.version.last.Load(); last == nil || last.shm == nil {
		t.Fatal("the -shm file is not read: every data version is a query")
	}
	for i := range 40 {
		if err := b.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, i, i+1, "1") }); err != nil {
			t.Fatal(err)
		}
		if i%7 == 3 {
			if _, err := b.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
				t.Fatal(err)
			}
		}
		got, err := a.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got <= prev {
			t.Fatalf("commit %d: data version %d, was %d", i, got, prev)
		}
		again, _ := a.DataVersion(ctx)
		if again != got {
			t.Fatalf("commit %d: %d then %d without a write", i, got, again)
		}
		prev = got
	}
}
