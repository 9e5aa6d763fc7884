package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"

	"github.com/redis/rueidis"

	"sportsdb/internal/testsupport"
)

// testRedisURL returns SPORTSDB_TEST_REDIS; without it the test is skipped, or fails under CI.
func testRedisURL(t testing.TB) string {
	t.Helper()
	return testsupport.Env(t, "SPORTSDB_TEST_REDIS")
}

// testPrefix returns a key prefix of this run alone and deletes its keys when the test ends.
func testPrefix(t testing.TB, redisURL string) string {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	prefix := "sportsdb-test:" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		opt, err := rueidis.ParseURL(redisURL)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		opt.DisableCache = true
		c, err := rueidis.NewClient(opt)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		defer c.Close()
		ctx := context.Background()
		var cursor uint64
		for {
			e, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match(prefix+"*").Count(1000).Build()).AsScanEntry()
			if err != nil {
				t.Errorf("cleanup scan: %v", err)
				return
			}
			if len(e.Elements) > 0 {
				if err := c.Do(ctx, c.B().Del().Key(e.Elements...).Build()).Error(); err != nil {
					t.Errorf("cleanup del: %v", err)
				}
			}
			if cursor = e.Cursor; cursor == 0 {
				return
			}
		}
	})
	return prefix
}

// proxy is a TCP relay to Redis that a test can cut (closing every connection and refusing
// new ones) and restore on the same address.
type proxy struct {
	t        testing.TB
	addr     string
	upstream string
	mu       sync.Mutex
	ln       net.Listener
	conns    map[net.Conn]struct{}
}

func newProxy(t testing.TB, redisURL string) *proxy {
	t.Helper()
	u, err := url.Parse(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, upstream: u.Host, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

// url is redisURL with the host replaced by the proxy's address.
func (p *proxy) url(redisURL string) string {
	u, _ := url.Parse(redisURL)
	u.Host = p.addr
	return u.String()
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
			up, err := net.Dial("tcp", p.upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go relay(c, up)
			go relay(up, c)
		}
	}()
}

func relay(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *proxy) restore() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("restore proxy on %s: %v", p.addr, err)
	}
	p.serve(ln)
}
