package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxStmts bounds the prepared statements kept. Find's statements have few texts (one per
// query shape: values are arguments), so the bound is never reached in a server; a text
// beyond it is prepared each time, as every statement was before.
const maxStmts = 512

// stmts keeps Find's statements prepared on the read pool. The driver prepares every
// statement it runs anew, and preparing was a noticeable share of a search's CPU: a
// statement prepared on the pool is prepared once per connection, then reused
// (Tx.StmtContext reuses it on the transaction's connection).
type stmts struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get returns the prepared statement of query, or nil when it is not kept.
func (c *stmts) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[query]
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if ok || full {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[query]; ok {
		// Prepared by another request meanwhile.
		st.Close()
		return old, nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st, nil
}

// query runs query on the pool, or in tx when tx is not nil, through its prepared statement.
func (c *stmts) query(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	st, err := c.get(ctx, query)
	if err != nil {
		return nil, err
	}
	switch {
	case st == nil && tx == nil:
		return c.db.QueryContext(ctx, query, args...)
	case st == nil:
		return tx.QueryContext(ctx, query, args...)
	case tx == nil:
		return st.QueryContext(ctx, args...)
	}
	return tx.StmtContext(ctx, st).QueryContext(ctx, args...)
}

// close closes every kept statement.
func (c *stmts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for q, st := range c.m {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.m, q)
	}
	return first
}
