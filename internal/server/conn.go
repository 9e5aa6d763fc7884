package server

import (
	"bytes"
	"context"
	"io"
	"net"
	"sync"
	"time"
)

// net/http writes an answer through a 4 KiB connection buffer: the headers and a body of
// more than about 3.6 KB leave in two write system calls, and the client is woken twice.
// Most searches and many other answers are 4-16 KB. An answerConn lets the response cache
// hold the bytes of one answer whose length it knows and send them in one write: the cache
// calls HoldAnswer before it writes the answer, and the connection sends what it holds once
// the headers and that many body bytes have come. If fewer come (an answer cut short),
// what is held leaves at the next change of the write deadline, which net/http makes after
// every answer, or before a sendfile, a half-close or a close.

// Listener returns ln with each connection it accepts wrapped so that the response
// cache can send an answer in one write. Serve with ConnContext set as the server's
// ConnContext.
func Listener(ln net.Listener) net.Listener { return answerListener{ln} }

// ConnContext puts an accepted connection where the response cache finds it; it is meant
// for http.Server.ConnContext.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if ac, ok := c.(*answerConn); ok {
		return context.WithValue(ctx, answerConnKey{}, ac)
	}
	return ctx
}

type answerConnKey struct{}

type answerListener struct{ net.Listener }

func (l answerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &answerConn{Conn: c}, nil
}

// maxHeld is the most an answerConn holds; more is sent as it comes.
const maxHeld = 256 << 10

var heldBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// answerConn is a connection that can hold the bytes of one answer. Only the goroutine
// serving the connection writes to it, and only that goroutine holds.
type answerConn struct {
	net.Conn
	held *[]byte // nil when not holding
	// body is the number of body bytes that complete the answer held; headerEnd is the
	// offset of the body in held, or -1 until the end of the headers has come.
	body, headerEnd int
}

// HoldAnswer makes the connection of a request's ctx hold what is written until the headers
// and body bytes of body have come, then send it in one write. It does nothing for a
// request whose connection is not an answerConn. The response cache and the image tree
// call it before an answer whose length they know.
func HoldAnswer(ctx context.Context, body int) {
	c, ok := ctx.Value(answerConnKey{}).(*answerConn)
	if !ok || c.held != nil {
		return
	}
	c.held = heldBufs.Get().(*[]byte)
	c.body, c.headerEnd = body, -1
}

func (c *answerConn) Write(p []byte) (int, error) {
	if c.held == nil {
		if j, ok := asJSONError(p); ok {
			if _, err := c.Conn.Write(j); err != nil {
				return 0, err
			}
			return len(p), nil
		}
		return c.Conn.Write(p)
	}
	b := *c.held
	from := max(len(b)-3, 0)
	b = append(b, p...)
	*c.held = b
	if c.headerEnd < 0 {
		if i := bytes.Index(b[from:], headerEnd); i >= 0 {
			c.headerEnd = from + i + len(headerEnd)
		}
	}
	if (c.headerEnd >= 0 && len(b)-c.headerEnd >= c.body) || len(b) >= maxHeld {
		return len(p), c.flush()
	}
	return len(p), nil
}

var headerEnd = []byte("\r\n\r\n")

// flush sends what is held and stops holding.
func (c *answerConn) flush() error {
	if c.held == nil {
		return nil
	}
	bp := c.held
	c.held = nil
	_, err := c.Conn.Write(*bp)
	if cap(*bp) <= 64<<10 {
		*bp = (*bp)[:0]
		heldBufs.Put(bp)
	}
	return err
}

func (c *answerConn) SetWriteDeadline(t time.Time) error {
	if err := c.flush(); err != nil {
		return err
	}
	return c.Conn.SetWriteDeadline(t)
}

func (c *answerConn) SetDeadline(t time.Time) error {
	if err := c.flush(); err != nil {
		return err
	}
	return c.Conn.SetDeadline(t)
}

// ReadFrom keeps sendfile: net/http sends a file through the connection's ReadFrom.
func (c *answerConn) ReadFrom(r io.Reader) (int64, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// WriteBuffers sends v on the connection beneath, in one system call where it can: a stream
// writes the events it shares with other streams without copying them (internal/live).
func (c *answerConn) WriteBuffers(v *net.Buffers) (int64, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	if _, ok := c.Conn.(*net.TCPConn); ok {
		return v.WriteTo(c.Conn) // one writev
	}
	// Without writev (TLS, a wrapped connection) the buffers go in one write: one TLS record
	// rather than one a buffer, and a stream's chunk is not cut between its parts by a
	// deadline, which would leave the client a malformed answer.
	bp := heldBufs.Get().(*[]byte)
	b := (*bp)[:0]
	for _, p := range *v {
		b = append(b, p...)
	}
	*v = nil
	n, err := c.Conn.Write(b)
	if cap(b) <= 64<<10 {
		*bp = b[:0]
		heldBufs.Put(bp)
	}
	return int64(n), err
}

// CloseWrite keeps the half-close net/http makes before closing a connection.
func (c *answerConn) CloseWrite() error {
	if err := c.flush(); err != nil {
		return err
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Close does not send what is held: a server closing its connections may do so while an
// answer is being written, from another goroutine.
func (c *answerConn) Close() error { return c.Conn.Close() }
