package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// The mirror's crawl frontier (store.Frontier, store.FrontierTx).

var frontierSQL = sqlstore.FrontierSQL(func(i int) string { return "$" + strconv.Itoa(i) })

var (
	_ store.Frontier   = (*Store)(nil)
	_ store.FrontierTx = (*tx)(nil)
)

// FrontierDue returns up to limit entries due at or before t.
func (s *Store) FrontierDue(ctx context.Context, t time.Time, limit int) ([]store.FrontierEntry, error) {
	rows, err := s.pool.Query(ctx, frontierSQL.Due, sqlstore.Millis(t), limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: frontier: %w", mapErr(err))
	}
	defer rows.Close()
	out, err := sqlstore.ScanFrontier(rows)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", mapErr(err))
	}
	return out, nil
}

// FrontierGet returns one entry, or store.ErrNotFound.
func (s *Store) FrontierGet(ctx context.Context, url string) (store.FrontierEntry, error) {
	e, err := sqlstore.ScanFrontierRow(s.pool.QueryRow(ctx, frontierSQL.Get, url).Scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, fmt.Errorf("postgres: frontier %s: %w", url, store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("postgres: %w", mapErr(err))
	}
	return e, nil
}

// FrontierStats counts the entries.
func (s *Store) FrontierStats(ctx context.Context, t time.Time) (store.FrontierStats, error) {
	var st store.FrontierStats
	var next int64
	err := s.pool.QueryRow(ctx, frontierSQL.Stats, sqlstore.Millis(t)).Scan(&st.Total, &st.Due, &st.Failed, &next)
	st.Next = sqlstore.FromMillis(next)
	if err != nil {
		return st, fmt.Errorf("postgres: frontier stats: %w", mapErr(err))
	}
	return st, nil
}

// FrontierAdd queues entries not known yet, in one round trip.
func (t *tx) FrontierAdd(ctx context.Context, entries []store.FrontierEntry) error {
	if len(entries) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, e := range entries {
		b.Queue(frontierSQL.Add, sqlstore.FrontierArgs(e)...)
	}
	if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("postgres: frontier add: %w", mapErr(err))
	}
	return nil
}

// FrontierSet stores an entry's outcome.
func (t *tx) FrontierSet(ctx context.Context, e store.FrontierEntry) error {
	if _, err := t.tx.Exec(ctx, frontierSQL.Set, sqlstore.FrontierArgs(e)...); err != nil {
		return fmt.Errorf("postgres: frontier %s: %w", e.URL, mapErr(err))
	}
	return nil
}
