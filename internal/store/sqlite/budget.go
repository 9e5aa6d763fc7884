package sqlite

import "sportsdb/internal/store"

// The upstream budgets (store.Budget) are sqlstore.DB's BudgetTake.
var _ store.Budget = (*Store)(nil)
