package postgres

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestBudget(t *testing.T) { storetest.Budget(t, openFresh(t)) }
