// Package respond writes the bodies every API answer shares: JSON records, the documented
// error bodies, and the empty body the public service sends for parameter combinations it
// does not allow. Every answer is JSON; no HTML, stack trace or SQL text reaches a client.
package respond

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// JSON writes a complete JSON body with status 200.
func JSON(w http.ResponseWriter, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// Message writes {"Message":msg} with the status.
func Message(w http.ResponseWriter, status int, msg string) {
	body := append([]byte(`{"Message":`), record.AppendString(nil, msg)...)
	body = append(body, '}')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Empty writes HTTP 200 with an empty body (Content-Length 0).
func Empty(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// The documented error answers.
func NotFound(w http.ResponseWriter)   { Message(w, http.StatusNotFound, "Not found") }
func InvalidKey(w http.ResponseWriter) { Message(w, http.StatusBadRequest, "Invalid API key") }
func PremiumNeeded(w http.ResponseWriter) {
	Message(w, http.StatusBadRequest, "Premium API key required")
}
func NoData(w http.ResponseWriter) { JSON(w, []byte(`{"Message":"No data found"}`)) }

// RetryAfterUnavailable is the Retry-After of a 503, in seconds.
const RetryAfterUnavailable = 5

// Unavailable writes the 503 answer for an internal failure.
func Unavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
	Message(w, http.StatusServiceUnavailable, "Service unavailable")
}

// Error answers an internal error: it is logged with its detail, and the client gets 503.
func Error(w http.ResponseWriter, r *http.Request, err error) {
	level := slog.LevelError
	if errors.Is(err, store.ErrUnavailable) {
		level = slog.LevelWarn
	}
	slog.Log(r.Context(), level, "request failed", "route", RouteOf(r), "err", err)
	Unavailable(w)
}

type routeKey struct{}

// RouteOf returns the route name stored for logging (never the raw path: v1 paths hold keys).
func RouteOf(r *http.Request) string {
	if v, ok := r.Context().Value(routeKey{}).(string); ok {
		return v
	}
	return ""
}

// WithRoute returns r carrying a route name for logs and metrics.
func WithRoute(r *http.Request, route string) *http.Request {
	return r.WithContext(ContextWithRoute(r.Context(), route))
}

// ContextWithRoute returns ctx carrying a route name, for a request made with it.
func ContextWithRoute(ctx context.Context, route string) context.Context {
	return context.WithValue(ctx, routeKey{}, route)
}
