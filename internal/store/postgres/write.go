package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// batchSize is how many records a transaction buffers before it writes them: one read of
// the stored docs and one insert per kind and batch instead of a round trip per record.
const batchSize = 2000

// Write runs fn in one transaction and advances the data version with it. An error of fn
// comes back as it is, after the rollback.
func (s *Store) Write(ctx context.Context, fn func(store.Tx) error) error {
	pgTx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: write: begin: %w", mapErr(err))
	}
	defer pgTx.Rollback(context.WithoutCancel(ctx))
	t := &tx{tx: pgTx, deferral: newDeferral()}
	t.Tx = sqlstore.NewTx(sqlstore.TxConfig{Name: "postgres", Dialect: sqlstore.Postgres, Q: querier{pgTx},
		Classify: classify, BatchSize: batchSize, Backend: t})
	defer t.End()
	if err := fn(t); err != nil {
		return err
	}
	if err := t.Commit(ctx, s.feed); err != nil {
		return err
	}
	if err := pgTx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: write: commit: %w", mapErr(err))
	}
	return nil
}

var _ store.HoldTx = (*tx)(nil)

// tx is the shared write transaction (sqlstore.Tx) with what PostgreSQL adds: new rows
// written by COPY, secondary indexes of a table being filled built after its rows, and the
// change feed's lock and notification. Statements wait for the queued writes (Pipe.Sync):
// a pgx connection runs one at a time.
type tx struct {
	*sqlstore.Tx
	tx pgx.Tx
	// deferral counts the rows written into each kind's table and keeps the indexes this
	// transaction dropped to build after the rows (see deferIndexes and analyze).
	deferral *deferral
}

// FoundEmpty notes a table the transaction fills (see deferral).
func (t *tx) FoundEmpty(k *record.Kind) { t.deferral.FoundEmpty(k) }

// Finish builds the indexes deferIndexes dropped and refreshes the planner statistics.
func (t *tx) Finish(ctx context.Context) error {
	if err := t.buildIndexes(ctx); err != nil {
		return err
	}
	return t.analyze(ctx)
}

// deferIndexes drops the secondary indexes of a table the transaction found empty and is
// filling (see deferIndexesAfter), and keeps their definitions for buildIndexes: a
// full-scale import spent a fifth of its time keeping them up (events have nine). DDL is
// transactional, so a write that fails leaves the indexes as they were; until the commit,
// the table is locked against other readers, who would have found it empty.
func (t *tx) deferIndexes(ctx context.Context, k *record.Kind) error {
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	// An index's regclass text is its name, quoted and qualified as the search path needs.
	rows, err := t.tx.Query(ctx, `SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
		WHERE i.indrelid = $1::regclass AND NOT i.indisunique AND NOT i.indisprimary ORDER BY 1`, sqlstore.Table(k))
	if err != nil {
		return fmt.Errorf("indexes of %s: %w", k.Name, mapErr(err))
	}
	type index struct{ Name, Def string }
	indexes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[index])
	if err != nil {
		return fmt.Errorf("indexes of %s: %w", k.Name, mapErr(err))
	}
	for _, ix := range indexes {
		if _, err := t.tx.Exec(ctx, `DROP INDEX `+ix.Name); err != nil {
			return fmt.Errorf("drop index %s: %w", ix.Name, mapErr(err))
		}
		t.deferral.Defer(ix.Def)
	}
	return nil
}

// buildIndexes builds the indexes deferIndexes dropped, from the rows now stored.
func (t *tx) buildIndexes(ctx context.Context) error {
	for _, def := range t.deferral.Builds() {
		if _, err := t.tx.Exec(ctx, def); err != nil {
			return fmt.Errorf("build index: %w", mapErr(err))
		}
	}
	return nil
}

// analyze refreshes the planner statistics of the tables the transaction filled, in the
// transaction, so that they commit with the rows (ANALYZE samples the transaction's own rows
// as live). Without them, until autovacuum comes round (never, where it is off), PostgreSQL
// took a team's events for tens of thousands of rows where there are dozens and planned each
// such query with parallel workers: after a large import, reads ran several times slower
// until the tables were analyzed.
func (t *tx) analyze(ctx context.Context) error {
	for _, k := range t.deferral.Filled(sqlstore.AnalyzeAfter) {
		if _, err := t.tx.Exec(ctx, `ANALYZE `+sqlstore.Table(k)); err != nil {
			return fmt.Errorf("analyze %s: %w", k.Name, mapErr(err))
		}
	}
	return nil
}

