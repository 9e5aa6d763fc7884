package sqlite

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestPushes(t *testing.T) { storetest.Pushes(t, openTemp(t)) }
