package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

const (
	// batchSize is how many records a transaction buffers before it writes them.
	batchSize = 1000
	// rowsPerInsert rows go in one INSERT: fewer statement executions, the largest cost of
	// a bulk import after the b-trees themselves.
	rowsPerInsert = 128
	// idsPerRead ids go in one read of stored docs.
	idsPerRead = 128
)

// Write runs fn in one transaction on the writer connection and advances the data version
// with it. An error of fn comes back as it is, after the rollback. Writes queue for the one
// writer connection, so fn must not call Write or the key methods of the same store; reads
// inside fn see the last committed data.
func (s *Store) Write(ctx context.Context, fn func(store.Tx) error) error {
	sqlTx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: write: begin: %w", mapErr(err))
	}
	// The writer's large page cache is for the transaction (see writeCacheKiB). This runs
	// last, once the rollback has freed the connection; should it fail, the cache stays
	// large, which costs memory only.
	defer s.write.ExecContext(context.WithoutCancel(ctx), cacheSize(readCacheKiB))
	if _, err := sqlTx.ExecContext(ctx, cacheSize(writeCacheKiB)); err != nil {
		sqlTx.Rollback()
		return fmt.Errorf("sqlite: write: %w", mapErr(err))
	}
	t := &tx{tx: sqlTx, kept: &s.wstmts, stmts: map[string]*sql.Stmt{}, inserts: map[insertKey]*sql.Stmt{}}
	t.Tx = sqlstore.NewTx(sqlstore.TxConfig{Name: "sqlite", Dialect: sqlstore.SQLite, Q: txQuerier{t},
		Classify: classify, BatchSize: batchSize, Backend: t})
	defer sqlTx.Rollback()
	defer t.End()
	if err := fn(t); err != nil {
		return err
	}
	if err := t.Commit(ctx, s.feed); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("sqlite: write: commit: %w", mapErr(err))
	}
	return nil
}

var _ store.HoldTx = (*tx)(nil)

// tx is the shared write transaction (sqlstore.Tx) with what SQLite adds: rows inserted
// many to a statement, statements prepared once per transaction, the trigram indexes merged
// after a large write, and the change rows of an import inserted a few statements at a time.
type tx struct {
	*sqlstore.Tx
	tx *sql.Tx
	// kept is the writer's prepared statements: a transaction runs theirs, prepared once on
	// the writer connection, and prepares on itself only the statements not kept (yet).
	kept  *stmts
	stmts map[string]*sql.Stmt
	// inserts are the insert goroutine's statements; stmts are the others.
	inserts map[insertKey]*sql.Stmt
}

// FoundEmpty: SQLite keeps the indexes of a table it fills (see the postgres package's
// deferral).
func (t *tx) FoundEmpty(*record.Kind) {}

// Finish merges the trigram indexes and refreshes the planner statistics.
func (t *tx) Finish(ctx context.Context) error {
	if err := t.optimizeFTS(ctx); err != nil {
		return err
	}
	return t.analyze(ctx)
}

// txQuerier runs the shared transaction's statements prepared once per transaction.
type txQuerier struct{ t *tx }

func (q txQuerier) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	st, err := q.t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.StdRows(rows), nil
}

func (q txQuerier) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	st, err := q.t.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// analyze refreshes the planner statistics (sqlite_stat1) of the tables the transaction
// wrote many rows to, in the transaction. Without them SQLite guesses: it answered a
// league's season by walking every event of the league in time order, reading the rows of
// its other seasons too, rather than the season's rows alone and sorting them. Only tables
// given many rows are analyzed, so small writes do not pay for it. The samples ANALYZE also
// keeps are dropped (dropSamples).
func (t *tx) analyze(ctx context.Context) error {
	for k, n := range t.Written {
		if n < sqlstore.AnalyzeAfter {
			continue
		}
		if _, err := t.tx.ExecContext(ctx, `ANALYZE `+sqlstore.Table(k)); err != nil {
			return fmt.Errorf("analyze %s: %w", k.Name, mapErr(err))
		}
		if err := dropSamples(ctx, t.tx, k.Name); err != nil {
			return fmt.Errorf("analyze %s: %w", k.Name, mapErr(err))
		}
	}
	return nil
}

