package respcache

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api/respond"
)

// A client that leaves while its request waits for another request's computation of the same
// answer is recorded as leaving (499, at debug level), not as a failure of the server; a
// deadline that passes while waiting, or while the data version is read, is logged with the
// operation that did not end.
func TestCacheWaitsEndNamed(t *testing.T) {
	hang := func(ctx context.Context) (int64, error) { <-ctx.Done(); return 0, ctx.Err() }
	cases := []struct {
		name    string
		version func(context.Context) (int64, error)
		end     func(context.CancelFunc)
		timeout time.Duration
		status  int
		log     string
	}{
		{"client leaves while waiting", nil, func(cancel context.CancelFunc) { cancel() }, time.Minute, 499,
			`level=DEBUG msg="client left before the answer" route=v1/lookupteam.php status=499 err="wait for the same answer computed by another request: context canceled"`},
		{"deadline while waiting", nil, func(context.CancelFunc) {}, 50 * time.Millisecond, 503,
			`level=WARN msg="request failed" route=v1/lookupteam.php status=503 err="wait for the same answer computed by another request: context deadline exceeded"`},
		{"deadline reading the data version", hang, func(context.CancelFunc) {}, 50 * time.Millisecond, 503,
			`level=WARN msg="request failed" route=v1/lookupteam.php status=503 err="read the data version: `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			version := tc.version
			if version == nil {
				version = func(context.Context) (int64, error) { return 1, nil }
			}
			c := newResponseCache(version, defaultCacheBytes, nil)
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
			if tc.version == nil { // a first request computes, and holds the answer back
				req := request(context.Background())
				go c.Serve(httptest.NewRecorder(), req, keyOf(req, tg), next)
				<-started
			}
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			rec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() {
				defer close(done)
				c.Serve(rec, request(ctx), keyOf(request(ctx), tg), next)
			}()
			time.Sleep(20 * time.Millisecond)
			tc.end(cancel)
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
