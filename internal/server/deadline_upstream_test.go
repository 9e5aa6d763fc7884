package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// hangingStore stops answering record reads, the data version and the change feed once
// hang is set, as a database that no longer answers; keys still resolve. A read that hangs
// is offered on hanging, if set, while it hangs.
type hangingStore struct {
	store.Store
	hang    atomic.Bool
	hanging chan struct{}
}

func (s *hangingStore) wait(ctx context.Context) error {
	if s.hang.Load() {
		select {
		case s.hanging <- struct{}{}:
			<-ctx.Done()
		case <-ctx.Done():
		}
		return ctx.Err()
	}
	return nil
}

func (s *hangingStore) DataVersion(ctx context.Context) (int64, error) {
	if err := s.wait(ctx); err != nil {
		return 0, err
	}
	return s.Store.DataVersion(ctx)
}

func (s *hangingStore) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.Store.Find(ctx, q)
}

func (s *hangingStore) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	if err := s.wait(ctx); err != nil {
		return record.Record{}, err
	}
	return s.Store.Get(ctx, k, id)
}

func (s *hangingStore) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	if err := s.wait(ctx); err != nil {
		return nil, 0, err
	}
	return s.Store.Changes(ctx, since, kinds, limit)
}

// hungUpstream has nothing to add, at once, until the store hangs; from then on it never
// answers within a request's wait.
type hungUpstream struct{ st *hangingStore }

func (u hungUpstream) Ensure(ctx context.Context, _, _ string) (bool, error) {
	return false, u.st.wait(ctx)
}

// With a read-through upstream, a database that stops answering still gives the documented
// 503 within the store's read deadline: the longer wait an answer from the upstream may
// take is not the deadline of the request's store reads. The requests' deadlines are on a
// clock of the test's, which it moves past the store's deadline once a read hangs, but not
// past the wait for the upstream (a minute more): a request that waited for the upstream
// would not be answered.
func TestUpstreamHungDatabaseAnswers503AtTheReadDeadline(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hang.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := auth.EnsurePublished(ctx, st); err != nil {
		t.Fatal(err)
	}
	hanging := &hangingStore{Store: st, hanging: make(chan struct{})}
	srv := server.New(server.Config{
		Store: hanging, Clock: clock.System{}, Mounts: app.Mounts(api.Deps{Store: hanging, Clock: clock.System{}, Caps: caps.New()}),
		Logger:          slog.New(slog.NewTextHandler(io.Discard, nil)),
		Auth:            auth.New(hanging, clock.System{}, auth.Options{}),
		Guard:           auth.NewFailGuard(auth.FailGuardOptions{Limit: 20, Window: time.Minute}),
		Limiter:         ratelimit.NewMemory(clock.System{}),
		CacheDir:        t.TempDir(),
		Upstream:        hungUpstream{hanging},
		UpstreamTimeout: time.Minute,
	})
	t.Cleanup(func() { srv.Close() })
	deadlines := server.NewDeadlineClock()
	srv.SetDeadlineClock(deadlines)
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w
	}
	// The key is resolved once while the database answers; then it stops.
	if w := get("/api/v1/json/123/all_sports.php"); w.Code != http.StatusOK {
		t.Fatalf("before the hang: %d %s", w.Code, w.Body)
	}
	hanging.hang.Store(true)
	for _, path := range []string{"/api/v1/json/123/lookupteam.php?id=133604", "/api/v1/json/123/all_sports.php"} {
		answered := make(chan *httptest.ResponseRecorder, 1)
		go func() { answered <- get(path) }()
		select {
		case <-hanging.hanging:
		case <-time.After(wait):
			t.Fatalf("%s: no store read hung", path)
		}
		deadlines.Advance(server.DefaultRequestTimeout)
		var w *httptest.ResponseRecorder
		select {
		case w = <-answered:
		case <-time.After(wait):
			t.Fatalf("%s: no answer once the store's deadline passed: it waits for the upstream's", path)
		}
		if w.Code != http.StatusServiceUnavailable || w.Body.String() != `{"Message":"Service unavailable"}` || w.Header().Get("Retry-After") != "5" {
			t.Errorf("%s: %d %s (Retry-After %q); want 503 {\"Message\":\"Service unavailable\"} with Retry-After 5",
				path, w.Code, w.Body, w.Header().Get("Retry-After"))
		}
	}
}
