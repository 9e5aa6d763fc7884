package server

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// The access log's lines are the ones slog's text and JSON handlers write for the same
// request, byte for byte, also for values that need quoting or escaping.
func TestAccessLogWritesWhatSlogWrites(t *testing.T) {
	at := time.Date(2026, 11, 22, 1, 2, 3, 4_500_600, time.UTC)
	entries := []accessEntry{
		{method: "GET", path: "/api/v1/json/{key}/searchteams.php", route: "v1/searchteams.php", status: 200, bytes: 5413, took: 38 * time.Microsecond, remote: "127.0.0.1"},
		{method: "HEAD", path: "/api/v2/json/search/team/A=B \"C\"\\", route: "v2/search/team", status: 404, bytes: 0, took: 2*time.Second + 345*time.Microsecond, remote: "::1"},
		{method: "GET", path: "/caf\u00e9/\u2028/\x01\xff/<&>", route: "other", status: 503, bytes: 12, took: 0, remote: ""},
		{method: "GET", path: "/a\tb\nc\u00a0d", route: "other", status: 400, bytes: 1, took: time.Millisecond, remote: "10.0.0.1"},
	}
	for _, json := range []bool{false, true} {
		for _, e := range entries {
			var want bytes.Buffer
			var h slog.Handler = slog.NewTextHandler(&want, nil)
			if json {
				h = slog.NewJSONHandler(&want, nil)
			}
			rec := slog.NewRecord(at, slog.LevelInfo, "request", 0)
			rec.AddAttrs(slog.String("method", e.method), slog.String("path", e.path),
				slog.String("route", e.route), slog.Int("status", e.status), slog.Int("bytes", e.bytes),
				slog.Float64("ms", e.ms()), slog.String("remote", e.remote))
			if err := h.Handle(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			NewAccessLog(&got, json).write(at, e)
			if got.String() != want.String() {
				t.Errorf("json=%v\n got %q\nwant %q", json, got.String(), want.String())
			}
		}
	}
}
