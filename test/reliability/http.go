package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// sent counts every request the suite sends, for the figures.
var sent atomic.Int64

// answer is one HTTP answer as the suite sees it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// rawExchange sends bytes exactly as given on a new connection and reads one answer. It is
// how hostile requests are sent: a client library would clean, escape or refuse them.
func rawExchange(addr string, req []byte, timeout time.Duration) (answer, error) {
	sent.Add(1)
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return answer{}, fmt.Errorf("dial: %w", err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := conn.Write(req); err != nil && !isReset(err) {
		return answer{}, fmt.Errorf("write: %w", err)
	}
	br := bufio.NewReader(conn)
	if _, err := br.Peek(1); err != nil {
		return answer{}, fmt.Errorf("no answer: %w", err)
	}
	var sentReq *http.Request // a HEAD answer has no body, whatever its Content-Length
	if bytes.HasPrefix(req, []byte("HEAD ")) {
		sentReq = &http.Request{Method: http.MethodHead}
	}
	resp, err := http.ReadResponse(br, sentReq)
	if err != nil {
		return answer{}, fmt.Errorf("read answer: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil && !isReset(err) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return answer{}, fmt.Errorf("read body: %w", err)
	}
	if resp.Header.Get("Content-Encoding") == "gzip" && len(body) > 0 {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return answer{}, fmt.Errorf("gzip body: %w", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			return answer{}, fmt.Errorf("gzip body: %w", err)
		}
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// get sends one GET with an optional X-API-KEY through a normal client.
func get(ctx context.Context, hc *http.Client, url, key string, hdr ...string) (answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return answer{}, fmt.Errorf("request %s: %w", url, err)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	sent.Add(1)
	resp, err := hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, fmt.Errorf("read body: %w", err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

func newClient(timeout time.Duration) *http.Client {
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: 30 * time.Second,
		DisableCompression: true}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// leaks are what no answer may ever hold: an HTML page, a Go stack, a panic, SQL text.
var leaks = []string{"<html", "<!doctype", "<body", "goroutine ", "panic", ".go:", "runtime/", "sqlite", "pq:", "syntax error", "SQLSTATE"}

// problem says what is wrong with an answer, "" when nothing: never a 5xx (unless allowed),
// never HTML or a stack, every error body JSON in the documented shape.
func (a answer) problem(allow5xx ...int) string {
	if a.status >= 500 && !contains(allow5xx, a.status) {
		return fmt.Sprintf("status %d: %s", a.status, clipText(string(a.body), 200))
	}
	low := strings.ToLower(string(a.body))
	for _, l := range leaks {
		if strings.Contains(low, strings.ToLower(l)) && a.status >= 400 {
			return fmt.Sprintf("status %d body holds %q: %s", a.status, l, clipText(string(a.body), 200))
		}
	}
	if a.status >= 400 {
		return errorShape(a)
	}
	if len(a.body) > 0 && !json.Valid(a.body) && !strings.HasPrefix(a.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		return fmt.Sprintf("status %d body is not JSON: %s", a.status, clipText(string(a.body), 200))
	}
	return ""
}

// errorShape checks an error body against docs/CONTRACT.md sections 3 and 4: {"Message":"..."}, or
// the public service's 429 body {"message":"...","error":429}, with a JSON content type.
func errorShape(a answer) string {
	if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Sprintf("status %d with Content-Type %q: %s", a.status, ct, clipText(string(a.body), 200))
	}
	var m map[string]any
	if err := json.Unmarshal(a.body, &m); err != nil {
		return fmt.Sprintf("status %d body is not a JSON object: %s", a.status, clipText(string(a.body), 200))
	}
	if msg, ok := m["Message"].(string); ok && msg != "" && len(m) == 1 {
		return ""
	}
	if msg, ok := m["message"].(string); ok && msg != "" && m["error"] == float64(429) && a.status == 429 && len(m) == 2 {
		return ""
	}
	return fmt.Sprintf("status %d body is not the documented error shape: %s", a.status, clipText(string(a.body), 200))
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// isReset reports a connection the peer reset or closed under a request.
func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// errKind sorts a failed request into the kinds the figures count.
func errKind(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case isReset(err):
		return "reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "eof"
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "other"
}

// request builds a raw HTTP/1.1 GET with extra header lines.
func request(target string, headers ...string) []byte {
	var b bytes.Buffer
	b.WriteString("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("Connection: close\r\n\r\n")
	return b.Bytes()
}
