package integration

import (
	"io"
	"net"
	"sync"
	"testing"
)

// proxy forwards TCP connections to a service, and can cut them: refuse closes every open
// connection and every new one at once (a stopped service), stall accepts new ones and never
// answers (a hung one). The listening address stays the same throughout.
type proxy struct {
	addr   string
	target string
	ln     net.Listener

	mu    sync.Mutex
	mode  proxyMode
	conns map[net.Conn]bool
}

type proxyMode int

const (
	forward proxyMode = iota
	refuse
	stall
)

func startProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy listen: %v", err)
	}
	p := &proxy{addr: ln.Addr().String(), target: target, ln: ln, conns: map[net.Conn]bool{}}
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.set(refuse)
	})
	return p
}

func (p *proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		mode := p.mode
		if mode != refuse {
			p.conns[c] = true
		}
		p.mu.Unlock()
		switch mode {
		case refuse:
			c.Close()
		case forward:
			go p.pipe(c)
		}
		// stall: the connection stays open and silent until the mode changes.
	}
}

func (p *proxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		p.drop(c)
		return
	}
	if !p.track(up) {
		up.Close()
		p.drop(c)
		return
	}
	go func() {
		_, _ = io.Copy(up, c)
		p.drop(up)
	}()
	_, _ = io.Copy(c, up)
	p.drop(c)
}

// track registers an upstream connection unless the proxy was cut meanwhile.
func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != forward {
		return false
	}
	p.conns[c] = true
	return true
}

func (p *proxy) drop(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// set switches the mode; leaving forward (or stall) closes every open connection.
func (p *proxy) set(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != m {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
	p.mode = m
}
