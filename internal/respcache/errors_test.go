package respcache

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"sportsdb/internal/api/respond"
)

// A client that leaves while its request waits for another request's computation of the same
// answer is recorded as leaving (499, at debug level), not as a failure of the server; a
// deadline that passes while waiting, or while the data version is read, is logged with the
// operation that did not end.
func TestCacheWaitsEndNamed(t *testing.T) {
	cases := []struct {
		name   string
		hang   bool // the data version is not read until the request's context ends
		end    error
		status int
		log    string
	}{
		{"client leaves while waiting", false, context.Canceled, 499,
			`level=DEBUG msg="client left before the answer" route=v1/lookupteam.php status=499 err="wait for the same answer computed by another request: context canceled"`},
		{"deadline while waiting", false, context.DeadlineExceeded, 503,
			`level=WARN msg="request failed" route=v1/lookupteam.php status=503 err="wait for the same answer computed by another request: context deadline exceeded"`},
		{"deadline reading the data version", true, context.DeadlineExceeded, 503,
			`level=WARN msg="request failed" route=v1/lookupteam.php status=503 err="read the data version: `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reading := make(chan struct{}, 1)
			version := func(context.Context) (int64, error) { return 1, nil }
			if tc.hang {
				version = func(ctx context.Context) (int64, error) { reading <- struct{}{}; <-ctx.Done(); return 0, ctx.Err() }
			}
			c := newResponseCache(version, defaultCacheBytes, nil)
			waiting := make(chan struct{}, 1)
			c.joined = func() { waiting <- struct{}{} }
			release := make(chan struct{})
			defer close(release)
			started := make(chan struct{}, 1)
			next := func(w http.ResponseWriter, r *http.Request) {
				started <- struct{}{}
				<-release
				w.Write([]byte(`{"teams":null}`))
			}
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			tg, _ := parseTarget("/api/v1/json/k/lookupteam.php")
			request := func(ctx context.Context) *http.Request {
				req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/lookupteam.php?id=1", nil)
				return req.WithContext(respond.NewContext(ctx, tg.Route, log))
			}
			if !tc.hang { // a first request computes, and holds the answer back
				req := request(context.Background())
				go c.Serve(httptest.NewRecorder(), req, keyOf(req, tg), next)
				<-started
			}
			ctx := newEndable()
			rec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() {
				defer close(done)
				req := request(ctx)
				c.Serve(rec, req, keyOf(req, tg), next)
			}()
			if tc.hang {
				<-reading
			} else {
				<-waiting
			}
			ctx.end(tc.end)
			<-done
			if rec.Code != tc.status || !strings.Contains(logs.String(), tc.log) {
				t.Fatalf("status %d, log %q; want %d and %q", rec.Code, logs.String(), tc.status, tc.log)
			}
			if strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("logged at ERROR: %s", logs.String())
			}
		})
	}
}

// endable is a context that ends, with the error given, when the test ends it: a client
// leaving (context.Canceled) or a deadline passing (context.DeadlineExceeded) at the moment
// the test chooses.
type endable struct {
	context.Context
	done chan struct{}
	once sync.Once
	err  error
}

func newEndable() *endable {
	return &endable{Context: context.Background(), done: make(chan struct{})}
}

func (c *endable) end(err error) { c.once.Do(func() { c.err = err; close(c.done) }) }

func (c *endable) Done() <-chan struct{} { return c.done }

func (c *endable) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}
