// Package pgtest gives tests a PostgreSQL database of their own: a fresh schema on the
// server SPORTSDB_TEST_POSTGRES names, dropped when the test ends.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/testsupport"
)

// DSN is the test server. Without one the test skips, except under CI, which must never skip.
func DSN(t testing.TB) string {
	t.Helper()
	return testsupport.Env(t, "SPORTSDB_TEST_POSTGRES")
}

var seq atomic.Int64

// FreshSchema creates an empty schema for one test, drops it when the test ends, and returns
// a DSN whose connections use it. pg_trgm lives in public, where every test schema sees it.
func FreshSchema(t testing.TB) string {
	t.Helper()
	dsn := DSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to test server: %v", err)
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("sportsdb_test_%d_%d", os.Getpid(), seq.Add(1))
	for _, q := range []string{
		`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`,
		`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`,
		`CREATE SCHEMA ` + schema,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop test schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop test schema: %v", err)
		}
	})
	return WithParam(dsn, "search_path", schema+",public")
}

// WithParam adds a connection parameter to a URL or key=value DSN.
func WithParam(dsn, key, value string) string {
	if strings.Contains(dsn, "://") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		return dsn + sep + url.QueryEscape(key) + "=" + url.QueryEscape(value)
	}
	return dsn + " " + key + "='" + value + "'"
}
