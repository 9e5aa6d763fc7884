package postgres

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestFrontier(t *testing.T) { storetest.Frontier(t, openFresh(t)) }
