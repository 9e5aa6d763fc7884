package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// The descriptors SQLite holds on a store's file are found under the name SQLite gives the
// file, so that a load can sync ahead.
func TestDescriptorsOfStoreFile(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "fd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var file string
	if err := s.write.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		t.Fatal(err)
	}
	if fds := descriptorsOf(file); len(fds) == 0 {
		t.Fatalf("no descriptor of %s found", file)
	}
}
