package apitest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
)

// openStore opens a fresh database for one test: SQLite by default, PostgreSQL (a schema of
// its own) when SPORTSDB_TEST_API_DB=postgres.
func openStore(t testing.TB) store.Store {
	t.Helper()
	ctx := context.Background()
	var (
		st  store.Store
		err error
	)
	if os.Getenv("SPORTSDB_TEST_API_DB") == "postgres" {
		st, err = postgres.Open(ctx, pgtest.FreshSchema(t))
	} else {
		st, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	}
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func unescapePath(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
