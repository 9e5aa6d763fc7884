package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"sportsdb/internal/store"
)

// The upstream budgets (store.Budget, migrations *_upstream_budget): a budget of limit is a
// ring of at most limit rows, each the time its slot was last taken. A slot is taken by a
// statement that changes its row only if the row is still what was read (older than the
// window), so two processes never take one slot together, and no more than limit requests
// fall in any window whatever runs at once, on SQLite or PostgreSQL.

type budgetSQL struct {
	state, insert, reuse string
}

func newBudgetSQL(d Dialect) budgetSQL {
	ph := d.Param
	if d.Param(1) == "?" {
		ph = func(n int) string { return "?" + strconv.Itoa(n) }
	}
	return budgetSQL{
		// $1 budget, $2 the window's start, $3 the limit.
		state: `SELECT count(*) FILTER (WHERE at_ms > ` + ph(2) + `), count(*) FILTER (WHERE slot < ` + ph(3) + `), ` +
			`coalesce(min(at_ms) FILTER (WHERE at_ms > ` + ph(2) + `), 0) FROM upstream_budget WHERE budget = ` + ph(1),
		// $1 budget, $2 slot, $3 now.
		insert: `INSERT INTO upstream_budget (budget, slot, at_ms) VALUES (` + ph(1) + `, ` + ph(2) + `, ` + ph(3) +
			`) ON CONFLICT (budget, slot) DO NOTHING`,
		// $1 budget, $2 the window's start, $3 the limit, $4 now.
		reuse: `UPDATE upstream_budget SET at_ms = ` + ph(4) + ` WHERE budget = ` + ph(1) + ` AND at_ms <= ` + ph(2) +
			` AND slot = (SELECT slot FROM upstream_budget WHERE budget = ` + ph(1) + ` AND slot < ` + ph(3) +
			` AND at_ms <= ` + ph(2) + ` ORDER BY at_ms LIMIT 1)`,
	}
}

// BudgetTake takes a slot of budget id (store.Budget).
func (db *DB) BudgetTake(ctx context.Context, id string, limit int, now time.Time) (bool, time.Duration, error) {
	if limit < 1 {
		return false, 0, fmt.Errorf("%s: budget limit %d: want at least 1", db.c.Name, limit)
	}
	q := newBudgetSQL(db.c.Dialect)
	nowMs, start := now.UnixMilli(), now.Add(-store.BudgetWindow).UnixMilli()
	// Another process taking the same slot between the read and the write makes the write
	// change nothing: read again.
	for range 16 {
		var recent, slots, oldest int64
		if err := queryRow(ctx, db.c.Write, q.state, []any{id, start, limit}, &recent, &slots, &oldest); err != nil {
			return false, 0, fmt.Errorf("%s: budget: %w", db.c.Name, db.MapErr(err))
		}
		if recent >= int64(limit) {
			return false, max(time.UnixMilli(oldest).Add(store.BudgetWindow).Sub(now), time.Millisecond), nil
		}
		var n int64
		var err error
		if slots < int64(limit) {
			n, err = db.c.Write.Exec(ctx, q.insert, id, slots, nowMs)
		} else {
			n, err = db.c.Write.Exec(ctx, q.reuse, id, start, limit, nowMs)
		}
		if err != nil {
			return false, 0, fmt.Errorf("%s: budget: %w", db.c.Name, db.MapErr(err))
		}
		if n == 1 {
			return true, 0, nil
		}
	}
	return false, 10 * time.Millisecond, nil
}
