package sqlite

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// A search holds a read connection in its transaction and then asks for the data version.
// When every read connection was held that way, a version reader that took its own
// connection from the same pool waited for one to free, and none did until the requests'
// deadlines: every search of a burst failed with "database unavailable". The version must
// answer with the whole read pool held.
func TestDataVersionWithEveryReadConnectionHeld(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var held []*sql.Conn
	for range s.readConns {
		c, err := s.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// The bound only turns a hang into a failure.
	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := s.DataVersion(bounded); err != nil {
		t.Fatalf("DataVersion with every read connection held: %v", err)
	}
	// After an error gave the version's connection back, the next call opens another.
	s.version.mu.Lock()
	s.version.reset()
	s.version.mu.Unlock()
	s.version.last.Store(nil)
	if _, err := s.DataVersion(bounded); err != nil {
		t.Fatalf("DataVersion after a reset, with every read connection held: %v", err)
	}
}

// A statement first met inside a transaction, while every read connection is held by one,
// runs at once: preparing it on the pool would wait for a connection only a finished
// transaction frees (a start's first burst of searches failed this way).
func TestFirstStatementInATransactionWithEveryConnectionHeld(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var txs []*sql.Tx
	for range s.readConns {
		tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	defer func() {
		for _, tx := range txs {
			tx.Rollback()
		}
	}()
	// The bound only turns a hang into a failure.
	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rows, err := s.stmts.query(bounded, txs[0], `SELECT count(*) FROM team WHERE seq > ?`, 0)
	if err != nil {
		t.Fatalf("a first statement in a transaction, with every read connection held: %v", err)
	}
	rows.Close()
}
