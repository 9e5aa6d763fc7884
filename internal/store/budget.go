package store

import (
	"context"
	"time"
)

// BudgetWindow is the rolling window an upstream budget counts over.
const BudgetWindow = 60 * time.Second

// Budget is a store that keeps upstream request budgets (internal/mirror): the slots of a
// rolling 60 s window, so that a mirror killed and started again, or a server reading
// through beside it, finds the requests already sent. It is optional: the mirror
// type-asserts it on the Store.
type Budget interface {
	// BudgetTake takes one of limit slots of budget id at now, and says true, unless limit
	// slots were taken within BudgetWindow before now: then false, and how long until the
	// oldest of them leaves the window.
	BudgetTake(ctx context.Context, id string, limit int, now time.Time) (ok bool, retryAfter time.Duration, err error)
}
