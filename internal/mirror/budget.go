package mirror

import (
	"context"
	"fmt"

	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// storeLimiter keeps the budget in the database (store.Budget) when no Redis is configured:
// a mirror killed and started again finds the slots its last run took, and a server reading
// through with the same database and key shares them.
type storeLimiter struct {
	b     store.Budget
	clock Clock
}

// Allow takes a slot of the budget id (ratelimit.Limiter).
func (l storeLimiter) Allow(ctx context.Context, id string, limit int) (ratelimit.Decision, error) {
	ok, wait, err := l.b.BudgetTake(ctx, id, limit, l.clock.Now())
	if err != nil {
		return ratelimit.Decision{}, fmt.Errorf("mirror: budget in the database: %w", err)
	}
	return ratelimit.Decision{Allowed: ok, Limit: limit, RetryAfter: wait}, nil
}
