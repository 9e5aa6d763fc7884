package respond

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// HTTPError is an answer that is not a success: the status and the message a client may see,
// and the internal error behind it, which is logged and never sent. Handlers return or pass
// one to Write; an error of any other type is classified there (see Classify).
type HTTPError struct {
	Status int
	// Message is client-safe: it holds no key, SQL text or internal detail.
	Message string
	// Err is the cause, for the log; nil for answers that need no log line (a wrong key).
	Err error
	// RetryAfter, when positive, is sent as Retry-After in whole seconds, rounded up.
	RetryAfter time.Duration
	// level is the log level of Err.
	level slog.Level
	// limit, when set, makes the body the public service's own 429 shape.
	limit int
	// problems, when set, are sent as the body's "errors" (InvalidRecord).
	problems []Problem
}

// Problem is what is wrong with one field of a record a client sent: the field's name ("" for
// the body as a whole) and the rule it breaks.
type Problem struct {
	Field, Problem string
}

// InvalidRecord is the HTTP 422 of a record that breaks the rules an import applies:
// {"Message":"Invalid record","errors":[{"field":..,"problem":..}]}.
func InvalidRecord(problems []Problem) *HTTPError {
	return &HTTPError{Status: http.StatusUnprocessableEntity, Message: "Invalid record", problems: problems, level: slog.LevelDebug}
}

// Invalid is an HTTP 422 with another message than InvalidRecord's, for other things a
// client sends (a webhook): {"Message":msg,"errors":[{"field":..,"problem":..}]}.
func Invalid(msg string, problems []Problem) *HTTPError {
	return &HTTPError{Status: http.StatusUnprocessableEntity, Message: msg, problems: problems, level: slog.LevelDebug}
}

func (e *HTTPError) Error() string {
	if e.Err == nil {
		return e.Message
	}
	return e.Message + ": " + e.Err.Error()
}

func (e *HTTPError) Unwrap() error { return e.Err }

// StatusClientClosed is the status recorded (in logs and metrics) for a request whose client
// left before its answer was ready; nobody reads its body.
const StatusClientClosed = 499

// RetryAfterUnavailable is the Retry-After of a 503, in seconds.
const RetryAfterUnavailable = 5

// The fixed error answers of docs/CONTRACT.md section 3.
var (
	ErrNotFound         = &HTTPError{Status: http.StatusNotFound, Message: "Not found"}
	ErrInvalidKey       = &HTTPError{Status: http.StatusBadRequest, Message: "Invalid API key"}
	ErrPremiumNeeded    = &HTTPError{Status: http.StatusBadRequest, Message: "Premium API key required"}
	ErrMethodNotAllowed = &HTTPError{Status: http.StatusMethodNotAllowed, Message: "Method not allowed"}
)

// WithCode is an error answer of status with a client-safe message; err is logged at ERROR
// for a 5xx and at DEBUG otherwise.
func WithCode(status int, msg string, err error) *HTTPError {
	level := slog.LevelDebug
	if status >= 500 {
		level = slog.LevelError
	}
	return &HTTPError{Status: status, Message: msg, Err: err, level: level}
}

// Internal is the 503 answer for a failure inside the server: a store that cannot answer is
// a warning, a deadline that passed (a store that stopped answering) too, anything else an
// error.
func Internal(err error) *HTTPError {
	e := &HTTPError{Status: http.StatusServiceUnavailable, Message: "Service unavailable", Err: err,
		RetryAfter: RetryAfterUnavailable * time.Second, level: slog.LevelError}
	if errors.Is(err, store.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		e.level = slog.LevelWarn
	}
	return e
}

// ClientGone records a request whose client left before its answer was ready.
func ClientGone(err error) *HTTPError {
	return &HTTPError{Status: StatusClientClosed, Message: "Client closed request", Err: err, level: slog.LevelDebug}
}

// RateLimited is the 429 of a key over its limit, in the public service's body shape.
func RateLimited(limit int, retryAfter time.Duration) *HTTPError {
	return &HTTPError{Status: http.StatusTooManyRequests, RetryAfter: retryAfter, limit: limit,
		Message: "Rate limit exceeded. Please keep below " + strconv.Itoa(limit) + " requests per 1 minute."}
}

// TooManyKeyFailures is the 429 of an address that sent too many unknown keys.
func TooManyKeyFailures(retryAfter time.Duration) *HTTPError {
	return &HTTPError{Status: http.StatusTooManyRequests, Message: "Too many invalid API keys from this address",
		RetryAfter: retryAfter}
}

// Classify returns err as an *HTTPError: itself when it is one, else a request cancelled by its
// client becomes ClientGone and anything else Internal.
func Classify(err error) *HTTPError {
	var e *HTTPError
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.Canceled):
		return ClientGone(err)
	default:
		return Internal(err)
	}
}

// Write is the one place error answers are written: it logs err's cause (with the request's
// route, never its path) at its level through log, and sends the status and the safe body.
func Write(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	e := Classify(err)
	if e.Err != nil && log != nil {
		msg := "request failed"
		if e.Status == StatusClientClosed {
			msg = "client left before the answer"
		}
		log.LogAttrs(r.Context(), e.level, msg, slog.String("route", RouteOf(r)),
			slog.Int("status", e.Status), slog.String("err", e.Err.Error()))
	}
	e.write(w)
}

func (e *HTTPError) write(w http.ResponseWriter) {
	if e.RetryAfter > 0 || e.limit > 0 {
		// Rounded up, so a client that waits the advertised seconds is never early, and at
		// least 1: a client is never told to retry at once.
		secs := max(int((e.RetryAfter+time.Second-1)/time.Second), 1)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	if e.limit > 0 {
		body := record.AppendString([]byte(`{"message":`), e.Message)
		writeBody(w, e.Status, append(body, `,"error":429}`...))
		return
	}
	if len(e.problems) > 0 {
		writeBody(w, e.Status, e.problemsBody())
		return
	}
	writeBody(w, e.Status, MessageBody(e.Message))
}

func (e *HTTPError) problemsBody() []byte {
	body := MessageBody(e.Message)
	body = append(body[:len(body)-1], `,"errors":[`...)
	for i, p := range e.problems {
		if i > 0 {
			body = append(body, ',')
		}
		body = record.AppendString(append(body, `{"field":`...), p.Field)
		body = record.AppendString(append(body, `,"problem":`...), p.Problem)
		body = append(body, '}')
	}
	return append(body, "]}"...)
}
