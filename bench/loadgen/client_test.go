package main

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name       string
		raw        string
		status, n  int
		keep       bool
		wantErr    error
		restBefore string // what must remain unread: the next answer on the connection
	}{
		{name: "content length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloNEXT", status: 200, n: 5, keep: true, restBefore: "NEXT"},
		{name: "chunked with trailer", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nX-T: 1\r\n\r\nNEXT",
			status: 200, n: 5, keep: true, restBefore: "NEXT"},
		{name: "not modified has no body", raw: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 99\r\n\r\nNEXT", status: 304, keep: true, restBefore: "NEXT"},
		{name: "close", raw: "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", status: 404, n: 2, keep: false},
		{name: "HTTP/1.0 without length reads to the end", raw: "HTTP/1.0 200 OK\r\n\r\nall of it", status: 200, n: 9, keep: false},
		{name: "garbage", raw: "SSH-2.0-OpenSSH\r\n", wantErr: errMalformed},
		{name: "bad length", raw: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", status: 200, wantErr: errMalformed},
		{name: "bad chunk", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 200, wantErr: errMalformed},
		{name: "truncated body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", status: 200, n: 3, wantErr: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReader(strings.NewReader(tt.raw))
			status, n, keep, err := readResponse(br)
			if tt.wantErr != nil {
				if err == nil || (tt.wantErr != errAny && !errors.Is(err, tt.wantErr)) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.status || n != tt.n || keep != tt.keep {
				t.Errorf("got status %d, %d bytes, keep %v; want %d, %d, %v", status, n, keep, tt.status, tt.n, tt.keep)
			}
			rest := make([]byte, 64)
			m, _ := br.Read(rest)
			if string(rest[:m]) != tt.restBefore {
				t.Errorf("left unread %q, want %q", rest[:m], tt.restBefore)
			}
		})
	}
}

var errAny = errors.New("any error")

// A real net/http server: keep-alive across requests, a large chunked body, a header key.
func TestConnAgainstServer(t *testing.T) {
	big := strings.Repeat("x", 200_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.(http.Flusher).Flush() // forces chunked encoding
			fmt.Fprint(w, big)
		case "/key":
			if r.Header.Get("X-API-KEY") != "secret" {
				http.Error(w, "no key", http.StatusBadRequest)
				return
			}
			fmt.Fprint(w, r.URL.RawQuery)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	c := newConn(addr, 5*time.Second)
	defer c.close()
	for i := range 3 {
		status, n, err := c.do(buildRequest(addr, "/big", ""))
		if err != nil || status != 200 || n != len(big) {
			t.Fatalf("round %d: status %d, %d bytes, err %v; want 200, %d bytes", i, status, n, err, len(big))
		}
		status, n, err = c.do(buildRequest(addr, "/key?a=b", "secret"))
		if err != nil || status != 200 || n != 3 {
			t.Fatalf("round %d: keyed request: status %d, %d bytes, err %v", i, status, n, err)
		}
	}
	if status, _, err := c.do(buildRequest(addr, "/key", "")); err != nil || status != 400 {
		t.Fatalf("without the key: status %d, err %v; want 400", status, err)
	}
}

func TestConnRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Close()
	c := newConn(addr, time.Second)
	if _, _, err := c.do(buildRequest(addr, "/", "")); err == nil {
		t.Fatal("a closed port answered")
	}
}
