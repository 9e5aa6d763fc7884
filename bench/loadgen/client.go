package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// conn is one keep-alive HTTP/1.1 connection that sends prepared requests and reads only
// what it must of the answers. net/http's client costs several times more CPU per request
// than nginx spends answering one, and client and server share the same two cores here, so
// a heavier client would flatten every ratio toward 1.
type conn struct {
	addr    string
	timeout time.Duration
	c       net.Conn
	br      *bufio.Reader
}

func newConn(addr string, timeout time.Duration) *conn {
	return &conn{addr: addr, timeout: timeout}
}

// request is one prepared GET: the bytes on the wire.
type request []byte

func buildRequest(host, target, apiKey string) request {
	var b bytes.Buffer
	b.WriteString("GET ")
	b.WriteString(target)
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(host)
	b.WriteString("\r\nUser-Agent: sportsdb-loadgen\r\nAccept: */*\r\n")
	if apiKey != "" {
		b.WriteString("X-API-KEY: ")
		b.WriteString(apiKey)
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// do sends req and reads its answer, reconnecting when the server closed the connection.
// It returns the status code and the body size.
func (c *conn) do(req request) (int, int, error) {
	if c.c == nil {
		nc, err := net.DialTimeout("tcp", c.addr, c.timeout)
		if err != nil {
			return 0, 0, fmt.Errorf("dial %s: %w", c.addr, err)
		}
		c.c = nc
		if c.br == nil {
			c.br = bufio.NewReaderSize(nc, 64<<10)
		} else {
			c.br.Reset(nc)
		}
	}
	if c.timeout > 0 {
		_ = c.c.SetDeadline(time.Now().Add(c.timeout))
	}
	if _, err := c.c.Write(req); err != nil {
		c.close()
		return 0, 0, fmt.Errorf("write: %w", err)
	}
	status, n, keep, err := readResponse(c.br)
	if err != nil || !keep {
		c.close()
	}
	return status, n, err
}

func (c *conn) close() {
	if c.c != nil {
		_ = c.c.Close()
		c.c = nil
	}
}

var errMalformed = errors.New("malformed HTTP response")

// readResponse reads one answer to a GET and discards its body. keep reports whether the
// connection can carry another request.
func readResponse(br *bufio.Reader) (status, n int, keep bool, err error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, 0, false, fmt.Errorf("status line: %w", err)
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, 0, false, fmt.Errorf("%w: status line %q", errMalformed, trimLine(line))
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, 0, false, fmt.Errorf("%w: status line %q", errMalformed, trimLine(line))
	}
	keep = line[7] == '1' // HTTP/1.1 keeps the connection unless told otherwise
	length, chunked := -1, false
	for {
		h, err := br.ReadSlice('\n')
		if err != nil {
			return status, 0, false, fmt.Errorf("headers: %w", err)
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return status, 0, false, fmt.Errorf("%w: header %q", errMalformed, h)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			length, err = strconv.Atoi(string(value))
			if err != nil || length < 0 {
				return status, 0, false, fmt.Errorf("%w: Content-Length %q", errMalformed, value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				keep = false
			} else if bytes.EqualFold(value, []byte("keep-alive")) {
				keep = true
			}
		}
	}
	switch {
	case status == 204 || status == 304 || status < 200:
		return status, 0, keep, nil
	case chunked:
		n, err = discardChunked(br)
		return status, n, keep && err == nil, err
	case length >= 0:
		n, err = br.Discard(length)
		if err != nil {
			return status, n, false, fmt.Errorf("body: %w", err)
		}
		return status, n, keep, nil
	}
	// Neither length nor chunks: the body runs to the end of the connection.
	m, err := io.Copy(io.Discard, br)
	return status, int(m), false, err
}

func discardChunked(br *bufio.Reader) (int, error) {
	total := 0
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return total, fmt.Errorf("chunk size: %w", err)
		}
		sizeText, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		size, err := strconv.ParseInt(string(bytes.TrimSpace(sizeText)), 16, 64)
		if err != nil || size < 0 {
			return total, fmt.Errorf("%w: chunk size %q", errMalformed, trimLine(line))
		}
		if size == 0 {
			for { // trailers, up to the blank line
				t, err := br.ReadSlice('\n')
				if err != nil {
					return total, fmt.Errorf("trailer: %w", err)
				}
				if len(bytes.TrimRight(t, "\r\n")) == 0 {
					return total, nil
				}
			}
		}
		d, err := br.Discard(int(size))
		total += d
		if err != nil {
			return total, fmt.Errorf("chunk: %w", err)
		}
		if _, err := br.Discard(2); err != nil {
			return total, fmt.Errorf("chunk end: %w", err)
		}
	}
}

func trimLine(b []byte) string {
	s := string(bytes.TrimRight(b, "\r\n"))
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
