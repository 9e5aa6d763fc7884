package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/store/pgtest"
)

var schemaSeq atomic.Int64

// freshSchema creates an empty schema on the PostgreSQL server of SPORTSDB_TEST_POSTGRES for
// one check, and returns a DSN whose connections use it and a function that drops it. The
// server is shared, so nothing else on it is touched. base replaces the host and port (a
// proxy in front of PostgreSQL) when not empty.
func freshSchema(ctx context.Context, cfg *config) (dsn string, drop func(), err error) {
	conn, err := pgx.Connect(ctx, cfg.pg)
	if err != nil {
		return "", nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("sportsdb_reliability_%d_%d", os.Getpid(), schemaSeq.Add(1))
	for _, q := range []string{
		`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`,
		`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`,
		`CREATE SCHEMA ` + schema,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return "", nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	drop = func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, cfg.pg)
		if err != nil {
			fmt.Fprintf(os.Stderr, "reliability: drop schema %s: %v\n", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			fmt.Fprintf(os.Stderr, "reliability: drop schema %s: %v\n", schema, err)
		}
	}
	return pgtest.WithParam(cfg.pg, "search_path", schema+",public"), drop, nil
}

// viaProxy rewrites a URL DSN (PostgreSQL or Redis) to reach its server through addr.
func viaProxy(dsn, addr string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("parse URL: %w", err)
	}
	u.Host = addr
	return u.String(), nil
}

// hostOf is the host:port a URL DSN names.
func hostOf(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("parse URL: %w", err)
	}
	if u.Port() == "" {
		return "", fmt.Errorf("URL %s names no port", u.Redacted())
	}
	return u.Host, nil
}
