package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
)

// proxy forwards TCP to the test server and can play a dead one: down refuses connections
// and cuts the open ones, stall accepts and then never answers.
type proxy struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
	stall  bool
}

func startProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, addr: ln.Addr().String(), target: target}
	p.serve(ln)
	t.Cleanup(p.down)
	return p
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, c)
			stall := p.stall
			p.mu.Unlock()
			if stall {
				continue // holds the connection open and silent
			}
			go p.pipe(c)
		}
	}()
}

func (p *proxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, up)
	p.mu.Unlock()
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
}

// down closes the listener and every connection.
func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// up listens again on the same address, forwarding or (stall) silent.
func (p *proxy) up(stall bool) {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("proxy listen again: %v", err)
	}
	p.mu.Lock()
	p.stall = stall
	p.mu.Unlock()
	p.serve(ln)
}

// through points dsn at the proxy.
func through(t *testing.T, dsn, addr string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		t.Skip("the unavailability test needs SPORTSDB_TEST_POSTGRES as a postgres:// URL")
	}
	u.Host = addr
	return u.String()
}

func targetOf(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Skip("the unavailability test needs SPORTSDB_TEST_POSTGRES as a postgres:// URL with a host")
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "5432")
	}
	return u.Host
}

// A dead or hung server gives ErrUnavailable, not a hang; the store works again, without
// being reopened, once the server is back.
func TestUnavailableAndRecovery(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	p := startProxy(t, targetOf(t, dsn))
	ctx := context.Background()
	s, err := Open(ctx, through(t, dsn, p.addr))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Count(ctx, record.Team); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}

	p.down()
	assertUnavailable(t, "refused", func() error { _, err := s.Count(ctx, record.Team); return err })
	assertUnavailable(t, "refused write", func() error {
		return s.Write(ctx, func(store.Tx) error { return nil })
	})

	p.up(true)
	assertUnavailable(t, "silent", func() error { _, err := s.Get(ctx, record.Team, "1"); return err })
	p.down()

	p.up(false)
	var last error
	for range 20 {
		if _, last = s.Count(ctx, record.Team); last == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if last != nil {
		t.Fatalf("store did not recover once the server was back: %v", last)
	}
	if err := s.Write(ctx, func(tx store.Tx) error {
		r := record.Team.NewRecord()
		r.Set("idTeam", record.Str("1"))
		return tx.Upsert(ctx, r)
	}); err != nil {
		t.Fatalf("write after recovery: %v", err)
	}
}

// assertUnavailable runs fn and wants ErrUnavailable. The elapsed time is logged, not
// asserted; a generous watchdog only catches a hang.
func assertUnavailable(t *testing.T, what string, fn func() error) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s: got %v, want ErrUnavailable", what, err)
		}
		t.Logf("%s: ErrUnavailable after %v", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no answer after 30s", what)
	}
}