// Send queues the writing of rows on the pipe, after dropping the secondary indexes of a
// table the transaction fills (deferIndexes).
func (t *tx) Send(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	if t.deferral.Wrote(k, len(rows)) {
		if err := t.deferIndexes(ctx, k); err != nil {
			return err
		}
	}
	write := t.write(k, rows)
	return t.Pipe.Send(func() error { return write(ctx) })
}

// write returns the writing of rows in their order, for the pipe: each stretch of new
// records (see sqlstore.Fresh.New) by COPY, which spares the server the conflict check and
// the arrays of an upsert, and each stretch of others by an upsert.
func (t *tx) write(k *record.Kind, rows []sqlstore.Row) func(context.Context) error {
	type stretch struct {
		isNew bool
		rows  []sqlstore.Row
	}
	var stretches []stretch
	for len(rows) > 0 {
		isNew := t.Fresh.New(k, rows[0].ID)
		n := 1
		for n < len(rows) && t.Fresh.New(k, rows[n].ID) == isNew {
			n++
		}
		stretches = append(stretches, stretch{isNew, rows[:n]})
		t.Fresh.Wrote(k, rows[:n])
		rows = rows[n:]
	}
	return func(ctx context.Context) error {
		for _, s := range stretches {
			write := t.insert
			if s.isNew {
				write = t.copyRows
			}
			if err := write(ctx, k, s.rows); err != nil {
				return err
			}
		}
		return nil
	}
}

// copyRows writes rows of records that cannot be stored yet with COPY.
func (t *tx) copyRows(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	values := make([]any, 2+len(k.Indexed))
	src := pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		values = rows[i].AppendArgs(values[:0])
		return values, nil
	})
	if _, err := t.tx.CopyFrom(ctx, pgx.Identifier{k.Name}, sqlstore.Columns(k)[1:], src); err != nil {
		return fmt.Errorf("copy %d %s records: %w", len(rows), k.Name, mapErr(err))
	}
	return nil
}

// insert writes rows with one statement: each column travels as one array.
func (t *tx) insert(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	if len(rows) == 0 {
		return nil
	}
	cols := make([][]string, 2+len(k.Indexed))
	for i := range cols {
		cols[i] = make([]string, len(rows))
	}
	for j, row := range rows {
		cols[0][j], cols[1][j] = row.ID, row.Doc
		for i, v := range row.Index {
			cols[2+i][j] = v
		}
	}
	args := make([]any, len(cols))
	params := make([]string, len(cols))
	for i := range cols {
		args[i] = cols[i]
		params[i] = fmt.Sprintf("$%d::text[]", i+1)
	}
	query := "INSERT INTO " + sqlstore.Table(k) + " (" + sqlstore.InsertColumns(k) + ") SELECT * FROM unnest(" +
		strings.Join(params, ", ") + ") ON CONFLICT (id) DO UPDATE SET " + sqlstore.UpdateExcluded(k)
	if _, err := t.tx.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("write %d %s records: %w", len(rows), k.Name, mapErr(err))
	}
	return nil
}

// StoredDocs reads the stored docs of ids in one query.
func (t *tx) StoredDocs(ctx context.Context, k *record.Kind, ids []string, docs map[string]string) error {
	rows, err := t.tx.Query(ctx, `SELECT id, doc FROM `+sqlstore.Table(k)+` WHERE id = ANY($1)`, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	return sqlstore.ReadDocs(rows, docs)
}

// atomic runs fn in one transaction of the pool (sqlstore.Config.Atomic).
func atomic(pool *pgxpool.Pool) func(context.Context, func(sqlstore.Querier) error) error {
	return func(ctx context.Context, fn func(sqlstore.Querier) error) error {
		pgTx, err := pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		defer pgTx.Rollback(context.WithoutCancel(ctx))
		if err := fn(querier{pgTx}); err != nil {
			return err
		}
		return pgTx.Commit(ctx)
	}
}
