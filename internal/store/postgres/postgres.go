// Package postgres is the store.Store of a PostgreSQL database (pgx v5), for deployments
// with several server replicas. Name and list columns carry pg_trgm indexes, so substring
// searches are index lookups; a dead server answers store.ErrUnavailable within about two
// seconds, and the pool reconnects by itself when the server is back.
package postgres

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

const (
	// connectTimeout bounds reaching the server, unless the DSN sets connect_timeout.
	connectTimeout = 2 * time.Second
	// queryTimeout bounds every read, so a hung server turns into ErrUnavailable rather
	// than a hung request.
	queryTimeout = 2 * time.Second
	// migrationLock is the advisory lock that keeps replicas starting together from
	// migrating at once.
	migrationLock = 0x73706f727473 // "sports"
)

// Store is a sportsdb database in PostgreSQL.
type Store struct {
	*sqlstore.DB // Find, Get, Scan, Count and the key store
	pool         *pgxpool.Pool
	feed         store.FeedOptions
}

var _ store.Store = (*Store)(nil)

// Open connects to the database of dsn (a postgres:// URL or key=value string) and brings
// its schema up to date.
func Open(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := poolConfig(dsn)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", mapErr(err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	db := sqlstore.New(sqlstore.Config{Name: "postgres", Read: querier{pool}, Write: querier{pool},
		Dialect: sqlstore.Postgres, Classify: classify, Timeout: queryTimeout, Atomic: atomic(pool)})
	return &Store{DB: db, pool: pool, feed: store.FeedOptions{}.WithDefaults()}, nil
}

// Migrate brings the schema of the database of dsn up to date and disconnects.
func Migrate(ctx context.Context, dsn string) error {
	cfg, err := poolConfig(dsn)
	if err != nil {
		return err
	}
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", mapErr(err))
	}
	defer pool.Close()
	if err := migrate(ctx, pool); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}

func poolConfig(dsn string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parse error can quote the DSN, password included; say only what is wrong.
		return nil, fmt.Errorf("postgres: the database address is not a valid postgres URL or key=value string")
	}
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > connectTimeout {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	cfg.PingTimeout = time.Second
	cfg.HealthCheckPeriod = 15 * time.Second
	if _, set := cfg.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		cfg.AfterConnect = genericPlans
	}
	return cfg, nil
}

// genericPlans has the server plan each of the connection's prepared statements once, for any
// values (plan_cache_mode = force_generic_plan), unless the address sets plan_cache_mode
// itself. By default PostgreSQL plans a statement again for its values at every run while
// it prices such a plan below the generic one, as it does for most of the store's reads (a
// range of times, an id's events in order with a limit), and that planning cost a
// measurable share of the answers' throughput. The store's statements read through
// indexes whatever their values, so one plan serves them all.
// plan_cache_mode came with PostgreSQL 12; an older server keeps its own way.
func genericPlans(ctx context.Context, c *pgx.Conn) error {
	if serverMajor(c.PgConn().ParameterStatus("server_version")) < 12 {
		return nil
	}
	if _, err := c.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		return fmt.Errorf("set plan_cache_mode: %w", err)
	}
	return nil
}

// serverMajor is the major version of a server_version such as "15.20 (Debian …)" or
// "17beta1", 0 when it starts with no number.
func serverMajor(v string) int {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			break
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// migrate applies the embedded migrations not yet recorded, all in one transaction under an
// advisory lock.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := sqlstore.Migrations(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return fmt.Errorf("migration lock: %w", mapErr(err))
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("create schema_migrations: %w", mapErr(err))
		}
		for _, m := range ms {
			var done bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, m.Version).Scan(&done); err != nil {
				return fmt.Errorf("migration %s: %w", m.Version, mapErr(err))
			}
			if done {
				continue
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("migration %s: %w", m.Version, mapErr(err))
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, m.Version); err != nil {
				return fmt.Errorf("migration %s: %w", m.Version, mapErr(err))
			}
		}
		return nil
	})
	return mapErr(err)
}

// Ping says whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", mapErr(err))
	}
	return nil
}

// Close releases the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// PoolStats reads the connection pool, which serves reads and writes alike.
func (s *Store) PoolStats() []store.PoolStats {
	st := s.pool.Stat()
	return []store.PoolStats{{Pool: "all", MaxOpen: int(st.MaxConns()), InUse: int(st.AcquiredConns()),
		Idle: int(st.IdleConns()), Waits: st.EmptyAcquireCount(), WaitTime: st.EmptyAcquireWaitTime()}}
}
