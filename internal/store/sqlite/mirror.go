package sqlite

import (
	"context"
	"fmt"
	"strconv"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// The mirror's crawl frontier (store.Frontier, store.FrontierTx).

var frontierSQL = sqlstore.FrontierSQL(func(i int) string { return "?" + strconv.Itoa(i) })

var (
	_ store.Frontier   = (*Store)(nil)
	_ store.FrontierTx = (*tx)(nil)
)

// FrontierDue, FrontierGet and FrontierStats are sqlstore.DB's.

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
