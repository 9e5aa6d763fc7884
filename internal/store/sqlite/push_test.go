package sqlite

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestPushes(t *testing.T) { storetest.Pushes(t, openTemp(t)) }

func TestWebhooks(t *testing.T) { storetest.Webhooks(t, openTemp(t)) }
