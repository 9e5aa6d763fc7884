package respcache

import (
	"bytes"
	"net/http"
)

// bufferWriter collects an answer so it can be cached before it is sent.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

// TakeBody keeps a complete body without copying it (respond.BodyTaker); a later Write
// appends to it.
func (b *bufferWriter) TakeBody(body []byte) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	if b.body.Len() == 0 {
		b.body = *bytes.NewBuffer(body)
		return
	}
	b.body.Write(body)
}

func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// NewRecorder is a recorder for an answer computed before it is sent (read-through answers
// from the store first, and asks the upstream only when that answer is empty).
func NewRecorder() *Recorder { return &bufferWriter{header: http.Header{}} }

// Recorder collects an answer.
type Recorder = bufferWriter

// Status is the answer's status (200 once anything was written without one).
func (b *bufferWriter) Status() int {
	if b.status == 0 && b.body.Len() > 0 {
		return http.StatusOK
	}
	return b.status
}

// Bytes is the answer's body.
func (b *bufferWriter) Bytes() []byte { return b.body.Bytes() }

// Replay sends the recorded answer.
func (b *bufferWriter) Replay(w http.ResponseWriter) {
	copyHeader(w.Header(), b.header)
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}

func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}
