package ratelimit

import (
	"net/http"
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
