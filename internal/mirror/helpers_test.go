package mirror

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
)

// fakeClock moves only when slept on, so waits of minutes take no time and every wait is
// seen by the test.
type fakeClock struct {
	*clock.Manual
	mu     sync.Mutex
	sleeps []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{Manual: clock.NewManual(apitest.FixtureNow)} }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	c.Advance(d)
	return nil
}

// fault is what the proxy does to one request instead of passing it on.
type fault int

const (
	pass fault = iota
	tooMany
	serverError
	slow
	truncate
	reset
	withMessage
)

// hit is one request the proxy saw.
type hit struct {
	at     time.Time
	url    string // the frontier form: v1/file?query or v2/path
	status int    // what the client was answered; 0 for a reset connection
	fault  fault
}

// proxy stands between the mirror and the upstream on 127.0.0.1, injecting faults.
type proxy struct {
	t        testing.TB
	upstream http.Handler
	clock    interface{ Now() time.Time }
	key      string
	srv      *httptest.Server
	// faults picks the fault of the n-th request (from 0).
	faults func(n int, url string) fault
	// retryAfter is the Retry-After of injected 429s, in seconds.
	retryAfter int
	// arrive, if set, runs as the n-th request (from 0) comes in, before it is logged: a
	// test's fake clock moved there makes a request arrive later than it was sent.
	arrive func(n int)

	mu   sync.Mutex
	hits []hit
}

func newProxy(t testing.TB, upstream http.Handler, clk interface{ Now() time.Time }, key string) *proxy {
	p := &proxy{t: t, upstream: upstream, clock: clk, key: key, retryAfter: 7,
		faults: func(int, string) fault { return pass }}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *proxy) frontierURL(r *http.Request) string {
	path := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(path, "/api/v1/json/"+p.key+"/"); ok {
		u := "v1/" + rest
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery
		}
		return u
	}
	if rest, ok := strings.CutPrefix(path, "/api/v2/json/"); ok {
		return "v2/" + rest
	}
	return path
}

func (p *proxy) serve(w http.ResponseWriter, r *http.Request) {
	u := p.frontierURL(r)
	p.mu.Lock()
	n := len(p.hits)
	if p.arrive != nil {
		p.arrive(n)
	}
	f := p.faults(n, u)
	p.hits = append(p.hits, hit{at: p.clock.Now(), url: u, fault: f})
	p.mu.Unlock()
	status := p.answer(w, r, f)
	p.mu.Lock()
	p.hits[n].status = status
	p.mu.Unlock()
}

func (p *proxy) answer(w http.ResponseWriter, r *http.Request, f fault) int {
	switch f {
	case tooMany:
		w.Header().Set("Retry-After", strconv.Itoa(p.retryAfter))
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"message":"Rate limit exceeded. Please keep below 100 requests per 1 minute.","error":429}`))
		return http.StatusTooManyRequests
	case serverError:
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("<html>oops</html>"))
		return http.StatusInternalServerError
	case withMessage:
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"events":"Server busy, try again later"}`))
		return http.StatusOK
	case reset:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			p.t.Errorf("hijack: %v", err)
			return 0
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // an RST, not a FIN
		}
		conn.Close()
		return 0
	}
	rec := httptest.NewRecorder()
	p.upstream.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	switch f {
	case slow:
		time.Sleep(20 * time.Millisecond)
	case truncate:
		// The whole length announced, half of it sent: the client sees the body cut short.
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		w.Write(body[:len(body)/2])
		return rec.Code
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
	return rec.Code
}

func (p *proxy) log() []hit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]hit(nil), p.hits...)
}
