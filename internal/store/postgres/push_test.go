package postgres

import (
	"testing"

	"sportsdb/internal/store/storetest"
)

func TestPushes(t *testing.T) { storetest.Pushes(t, openFresh(t)) }

func TestWebhooks(t *testing.T) { storetest.Webhooks(t, openFresh(t)) }
