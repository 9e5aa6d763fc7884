package main

import (
	"fmt"
	"io"
	"log/slog"

	"sportsdb/internal/server"
)

// newLogger returns the logger of a level and format ("text" or "json", as the
// configuration checked) writing to w, and the access log that writes request lines in the
// same form, nil when the level leaves them out (above info).
func newLogger(w io.Writer, level slog.Level, format string) (*slog.Logger, *server.AccessLog, error) {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	switch format {
	case "json":
		h = slog.NewJSONHandler(w, opts)
	case "text":
		h = slog.NewTextHandler(w, opts)
	default:
		return nil, nil, fmt.Errorf("log format %q: want text or json", format)
	}
	var access *server.AccessLog
	if level <= slog.LevelInfo {
		access = server.NewAccessLog(w, format == "json")
	}
	return slog.New(h), access, nil
}
