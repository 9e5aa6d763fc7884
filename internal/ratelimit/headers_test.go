package ratelimit

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSetHeaders(t *testing.T) {
	h := http.Header{}
	SetHeaders(h, Decision{Allowed: true, Limit: 100, Remaining: 42, Reset: 17*time.Second + time.Millisecond})
	want := map[string]string{
		"X-Ratelimit-Limit":     "100",
		"X-Ratelimit-Remaining": "42",
		"X-Ratelimit-Reset":     "18",
		"Ratelimit-Policy":      `"default";q=100;w=60`,
		"Ratelimit":             `"default";r=42;t=18`,
	}
	if len(h) != len(want) {
		t.Errorf("headers %v, want exactly %v", h, want)
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

func TestWriteTooMany(t *testing.T) {
	cases := []struct {
		retry time.Duration
		want  string
	}{
		{1200 * time.Millisecond, "2"},
		{59*time.Second + time.Microsecond, "60"},
		{3 * time.Second, "3"},
		{0, "1"}, // never tell a client to retry at once
		{time.Nanosecond, "1"},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		WriteTooMany(rec, Decision{Limit: 30, Reset: c.retry, RetryAfter: c.retry})
		res := rec.Result()
		body := rec.Body.String()
		wantBody := `{"message":"Rate limit exceeded. Please keep below 30 requests per 1 minute.","error":429}`
		if res.StatusCode != http.StatusTooManyRequests || body != wantBody {
			t.Fatalf("retry %v: %d %s, want 429 %s", c.retry, res.StatusCode, body, wantBody)
		}
		if got := res.Header.Get("Retry-After"); got != c.want {
			t.Errorf("retry %v: Retry-After %q, want %q", c.retry, got, c.want)
		}
		if res.Header.Get("Content-Type") != "application/json" ||
			res.Header.Get("X-RateLimit-Remaining") != "0" ||
			res.Header.Get("RateLimit-Policy") != `"default";q=30;w=60` {
			t.Errorf("retry %v: headers %v", c.retry, res.Header)
		}
	}
}
