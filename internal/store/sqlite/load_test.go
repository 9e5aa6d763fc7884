package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func journalModeOf(t *testing.T, s *Store) string {
	t.Helper()
	var mode string
	if err := s.read.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return mode
}

func dataVersion(t *testing.T, s *Store) int64 {
	t.Helper()
	v, err := s.DataVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Load into an empty database keeps what it wrote, or nothing when it fails, and leaves
// the file in WAL mode with a data version that follows later commits.
func TestLoadIntoEmptyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.db")
	ctx := context.Background()
	s := openAt(t, path)
	before := dataVersion(t, s)

	boom := errors.New("boom")
	err := s.Load(ctx, func(tx store.Tx) error {
		if err := upsertTeams(ctx, tx, 0, 2*batchSize, "1"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed load: %v", err)
	}
	if n, _ := s.Count(ctx, record.Team); n != 0 {
		t.Fatalf("a failed load kept %d teams", n)
	}
	if v := dataVersion(t, s); v != before {
		t.Fatalf("a failed load moved the data version from %d to %d", before, v)
	}

	err = s.Load(ctx, func(tx store.Tx) error {
		if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a load into an empty database goes through the WAL (%v)", err)
		}
		return upsertTeams(ctx, tx, 0, 2*batchSize, "1")
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count(ctx, record.Team); n != 2*batchSize {
		t.Fatalf("%d teams after the load, want %d", n, 2*batchSize)
	}
	if mode := journalModeOf(t, s); mode != "wal" {
		t.Errorf("journal mode %q after a load, want wal", mode)
	}
	if _, err := os.Stat(path + "-journal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("rollback journal left behind: %v", err)
	}
	loaded := dataVersion(t, s)
	if loaded <= before {
		t.Fatalf("data version %d after the load, was %d", loaded, before)
	}
	// Commits after the load, by this store and by another, show in the data version.
	if err := s.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, 9000, 9001, "2") }); err != nil {
		t.Fatal(err)
	}
	written := dataVersion(t, s)
	if written <= loaded {
		t.Fatalf("data version %d after a write, was %d", written, loaded)
	}
	other := openAt(t, path)
	if err := other.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, 9001, 9002, "2") }); err != nil {
		t.Fatal(err)
	}
	if v := dataVersion(t, s); v <= written {
		t.Fatalf("data version %d after another store's write, was %d", v, written)
	}
}

// Load into a database that holds records, or whose file another store has open, is a Write:
// readers of the other store go on reading while it runs.
func TestLoadElsewhereIsWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.db")
	ctx := context.Background()
	s := openAt(t, path)
	reader := openAt(t, path)

	err := s.Load(ctx, func(tx store.Tx) error {
		if err := upsertTeams(ctx, tx, 0, batchSize, "1"); err != nil {
			return err
		}
		// The other store reads the committed state, without waiting for this transaction.
		n, err := reader.Count(ctx, record.Team)
		if err != nil || n != 0 {
			t.Errorf("the other store counts %d teams (%v) during the load, want 0", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if mode := journalModeOf(t, s); mode != "wal" {
		t.Errorf("journal mode %q, want wal", mode)
	}
	if err := s.Load(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, batchSize, 2*batchSize, "1") }); err != nil {
		t.Fatal(err)
	}
	if n, _ := reader.Count(ctx, record.Team); n != 2*batchSize {
		t.Fatalf("%d teams, want %d", n, 2*batchSize)
	}
}
