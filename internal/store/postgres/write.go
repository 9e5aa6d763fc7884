package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

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
	t := &tx{tx: pgTx, fresh: sqlstore.NewFresh(), changes: sqlstore.NewChangeSet(), deferral: newDeferral()}
	t.Buffer = sqlstore.NewBuffer("postgres", batchSize, t.flush)
	defer t.pipe.Stop()
	defer t.Close()
	if err := fn(t); err != nil {
		return err
	}
	if err := t.flush(ctx); err != nil {
		return fmt.Errorf("postgres: write: %w", err)
	}
	if err := t.pipe.Sync(); err != nil {
		return fmt.Errorf("postgres: write: %w", err)
	}
	if err := t.buildIndexes(ctx); err != nil {
		return fmt.Errorf("postgres: write: %w", err)
	}
	if err := t.analyze(ctx); err != nil {
		return fmt.Errorf("postgres: write: %w", err)
	}
	if err := t.recordChanges(ctx, s.feed); err != nil {
		return fmt.Errorf("postgres: write: %w", err)
	}
	if _, err := pgTx.Exec(ctx, `UPDATE meta SET value = value + 1 WHERE name = 'data_version'`); err != nil {
		return fmt.Errorf("postgres: write: data version: %w", mapErr(err))
	}
	if err := pgTx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: write: commit: %w", mapErr(err))
	}
	return nil
}

// tx buffers upserts and replaces (see sqlstore.Batch) and writes them in batches, on a
// goroutine of their own (pipe): every other statement waits for the queued writes first.
type tx struct {
	*sqlstore.Buffer
	tx    pgx.Tx
	pipe  sqlstore.Pipe
	fresh *sqlstore.Fresh
	// changes are the records this transaction changed, for the change feed (changes.go).
	changes *sqlstore.ChangeSet
	// deferral counts the rows written into each kind's table and keeps the indexes this
	// transaction dropped to build after the rows (see deferIndexes and analyze).
	deferral *deferral
}

// deferIndexes drops the secondary indexes of a table the transaction found empty and is
// filling (see deferIndexesAfter), and keeps their definitions for buildIndexes: a
// full-scale import spent a fifth of its time keeping them up (events have nine). DDL is
// transactional, so a write that fails leaves the indexes as they were; until the commit,
// the table is locked against other readers, who would have found it empty.
func (t *tx) deferIndexes(ctx context.Context, k *record.Kind) error {
	if err := t.pipe.Sync(); err != nil {
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
// such query with parallel workers: after a full-scale import, the cold list ran at 1,003
// answers/s, and at 4,596/s once the tables were analyzed.
func (t *tx) analyze(ctx context.Context) error {
	for _, k := range t.deferral.Filled(sqlstore.AnalyzeAfter) {
		if _, err := t.tx.Exec(ctx, `ANALYZE `+sqlstore.Table(k)); err != nil {
			return fmt.Errorf("analyze %s: %w", k.Name, mapErr(err))
		}
	}
	return nil
}

// DeleteAll removes every record of a kind, buffered ones included.
func (t *tx) DeleteAll(ctx context.Context, k *record.Kind) error {
	if k == nil {
		return fmt.Errorf("postgres: delete all: %w: no kind", store.ErrBadQuery)
	}
	t.Batch.Drop(k)
	if err := t.pipe.Sync(); err != nil {
		return fmt.Errorf("postgres: delete all %s: %w", k.Name, err)
	}
	if err := t.noteDeletes(ctx, k); err != nil {
		return fmt.Errorf("postgres: delete all %s: %w", k.Name, err)
	}
	if _, err := t.tx.Exec(ctx, `DELETE FROM `+sqlstore.Table(k)); err != nil {
		return fmt.Errorf("postgres: delete all %s: %w", k.Name, mapErr(err))
	}
	t.fresh.Emptied(k)
	return nil
}

// flush writes every buffered record: per kind, one read of the stored docs (none in a
// table the transaction found empty, for ids it did not write), then the rows (see write).
func (t *tx) flush(ctx context.Context) error {
	for _, kb := range t.Batch.Take() {
		if err := t.look(ctx, kb.Kind); err != nil {
			return err
		}
		stored, err := t.storedDocs(ctx, kb.Kind, t.fresh.MayExist(kb.Kind, kb.MergeIDs()))
		if err != nil {
			return err
		}
		rows, err := kb.Rows(stored)
		if err != nil {
			return err
		}
		t.changes.Wrote(kb.Kind, rows)
		if len(rows) == 0 {
			continue
		}
		if t.deferral.Wrote(kb.Kind, len(rows)) {
			if err := t.deferIndexes(ctx, kb.Kind); err != nil {
				return err
			}
		}
		write := t.write(kb.Kind, rows)
		if err := t.pipe.Send(func() error { return write(ctx) }); err != nil {
			return err
		}
	}
	return nil
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
		isNew := t.fresh.New(k, rows[0].ID)
		n := 1
		for n < len(rows) && t.fresh.New(k, rows[n].ID) == isNew {
			n++
		}
		stretches = append(stretches, stretch{isNew, rows[:n]})
		t.fresh.Wrote(k, rows[:n])
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

// look looks at the kind's table the first time the transaction writes to it.
func (t *tx) look(ctx context.Context, k *record.Kind) error {
	if t.fresh.Known(k) {
		return nil
	}
	if err := t.pipe.Sync(); err != nil {
		return err
	}
	var found bool
	if err := t.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+sqlstore.Table(k)+`)`).Scan(&found); err != nil {
		return fmt.Errorf("is %s empty: %w", k.Name, mapErr(err))
	}
	t.fresh.Found(k, found)
	if !found {
		t.changes.FoundEmpty(k)
		t.deferral.FoundEmpty(k)
	}
	return nil
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

// storedDocs reads the stored docs of ids in one query.
func (t *tx) storedDocs(ctx context.Context, k *record.Kind, ids []string) (map[string]string, error) {
	stored := map[string]string{}
	if len(ids) == 0 {
		return stored, nil
	}
	if err := t.pipe.Sync(); err != nil {
		return nil, err
	}
	rows, err := t.tx.Query(ctx, `SELECT id, doc FROM `+sqlstore.Table(k)+` WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("read stored %s: %w", k.Name, mapErr(err))
	}
	defer rows.Close()
	for rows.Next() {
		var id, doc string
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, fmt.Errorf("read stored %s: %w", k.Name, mapErr(err))
		}
		stored[id] = doc
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stored %s: %w", k.Name, mapErr(err))
	}
	return stored, nil
}
