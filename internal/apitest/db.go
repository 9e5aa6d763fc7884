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
// its own) when SPORTSDB_TEST_API_DB=postgres. Asking for PostgreSQL without naming a server
// in SPORTSDB_TEST_POSTGRES, or for a database that does not exist, fails the test: a run
// meant for PostgreSQL never passes on SQLite or by skipping.
func openStore(t testing.TB) store.Store {
	t.Helper()
	ctx := context.Background()
	var (
		st  store.Store
		err error
	)
	switch db := os.Getenv("SPORTSDB_TEST_API_DB"); db {
	case "", "sqlite":
		st, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	case "postgres":
		if os.Getenv("SPORTSDB_TEST_POSTGRES") == "" {
			t.Fatal("SPORTSDB_TEST_API_DB=postgres needs SPORTSDB_TEST_POSTGRES (a server to make schemas in)")
		}
		st, err = postgres.Open(ctx, pgtest.FreshSchema(t))
	default:
		t.Fatalf("SPORTSDB_TEST_API_DB=%q: want sqlite or postgres", db)
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
