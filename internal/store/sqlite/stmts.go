package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"sportsdb/internal/store/sqlstore"
)

// maxStmts bounds the prepared statements kept. Find's statements have few texts (one per
// query shape: values are arguments), so the bound is never reached in a server; a text
// beyond it is prepared each time, as every statement was before.
const maxStmts = 512

// stmts keeps Find's statements prepared on the read pool. The driver prepares every
// statement it runs anew, and preparing was a noticeable share of a search's CPU: a
// statement prepared on the pool is prepared once per connection, then reused
// (Tx.StmtContext reuses it on the transaction's connection).
//
// A statement first met inside a transaction is not prepared there and then: preparing on
// the pool takes a connection of the pool while the transaction holds one, and when every
// connection was held that way (the searches of a start's first burst), each waited for
// another to free and none did until the requests' deadlines. It runs unprepared, and is
// prepared beside it, by a goroutine that holds no connection while it waits for one.
type stmts struct {
	db        *sql.DB
	mu        sync.Mutex
	m         map[string]*sql.Stmt
	preparing map[string]bool
	aside     sync.WaitGroup // the preparations under way beside transactions
	closed    bool
}

// get returns the prepared statement of query, or nil when it is not kept (yet). inTx says
// the caller holds a connection of the pool.
func (c *stmts) get(ctx context.Context, query string, inTx bool) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[query]
	full := len(c.m)+len(c.preparing) >= maxStmts
	if !ok && !full && inTx {
		if !c.preparing[query] && !c.closed {
			if c.preparing == nil {
				c.preparing = map[string]bool{}
			}
			c.preparing[query] = true
			c.aside.Add(1)
			go c.prepareAside(query)
		}
		c.mu.Unlock()
		return nil, nil
	}
	c.mu.Unlock()
	if ok || full {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return c.keep(query, st), nil
}

// prepareAside prepares query on the pool for the next requests.
func (c *stmts) prepareAside(query string) {
	defer c.aside.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := c.db.PrepareContext(ctx, query)
	c.mu.Lock()
	delete(c.preparing, query)
	c.mu.Unlock()
	if err == nil {
		c.keep(query, st)
	}
}

// keep adds a statement prepared on the pool, unless another was kept meanwhile or the
// statements were closed; it returns the one kept.
func (c *stmts) keep(query string, st *sql.Stmt) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[query]; ok || c.closed {
		// Prepared by another request meanwhile, or too late.
		st.Close()
		if c.closed {
			return nil
		}
		return old
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

// query runs query on the pool, or in tx when tx is not nil, through its prepared statement.
func (c *stmts) query(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	st, q, err := c.on(ctx, tx, query)
	switch {
	case err != nil:
		return nil, err
	case st == nil:
		return q.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// exec runs query as query does, for a statement that returns no rows.
func (c *stmts) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, q, err := c.on(ctx, tx, query)
	switch {
	case err != nil:
		return nil, err
	case st == nil:
		return q.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

// on returns query's prepared statement, in tx when tx is not nil, or, when it is not kept
// (yet), nil and where to run it unprepared.
func (c *stmts) on(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, sqlstore.StdQuerier, error) {
	st, err := c.get(ctx, query, tx != nil)
	switch {
	case err != nil:
		return nil, nil, err
	case tx == nil && st == nil:
		return nil, c.db, nil
	case st == nil:
		return nil, tx, nil
	case tx != nil:
		return tx.StmtContext(ctx, st), nil, nil
	}
	return st, nil, nil
}

// close closes every kept statement.
func (c *stmts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var first error
	for q, st := range c.m {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.m, q)
	}
	return first
}

// preparedQuerier runs the shared code's statements (sqlstore.Querier) on a pool, or in a
// transaction of it (tx), through the pool's prepared statements: the webhooks' deliverer
// and the key store run the same few statements thousands of times a second, and parsing
// each was a quarter of a delivery's CPU.
type preparedQuerier struct {
	stmts *stmts
	tx    *sql.Tx
}

func (q preparedQuerier) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := q.stmts.query(ctx, q.tx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.StdRows(rows), nil
}

func (q preparedQuerier) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := q.stmts.exec(ctx, q.tx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
