package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// The mirror's crawl frontier (store.Frontier, store.FrontierTx).

var frontierSQL = sqlstore.FrontierSQL(func(i int) string { return "?" + strconv.Itoa(i) })

var (
	_ store.Frontier   = (*Store)(nil)
	_ store.FrontierTx = (*tx)(nil)
)

// FrontierDue returns up to limit entries due at or before t.
func (s *Store) FrontierDue(ctx context.Context, t time.Time, limit int) ([]store.FrontierEntry, error) {
	rows, err := s.read.QueryContext(ctx, frontierSQL.Due, sqlstore.Millis(t), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: frontier: %w", mapErr(err))
	}
	defer rows.Close()
	out, err := sqlstore.ScanFrontier(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", mapErr(err))
	}
	return out, nil
}

// FrontierGet returns one entry, or store.ErrNotFound.
func (s *Store) FrontierGet(ctx context.Context, url string) (store.FrontierEntry, error) {
	row := s.read.QueryRowContext(ctx, frontierSQL.Get, url)
	e, err := sqlstore.ScanFrontierRow(row.Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("sqlite: frontier %s: %w", url, store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("sqlite: %w", mapErr(err))
	}
	return e, nil
}

// FrontierStats counts the entries.
func (s *Store) FrontierStats(ctx context.Context, t time.Time) (store.FrontierStats, error) {
	var st store.FrontierStats
	var next int64
	err := s.read.QueryRowContext(ctx, frontierSQL.Stats, sqlstore.Millis(t)).Scan(&st.Total, &st.Due, &st.Failed, &next)
	st.Next = sqlstore.FromMillis(next)
	if err != nil {
		return st, fmt.Errorf("sqlite: frontier stats: %w", mapErr(err))
	}
	return st, nil
}

// FrontierAdd queues entries not known yet.
func (t *tx) FrontierAdd(ctx context.Context, entries []store.FrontierEntry) error {
	for _, e := range entries {
		if err := t.frontierExec(ctx, frontierSQL.Add, e); err != nil {
			return err
		}
	}
	return nil
}

// FrontierSet stores an entry's outcome.
func (t *tx) FrontierSet(ctx context.Context, e store.FrontierEntry) error {
	return t.frontierExec(ctx, frontierSQL.Set, e)
}

func (t *tx) frontierExec(ctx context.Context, query string, e store.FrontierEntry) error {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return fmt.Errorf("sqlite: frontier: %w", err)
	}
	if _, err := st.ExecContext(ctx, sqlstore.FrontierArgs(e)...); err != nil {
		return fmt.Errorf("sqlite: frontier %s: %w", e.URL, mapErr(err))
	}
	return nil
}
