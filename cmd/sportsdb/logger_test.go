package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// serve's loggers: request lines in the format of the other logs at info level and below,
// none above it, and a format that is neither text nor json refused.
func TestNewLogger(t *testing.T) {
	for _, c := range []struct {
		level  slog.Level
		format string
		want   string // in the request line; "" for none
	}{
		{slog.LevelInfo, "text", `level=INFO msg=request method=GET path=/healthz route=healthz status=200`},
		{slog.LevelDebug, "json", `"level":"INFO","msg":"request","method":"GET","path":"/healthz","route":"healthz","status":200`},
		{slog.LevelWarn, "text", ""},
	} {
		var out bytes.Buffer
		logger, access, err := newLogger(&out, c.level, c.format)
		if err != nil {
			t.Fatal(err)
		}
		env := apitest.New(t, apitest.Options{Logger: logger, AccessLog: access})
		env.Server.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
		if got := out.String(); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("level %s, format %s: logged %q, want a line with %q", c.level, c.format, got, c.want)
		}
	}
	if _, _, err := newLogger(&bytes.Buffer{}, slog.LevelInfo, "xml"); err == nil {
		t.Error("format xml accepted")
	}
}
