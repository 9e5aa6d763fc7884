// Package respond writes the bodies every API answer shares: JSON records, the documented
// error bodies, and the empty body the public service sends for parameter combinations it
// does not allow. Every answer is JSON; no HTML, stack trace or SQL text reaches a client.
//
// Every error answer is an *HTTPError (errors.go), written by Write, which also logs it with the
// logger the server passed in; the functions below that write a fixed error (NotFound,
// InvalidKey, PremiumNeeded, Error) are that same path.
package respond

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"sportsdb/internal/record"
)

// JSON writes a complete JSON body with status 200.
func JSON(w http.ResponseWriter, body []byte) { writeBody(w, http.StatusOK, body) }

// Status writes a complete JSON body with the status (health answers, which are not errors).
func Status(w http.ResponseWriter, status int, body []byte) { writeBody(w, status, body) }

// A BodyTaker is a writer that keeps a complete body as it is, where Write would copy it (the
// server's response cache, which keeps every answer it computes). The body is not changed
// after it is handed over.
type BodyTaker interface {
	TakeBody(body []byte)
}

// KeyedDocument writes the complete body of a document whose URL holds a key (a calendar, a
// TV guide): no shared cache may keep it.
func KeyedDocument(w http.ResponseWriter, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "private, max-age=300")
	if t, ok := w.(BodyTaker); ok {
		t.TakeBody(body)
		return
	}
	_, _ = w.Write(body)
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if t, ok := w.(BodyTaker); ok {
		t.TakeBody(body)
		return
	}
	_, _ = w.Write(body)
}

// MessageBody is {"Message":msg}, the body of every error answer but the rate limit's.
func MessageBody(msg string) []byte {
	body := append([]byte(`{"Message":`), record.AppendString(nil, msg)...)
	return append(body, '}')
}

// Message writes {"Message":msg} with the status.
func Message(w http.ResponseWriter, status int, msg string) {
	writeBody(w, status, MessageBody(msg))
}

// Empty writes HTTP 200 with an empty body (Content-Length 0).
func Empty(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// The documented error answers, for handlers that have no error to log.
func NotFound(w http.ResponseWriter)      { ErrNotFound.write(w) }
func InvalidKey(w http.ResponseWriter)    { ErrInvalidKey.write(w) }
func PremiumNeeded(w http.ResponseWriter) { ErrPremiumNeeded.write(w) }
func NoData(w http.ResponseWriter)        { JSON(w, []byte(`{"Message":"No data found"}`)) }

// Unavailable writes the 503 answer for an internal failure, without logging.
func Unavailable(w http.ResponseWriter) { Internal(nil).write(w) }

// Error answers err through Write with the logger the server put in the request's context.
func Error(w http.ResponseWriter, r *http.Request, err error) { Write(w, r, LoggerOf(r), err) }

type infoKey struct{}

// requestInfo is what the server tells the code answering a request: the route name for logs
// and metrics (never the raw path: v1 paths hold keys) and the logger errors go to. One
// context value holds both, so a request costs one.
type requestInfo struct {
	route string
	log   *slog.Logger
}

func infoOf(ctx context.Context) requestInfo {
	v, _ := ctx.Value(infoKey{}).(requestInfo)
	return v
}

// NewContext returns ctx carrying a request's route name and the logger its errors go to.
func NewContext(ctx context.Context, route string, log *slog.Logger) context.Context {
	return context.WithValue(ctx, infoKey{}, requestInfo{route: route, log: log})
}

// RouteOf returns the route name stored for logging.
func RouteOf(r *http.Request) string { return infoOf(r.Context()).route }

// LoggerOf returns the logger stored for the request, or slog.Default when there is none.
func LoggerOf(r *http.Request) *slog.Logger {
	if l := infoOf(r.Context()).log; l != nil {
		return l
	}
	return slog.Default()
}

// WithRoute returns r carrying a route name for logs and metrics.
func WithRoute(r *http.Request, route string) *http.Request {
	return r.WithContext(ContextWithRoute(r.Context(), route))
}

// ContextWithRoute returns ctx carrying a route name, keeping the logger it carries.
func ContextWithRoute(ctx context.Context, route string) context.Context {
	return NewContext(ctx, route, infoOf(ctx).log)
}