// dropSamples deletes the index samples ANALYZE keeps in sqlite_stat4, of one table or, with
// table "", of all. With samples, SQLite's planner estimates a condition from its value, so
// a prepared statement whose parameters meet an index (an id's events, a time range, a LIKE)
// is compiled again on every run with new values. With sqlite_stat1 alone the plan depends
// on the statement only, and each connection's prepared statements (stmts.go) run as
// prepared, which saves compiling on every request (docs/PERFORMANCE.md). The statements
// whose plan must not be left to the averages name their index (order.go).
func dropSamples(ctx context.Context, db execQuerier, table string) error {
	// The table exists once ANALYZE has run with a library built to keep samples.
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'`).Scan(&n); err != nil || n == 0 {
		return err
	}
	_, err := db.ExecContext(ctx, `DELETE FROM sqlite_stat4 WHERE ? IN ('', tbl)`, table)
	return err
}

// execQuerier is a *sql.DB or *sql.Tx.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (t *tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return prepared(ctx, t, t.stmts, query, func() string { return query })
}

// prepared returns the statement kept under key in m, the first time taking query() from
// the writer's prepared statements (kept), or, when it is not kept there yet, preparing it
// on the transaction; kept prepares it beside, for the next transactions. A score update
// runs some ten statements, and compiling them in every transaction was a fifth of its CPU.
// The transaction's two goroutines keep theirs in maps of their own (stmts, inserts).
func prepared[K comparable](ctx context.Context, t *tx, m map[K]*sql.Stmt, key K, query func() string) (*sql.Stmt, error) {
	if st, ok := m[key]; ok {
		return st, nil
	}
	q := query()
	st, err := t.kept.get(ctx, q, true)
	switch {
	case err != nil:
		return nil, fmt.Errorf("prepare: %w", mapErr(err))
	case st != nil:
		st = t.tx.StmtContext(ctx, st)
	default:
		if st, err = t.tx.PrepareContext(ctx, q); err != nil {
			return nil, fmt.Errorf("prepare: %w", mapErr(err))
		}
	}
	m[key] = st
	return st, nil
}

// StoredDocs reads the stored docs of ids, idsPerRead at a time. The last group is padded
// with a repeated id, so one prepared statement serves every group.
func (t *tx) StoredDocs(ctx context.Context, k *record.Kind, ids []string, docs map[string]string) error {
	st, err := t.stmt(ctx, `SELECT id, doc FROM `+sqlstore.Table(k)+` WHERE id IN (`+sqlstore.Params(sqlstore.SQLite, 1, idsPerRead)+`)`)
	if err != nil {
		return err
	}
	args := make([]any, idsPerRead)
	for start := 0; start < len(ids); start += idsPerRead {
		for i := range args {
			args[i] = ids[min(start+i, len(ids)-1)]
		}
		if err := readDocs(ctx, st, args, docs); err != nil {
			return err
		}
	}
	return nil
}

func readDocs(ctx context.Context, st *sql.Stmt, args []any, docs map[string]string) error {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return sqlstore.ReadDocs(rows, docs)
}

// insert writes rows (boxed by Send), rowsPerInsert to a statement and the rest in
// statements of halving sizes (a few prepared statements per kind); a replaced or merged
// record keeps its place in insertion order.
func (t *tx) insert(ctx context.Context, k *record.Kind, args []any) error {
	cols := 2 + len(k.Indexed)
	for len(args) > 0 {
		n := rowsPerInsert
		for n*cols > len(args) {
			n /= 2
		}
		st, err := t.insertStmt(ctx, k, n)
		if err != nil {
			return err
		}
		if _, err := st.ExecContext(ctx, args[:n*cols]...); err != nil {
			return fmt.Errorf("write %s %q: %w", k.Name, args[0], mapErr(err))
		}
		args = args[n*cols:]
	}
	return nil
}

// insertKey names a prepared insert: of how many rows of which kind.
type insertKey struct {
	kind *record.Kind
	rows int
}

func (t *tx) insertStmt(ctx context.Context, k *record.Kind, n int) (*sql.Stmt, error) {
	return prepared(ctx, t, t.inserts, insertKey{k, n}, func() string { return insertSQL(k, n) })
}

func insertSQL(k *record.Kind, n int) string {
	one := "(" + sqlstore.Params(sqlstore.SQLite, 1, 2+len(k.Indexed)) + ")"
	values := strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
	return "INSERT INTO " + sqlstore.Table(k) + " (" + sqlstore.InsertColumns(k) + ") VALUES " + values +
		" ON CONFLICT (id) DO UPDATE SET " + sqlstore.UpdateExcluded(k)
}

// atomic runs fn in one transaction on the writer connection (sqlstore.Config.Atomic):
// like Write, it queues for the one writer.
func (s *Store) atomic(ctx context.Context, fn func(sqlstore.Querier) error) error {
	sqlTx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer sqlTx.Rollback()
	if err := fn(preparedQuerier{stmts: &s.wstmts, tx: sqlTx}); err != nil {
		return err
	}
	return sqlTx.Commit()
}
