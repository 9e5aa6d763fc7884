package server_test

import (
	"net"
	"slices"
	"sync"
	"time"

	"sportsdb/internal/clock"
)

// clockedListener hands out connections whose deadlines follow a manual clock instead of the
// wall clock: a deadline net/http sets d from now passes once the test has moved the clock d
// on, however long the machine took meanwhile. Tests of the server's timeouts then decide
// when they pass, rather than sleeping past them and hoping the rest was quick enough.
type clockedListener struct {
	net.Listener
	clock *clock.Manual

	mu    sync.Mutex
	conns []*clockedConn
}

func newClockedListener(ln net.Listener) *clockedListener {
	return &clockedListener{Listener: ln, clock: clock.NewManual(time.Now())}
}

func (l *clockedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &clockedConn{Conn: c, clock: l.clock}
	l.mu.Lock()
	l.conns = append(l.conns, cc)
	l.mu.Unlock()
	return cc, nil
}

// advance moves the clock on by d, and every deadline it passes takes effect at once.
func (l *clockedListener) advance(d time.Duration) {
	l.clock.Advance(d)
	l.mu.Lock()
	conns := slices.Clone(l.conns)
	l.mu.Unlock()
	for _, c := range conns {
		c.expire()
	}
}

// clockedConn keeps its deadlines on the manual clock and arms the real connection with one
// only once it has passed there: a past deadline, which fails every read or write at once.
type clockedConn struct {
	net.Conn
	clock *clock.Manual

	mu          sync.Mutex
	read, write time.Time // on the manual clock; zero: none
}

// passed is a deadline long gone, as net/http itself uses to interrupt a read.
var passed = time.Unix(1, 0)

func (c *clockedConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

func (c *clockedConn) SetReadDeadline(t time.Time) error {
	return c.set(&c.read, t, c.Conn.SetReadDeadline)
}

func (c *clockedConn) SetWriteDeadline(t time.Time) error {
	return c.set(&c.write, t, c.Conn.SetWriteDeadline)
}

// set records a deadline given on the wall clock as the same distance from now on the
// manual clock.
func (c *clockedConn) set(at *time.Time, t time.Time, arm func(time.Time) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	*at = time.Time{}
	if !t.IsZero() {
		*at = c.clock.Now().Add(time.Until(t))
	}
	return arm(c.real(*at))
}

// real is the deadline of the real connection for one on the manual clock.
func (c *clockedConn) real(at time.Time) time.Time {
	if at.IsZero() || c.clock.Now().Before(at) {
		return time.Time{}
	}
	return passed
}

func (c *clockedConn) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.Conn.SetReadDeadline(c.real(c.read))
	_ = c.Conn.SetWriteDeadline(c.real(c.write))
}
