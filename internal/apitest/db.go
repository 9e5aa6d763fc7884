package apitest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/pgtest"
)

// openStore opens a fresh database for one test: SQLite by default, PostgreSQL (a schema of
// its own) when SPORTSDB_TEST_API_DB=postgres. Asking for PostgreSQL without naming a server
// in SPORTSDB_TEST_POSTGRES, or for a database that does not exist, fails the test: a run
// meant for PostgreSQL never passes on SQLite or by skipping.
func openStore(t testing.TB) (store.Store, string) {
	t.Helper()
	var dsn string
	switch db := os.Getenv("SPORTSDB_TEST_API_DB"); db {
	case "", "sqlite":
		dsn = filepath.Join(t.TempDir(), "test.db")
	case "postgres":
		if os.Getenv("SPORTSDB_TEST_POSTGRES") == "" {
			t.Fatal("SPORTSDB_TEST_API_DB=postgres needs SPORTSDB_TEST_POSTGRES (a server to make schemas in)")
		}
		dsn = pgtest.FreshSchema(t)
	default:
		t.Fatalf("SPORTSDB_TEST_API_DB=%q: want sqlite or postgres", db)
	}
	return reopen(t, dsn), dsn
}

// reopen opens the database at dsn (a SQLite file or a postgres:// URL), closed when the
// test ends.
func reopen(t testing.TB, dsn string) store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Reopen opens the environment's database again, as another process (an import) would.
func (e *Env) Reopen(t testing.TB) store.Store {
	t.Helper()
	return reopen(t, e.dsn)
}

func unescapePath(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
