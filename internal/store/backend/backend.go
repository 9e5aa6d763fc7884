// Package backend opens the store a DSN names: a postgres:// URL opens PostgreSQL, anything
// else is a SQLite file path.
package backend

import (
	"context"
	"strings"

	"sportsdb/internal/store"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
)

// IsPostgres says whether the DSN names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens (creating and migrating when needed) the store the DSN names.
func Open(ctx context.Context, dsn string) (store.Store, error) {
	if IsPostgres(dsn) {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, dsn)
}
