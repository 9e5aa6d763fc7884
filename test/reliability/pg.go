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

// pgFixture is a fresh schema with the demo dataset and keys; drop removes the schema.
func pgFixture(ctx context.Context, cfg *config) (*fixture, func(), error) {
	dsn, drop, err := freshSchema(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	fx, err := seedFixture(ctx, cfg, dsn)
	if err != nil {
		drop()
		return nil, nil, err
	}
	return fx, drop, nil
}

// proxied starts a proxy in front of the server a URL DSN (PostgreSQL or Redis) names, and
// returns the DSN rewritten to go through it.
func proxied(dsn string) (*proxy, string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, "", fmt.Errorf("parse URL: %w", err)
	}
	if u.Port() == "" {
		return nil, "", fmt.Errorf("URL %s names no port", u.Redacted())
	}
	px, err := newProxy(u.Host)
	if err != nil {
		return nil, "", err
	}
	u.Host = px.addr()
	return px, u.String(), nil
}
