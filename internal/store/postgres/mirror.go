package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// The mirror's crawl frontier (store.Frontier, store.FrontierTx) is sqlstore.DB's and
// sqlstore.Tx's, but for the adding of many entries.

var (
	_ store.Frontier   = (*Store)(nil)
	_ store.FrontierTx = (*tx)(nil)
)

// FrontierAdd queues entries not known yet, in one round trip.
func (t *tx) FrontierAdd(ctx context.Context, entries []store.FrontierEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := t.Pipe.Sync(); err != nil {
		return fmt.Errorf("postgres: frontier add: %w", err)
	}
	b := &pgx.Batch{}
	for _, e := range entries {
		b.Queue(sqlstore.FrontierFor(sqlstore.Postgres).Add, sqlstore.FrontierArgs(e)...)
	}
	if err := t.tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("postgres: frontier add: %w", mapErr(err))
	}
	return nil
}
