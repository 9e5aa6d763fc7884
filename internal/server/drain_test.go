package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/server"
)

// keepAlive is a client connection that sends requests one after another, as written.
type keepAlive struct {
	c  net.Conn
	br *bufio.Reader
}

func dialKeepAlive(t *testing.T, addr string) *keepAlive {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return &keepAlive{c: c, br: bufio.NewReader(c)}
}

func (k *keepAlive) send(path string) error {
	_, err := io.WriteString(k.c, "GET "+path+" HTTP/1.1\r\nHost: t\r\n\r\n")
	return err
}

func (k *keepAlive) read() (*http.Response, string, error) {
	resp, err := http.ReadResponse(k.br, nil)
	if err != nil {
		return nil, "", err
	}
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// On SIGTERM (the context's end) the server drains: a request sent on an idle keep-alive
// connection once the drain has begun gets its whole answer, with Connection:
// close; /readyz says 503 at once; after the drain period the server stops by itself. The
// drain period's timer is the test's: the period ends when the requests have been answered,
// however long the machine took over them.
func TestServeUntilDrainsBeforeShuttingDown(t *testing.T) {
	const path, drain = "/api/v1/json/123/all_sports.php", 30 * time.Second
	c := newConfigured(t, nil)
	periods, over := make(chan time.Duration, 1), make(chan time.Time)
	c.srv.SetDrainTimer(func(d time.Duration) <-chan time.Time {
		periods <- d
		return over
	})
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := inner.Addr().String()
	hs := &http.Server{Handler: c.srv, ConnContext: server.ConnContext, ReadHeaderTimeout: 5 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- server.ServeUntil(ctx, hs, server.Listener(inner), c.srv, drain) }()

	// Idle keep-alive connections, each having had one answer.
	var conns []*keepAlive
	for range 4 {
		k := dialKeepAlive(t, addr)
		if err := k.send(path); err != nil {
			t.Fatal(err)
		}
		if resp, _, err := k.read(); err != nil || resp.StatusCode != 200 || resp.Close {
			t.Fatalf("before the drain: %v %v", resp, err)
		}
		conns = append(conns, k)
	}
	cancel()
	// The drain begins when ServeUntil sees the cancellation: wait for that event (the
	// server says it is draining), not for a time.
	for c.get("/readyz", "192.0.2.1:1").Code != http.StatusServiceUnavailable {
		runtime.Gosched()
	}
	for i, k := range conns {
		if err := k.send(path); err != nil {
			t.Fatalf("connection %d: send: %v", i, err)
		}
		resp, body, err := k.read()
		if err != nil {
			t.Fatalf("connection %d, sent while draining: %v", i, err)
		}
		if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"sports":`) || !resp.Close {
			t.Errorf("connection %d: %d close=%v %.50s, want 200 with Connection: close", i, resp.StatusCode, resp.Close, body)
		}
	}
	ready := dialKeepAlive(t, addr)
	_ = ready.send("/readyz")
	if resp, body, err := ready.read(); err != nil || resp.StatusCode != 503 || !strings.Contains(body, `"status":"draining"`) {
		t.Errorf("/readyz while draining: %v %q %v, want 503 draining", resp, body, err)
	}
	select {
	case err := <-served:
		t.Fatalf("ServeUntil returned before the drain period was over: %v", err)
	default:
	}
	select {
	case d := <-periods:
		if d != drain {
			t.Errorf("drain period %v, want %v", d, drain)
		}
	case <-time.After(wait):
		t.Fatal("the drain period never began")
	}
	close(over)
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("ServeUntil: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("the server did not stop after its drain period")
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("still accepting connections after the shutdown")
	}
}

// A server that fails to serve says so at once.
func TestServeUntilReportsServeErrors(t *testing.T) {
	c := newConfigured(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	err = server.ServeUntil(context.Background(), &http.Server{Handler: c.srv}, ln, c.srv, time.Second)
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("serving on a closed listener: %v", err)
	}
}
