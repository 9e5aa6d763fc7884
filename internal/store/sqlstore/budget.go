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
	ph := numbered(d)
	// $1 budget, $2 the limit, $3 now, $4 the window's start. Neither write takes a slot
	// while limit slots, of any limit the budget had before, fall in the window.
	room := `(SELECT count(*) FROM upstream_budget WHERE budget = ` + ph(1) + ` AND at_ms > ` + ph(4) + `) < ` + ph(2)
	return budgetSQL{
		// $1 budget, $2 the window's start.
		state: `SELECT count(*) FILTER (WHERE at_ms > ` + ph(2) + `), ` +
			`coalesce(min(at_ms) FILTER (WHERE at_ms > ` + ph(2) + `), 0) FROM upstream_budget WHERE budget = ` + ph(1),
		// A new slot while the ring has fewer than limit.
		insert: `INSERT INTO upstream_budget (budget, slot, at_ms) SELECT ` + ph(1) + `, count(*), ` + ph(3) +
			` FROM upstream_budget WHERE budget = ` + ph(1) + ` AND slot < ` + ph(2) +
			` HAVING count(*) < ` + ph(2) + ` AND ` + room + ` ON CONFLICT (budget, slot) DO NOTHING`,
		// The oldest slot of the ring, once it left the window.
		reuse: `UPDATE upstream_budget SET at_ms = ` + ph(3) + ` WHERE budget = ` + ph(1) + ` AND at_ms <= ` + ph(4) +
			` AND slot = (SELECT slot FROM upstream_budget WHERE budget = ` + ph(1) + ` AND slot < ` + ph(2) +
			` AND at_ms <= ` + ph(4) + ` ORDER BY at_ms LIMIT 1) AND ` + room,
	}
}

// numbered gives the dialect's placeholders by number, so that one may stand twice in a
// statement: SQLite's "?" becomes "?N".
func numbered(d Dialect) func(int) string {
	if d.Param(1) == "?" {
		return func(n int) string { return "?" + strconv.Itoa(n) }
	}
	return d.Param
}

// BudgetTake takes a slot of budget id (store.Budget).
func (db *DB) BudgetTake(ctx context.Context, id string, limit int, now time.Time) (bool, time.Duration, error) {
	if limit < 1 {
		return false, 0, fmt.Errorf("%s: budget limit %d: want at least 1", db.c.Name, limit)
	}
	q := newBudgetSQL(db.c.Dialect)
	args := []any{id, limit, now.UnixMilli(), now.Add(-store.BudgetWindow).UnixMilli()}
	// Another process taking the same slot at once makes a write change nothing: try again.
	for range 16 {
		for _, write := range []string{q.insert, q.reuse} {
			n, err := db.c.Write.Exec(ctx, write, args...)
			if err != nil {
				return false, 0, fmt.Errorf("%s: budget: %w", db.c.Name, db.MapErr(err))
			}
			if n == 1 {
				return true, 0, nil
			}
		}
		var recent, oldest int64
		if err := queryRow(ctx, db.c.Write, q.state, []any{id, args[3]}, &recent, &oldest); err != nil {
			return false, 0, fmt.Errorf("%s: budget: %w", db.c.Name, db.MapErr(err))
		}
		if recent >= int64(limit) {
			return false, max(time.UnixMilli(oldest).Add(store.BudgetWindow).Sub(now), time.Millisecond), nil
		}
	}
	return false, 10 * time.Millisecond, nil
}
