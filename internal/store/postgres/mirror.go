package postgres

import (
	"context"
	"fmt"
	"strconv"

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

// FrontierDue, FrontierGet and FrontierStats are sqlstore.DB's.

// FrontierAdd queues entries not known yet, in one round trip.
func (t *tx) FrontierAdd(ctx context.Context, entries []store.FrontierEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := t.pipe.Sync(); err != nil {
		return fmt.Errorf("postgres: frontier add: %w", err)
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
	if err := t.pipe.Sync(); err != nil {
		return fmt.Errorf("postgres: frontier %s: %w", e.URL, err)
	}
	if _, err := t.tx.Exec(ctx, frontierSQL.Set, sqlstore.FrontierArgs(e)...); err != nil {
		return fmt.Errorf("postgres: frontier %s: %w", e.URL, mapErr(err))
	}
	return nil
}
