package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// configured is a server built from a Config a test shapes, on an empty SQLite database with
// the published free keys and a premium key.
type configured struct {
	srv        *server.Server
	store      store.Store
	premiumKey string
	dbPath     string // the SQLite file
}

func newConfigured(t *testing.T, shape func(*server.Config)) *configured {
	t.Helper()
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "test.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := auth.EnsurePublished(ctx, st); err != nil {
		t.Fatal(err)
	}
	premium := auth.NewKey()
	if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(premium), Tier: store.Premium, Label: "test", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{
		Store: st, Clock: clock.System{}, Mounts: app.Mounts(api.Deps{Store: st, Clock: clock.System{}, Caps: caps.New()}),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Auth:     auth.New(st, clock.System{}, auth.Options{}),
		Guard:    auth.NewFailGuard(auth.FailGuardOptions{Limit: 20, Window: time.Minute}),
		Limiter:  ratelimit.NewMemory(clock.System{}),
		CacheDir: t.TempDir(),
	}
	if shape != nil {
		shape(&cfg)
	}
	srv := server.New(cfg)
	t.Cleanup(func() { srv.Close() })
	return &configured{srv: srv, store: st, premiumKey: premium, dbPath: dbPath}
}

// do sends a request from remote (host:port) with headers in name, value pairs.
func (c *configured) do(method, path, remote string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://sportsdb.test"+path, nil)
	r.RemoteAddr = remote
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	c.srv.ServeHTTP(w, r)
	return w
}

func (c *configured) get(path, remote string, headers ...string) *httptest.ResponseRecorder {
	return c.do(http.MethodGet, path, remote, headers...)
}
