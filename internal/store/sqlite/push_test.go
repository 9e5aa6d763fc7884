package sqlite

import (
	"path/filepath"

	"testing"

	"sportsdb/internal/store/storetest"
)

func TestPushes(t *testing.T) { storetest.Pushes(t, openTemp(t)) }

func TestWebhooks(t *testing.T) { storetest.Webhooks(t, openTemp(t)) }

func TestImages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	storetest.Images(t, openAt(t, path), openAt(t, path))
}
