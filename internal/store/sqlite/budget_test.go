package sqlite

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestBudget(t *testing.T) { storetest.Budget(t, openTemp(t)) }
