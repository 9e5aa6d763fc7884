package respond

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// Every error answer goes through Write: the body a client sees, the status, Retry-After,
// and the line logged through the logger passed in (not slog.Default).
func TestWriteAnswersAndLogsEveryKindOfError(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		status int
		body   string
		retry  string
		log    string // a fragment of the logged line, "" for none
	}{
		{"not found", ErrNotFound, 404, `{"Message":"Not found"}`, "", ""},
		{"invalid key", ErrInvalidKey, 400, `{"Message":"Invalid API key"}`, "", ""},
		{"premium", ErrPremiumNeeded, 400, `{"Message":"Premium API key required"}`, "", ""},
		{"method", ErrMethodNotAllowed, 405, `{"Message":"Method not allowed"}`, "", ""},
		{"rate limited", RateLimited(30, 1200*time.Millisecond), 429,
			`{"message":"Rate limit exceeded. Please keep below 30 requests per 1 minute.","error":429}`, "2", ""},
		{"rate limited, no wait", RateLimited(100, 0), 429,
			`{"message":"Rate limit exceeded. Please keep below 100 requests per 1 minute.","error":429}`, "1", ""},
		{"rate limited, just under a minute", RateLimited(30, 59*time.Second+time.Microsecond), 429,
			`{"message":"Rate limit exceeded. Please keep below 30 requests per 1 minute.","error":429}`, "60", ""},
		{"key failures", TooManyKeyFailures(3 * time.Second), 429, `{"Message":"Too many invalid API keys from this address"}`, "3", ""},
		{"store down", fmt.Errorf("v1 x.php: %w", store.ErrUnavailable), 503, `{"Message":"Service unavailable"}`, "5",
			"level=WARN msg=\"request failed\" route=v1/x.php status=503 err=\"v1 x.php: "},
		{"deadline", fmt.Errorf("read the data version: %w", context.DeadlineExceeded), 503, `{"Message":"Service unavailable"}`, "5",
			`level=WARN msg="request failed" route=v1/x.php status=503 err="read the data version: context deadline exceeded"`},
		{"untyped", errors.New("boom"), 503, `{"Message":"Service unavailable"}`, "5", `level=ERROR msg="request failed" route=v1/x.php status=503 err=boom`},
		{"client left", fmt.Errorf("wait: %w", context.Canceled), 499, `{"Message":"Client closed request"}`, "",
			`level=DEBUG msg="client left before the answer" route=v1/x.php status=499 err="wait: context canceled"`},
		{"wrapped typed", fmt.Errorf("lookup: %w", ErrNotFound), 404, `{"Message":"Not found"}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs, defaults bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			old := slog.Default()
			slog.SetDefault(slog.New(slog.NewTextHandler(&defaults, nil)))
			defer slog.SetDefault(old)
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r = r.WithContext(NewContext(r.Context(), "v1/x.php", log))
			w := httptest.NewRecorder()
			Error(w, r, c.err)
			if w.Code != c.status || w.Body.String() != c.body {
				t.Errorf("answer %d %s, want %d %s", w.Code, w.Body, c.status, c.body)
			}
			if got := w.Header().Get("Retry-After"); got != c.retry {
				t.Errorf("Retry-After %q, want %q", got, c.retry)
			}
			if w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Content-Length") != fmt.Sprint(len(c.body)) {
				t.Errorf("headers %v", w.Header())
			}
			if c.log == "" && logs.Len() > 0 || !strings.Contains(logs.String(), c.log) {
				t.Errorf("logged %q, want a line with %q", logs.String(), c.log)
			}
			if defaults.Len() > 0 {
				t.Errorf("logged through slog.Default: %s", defaults.String())
			}
		})
	}
}

// A handler's route label keeps the server's logger.
func TestContextWithRouteKeepsTheLogger(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r = WithRoute(r.WithContext(NewContext(r.Context(), "", log)), "v2/search")
	if RouteOf(r) != "v2/search" || LoggerOf(r) != log {
		t.Fatalf("route %q, logger kept %v", RouteOf(r), LoggerOf(r) == log)
	}
}

// taker is a writer that keeps the body it is handed.
type taker struct {
	*httptest.ResponseRecorder
	taken []byte
}

func (t *taker) TakeBody(body []byte) { t.taken = body }

// JSON hands a writer that takes bodies the body itself, with the headers a client sees.
func TestJSONHandsBodyToTaker(t *testing.T) {
	w := &taker{ResponseRecorder: httptest.NewRecorder()}
	body := []byte(`{"teams":null}`)
	JSON(w, body)
	if string(w.taken) != `{"teams":null}` || w.Body.Len() != 0 {
		t.Fatalf("taken %q, written %q", w.taken, w.Body.String())
	}
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Content-Length") != "14" {
		t.Fatalf("status %d, headers %v", w.Code, w.Header())
	}
}
