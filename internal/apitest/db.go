package apitest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// openStore opens a fresh database for one test: SQLite by default, PostgreSQL when
// SPORTSDB_TEST_API_DB=postgres.
func openStore(t testing.TB) store.Store {
	t.Helper()
	ctx := context.Background()
	var (
		st  store.Store
		err error
	)
	if os.Getenv("SPORTSDB_TEST_API_DB") == "postgres" {
		dsn := os.Getenv("SPORTSDB_TEST_POSTGRES")
		if dsn == "" {
			t.Fatal("SPORTSDB_TEST_API_DB=postgres needs SPORTSDB_TEST_POSTGRES")
		}
		err = errPostgresPending
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

var errPostgresPending = errorString("postgres store not built yet")

type errorString string

func (e errorString) Error() string { return string(e) }
