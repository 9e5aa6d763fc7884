package main

import (
	"fmt"
	"net"
	"sync"
)

// proxyMode is what the proxy does with traffic.
type proxyMode int

const (
	pass proxyMode = iota // forward both ways
	hang                  // keep connections open, forward nothing: a server that stopped answering
	cut                   // close every connection and refuse new ones: a server that went away
)

// proxy is a TCP proxy on 127.0.0.1 in front of PostgreSQL or Redis, so a check can make the
// server hang, go away and come back while sportsdb runs.
type proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	mode    proxyMode
	resumed chan struct{} // closed when a hang ends
	conns   map[net.Conn]struct{}
}

func newProxy(target string) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("proxy listen: %w", err)
	}
	p := &proxy{ln: ln, target: target, resumed: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	go p.accept()
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) close() {
	p.ln.Close()
	p.set(cut)
}

// set changes the mode: cut closes every open connection, leaving a hang lets held
// traffic flow again.
func (p *proxy) set(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == hang && m != hang {
		close(p.resumed)
		p.resumed = make(chan struct{})
	}
	p.mode = m
	if m == cut {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

// gate blocks while the proxy hangs and reports whether traffic may flow.
func (p *proxy) gate() bool {
	for {
		p.mu.Lock()
		mode, resumed := p.mode, p.resumed
		p.mu.Unlock()
		switch mode {
		case pass:
			return true
		case cut:
			return false
		}
		<-resumed
	}
}

func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == cut {
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.serve(c)
	}
}

func (p *proxy) serve(c net.Conn) {
	if !p.gate() {
		c.Close()
		return
	}
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		c.Close()
		up.Close()
		return
	}
	go p.pipe(up, c)
	p.pipe(c, up)
}

// pipe copies src to dst, holding each chunk while the proxy hangs.
func (p *proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.gate() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
