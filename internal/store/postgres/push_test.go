package postgres

import (
	"context"

	"testing"

	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/storetest"
)

func TestPushes(t *testing.T) { storetest.Pushes(t, openFresh(t)) }

func TestWebhooks(t *testing.T) { storetest.Webhooks(t, openFresh(t)) }

// Two stores on one database stand for two replicas.
func TestImages(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	open := func() *Store {
		return storetest.Opened(t, func(ctx context.Context) (*Store, error) { return Open(ctx, dsn) })
	}
	storetest.Images(t, open(), open())
}
