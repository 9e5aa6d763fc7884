package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/respcache"
	"sportsdb/internal/store"
)

// countingListener counts the writes made to the connections it accepts.
type countingListener struct {
	net.Listener
	mu     sync.Mutex
	writes []int // sizes, in order
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, l: l}, nil
}

func (l *countingListener) sizes() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.writes...)
}

type countingConn struct {
	net.Conn
	l *countingListener
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.l.mu.Lock()
	c.l.writes = append(c.l.writes, len(p))
	c.l.mu.Unlock()
	return c.Conn.Write(p)
}

// serveCounted serves h through Listener and ConnContext over a loopback listener whose
// writes are counted.
func serveCounted(t *testing.T, h http.Handler) (*countingListener, string) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingListener{Listener: inner}
	hs := &http.Server{Handler: h, ConnContext: ConnContext, WriteTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(Listener(counted)) }()
	t.Cleanup(func() { _ = hs.Close() })
	return counted, inner.Addr().String()
}

// rawClient sends requests one after another on one connection, as written.
type rawClient struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawClient {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawClient{t: t, c: c, br: bufio.NewReader(c)}
}

// do sends a request for target with extra header lines ("Name: value\r\n" each) and
// returns the answer and its body.
func (rc *rawClient) do(method, target, extra string) (*http.Response, []byte) {
	rc.t.Helper()
	if _, err := io.WriteString(rc.c, method+" "+target+" HTTP/1.1\r\nHost: t\r\n"+extra+"\r\n"); err != nil {
		rc.t.Fatal(err)
	}
	req, _ := http.NewRequest(method, "http://t"+target, nil)
	resp, err := http.ReadResponse(rc.br, req)
	if err != nil {
		rc.t.Fatalf("%s %s %q: %v", method, target, extra, err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		rc.t.Fatalf("%s %s %q: body: %v", method, target, extra, err)
	}
	return resp, body
}

func TestHeldAnswerLeavesInOneWrite(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 800) // 12,800 bytes: two writes unheld
	counted, addr := serveCounted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method != http.MethodHead {
			HoldAnswer(r.Context(), len(body))
		}
		_, _ = w.Write(body)
	}))
	rc := dialRaw(t, addr)
	for i, m := range []string{"GET", "GET", "HEAD", "GET"} {
		r, got := rc.do(m, "/x", "")
		if m == http.MethodHead {
			if len(got) != 0 || r.ContentLength != int64(len(body)) {
				t.Errorf("answer %d (HEAD): body %d bytes, Content-Length %d", i, len(got), r.ContentLength)
			}
			continue
		}
		if !bytes.Equal(got, body) {
			t.Errorf("answer %d: body of %d bytes, want the %d sent", i, len(got), len(body))
		}
	}
	sizes := counted.sizes()
	if len(sizes) != 4 {
		t.Fatalf("writes %v: want one per answer", sizes)
	}
	for i, n := range sizes {
		if n <= len(body) && i != 2 {
			t.Errorf("write %d of %d bytes: want headers and the whole body in it", i, n)
		}
	}
}

func TestHeldAnswerCutShortStillLeaves(t *testing.T) {
	// The handler declares more than it writes: what is held leaves when the answer ends,
	// and the connection serves the next request.
	counted, addr := serveCounted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		HoldAnswer(r.Context(), 1<<20)
		w.Header().Set("Content-Length", "5")
		_, _ = io.WriteString(w, "short")
	}))
	rc := dialRaw(t, addr)
	for i := range 2 {
		if _, got := rc.do("GET", "/x", ""); string(got) != "short" {
			t.Errorf("answer %d: body %q, want %q", i, got, "short")
		}
	}
	if n := len(counted.sizes()); n != 2 {
		t.Errorf("%d writes, want 2", n)
	}
}

func TestHeldAnswerBeforeSendfile(t *testing.T) {
	// A file sent through ReadFrom after a hold: what is held goes first, then the file.
	body := bytes.Repeat([]byte("x"), 20000)
	_, addr := serveCounted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		HoldAnswer(r.Context(), len(body))
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = io.Copy(w, bytes.NewReader(body))
	}))
	rc := dialRaw(t, addr)
	for i := range 2 {
		if _, got := rc.do("GET", "/x", ""); !bytes.Equal(got, body) {
			t.Errorf("answer %d: %d bytes, want %d", i, len(got), len(body))
		}
	}
}

// The response cache holds every answer it sends from memory: computed or cached, plain or
// gzip, each leaves in one write; a 304 and a HEAD hold nothing and keep the connection.
func TestCacheAnswersLeaveInOneWrite(t *testing.T) {
	c := respcache.New(respcache.Options{DataVersion: func(context.Context) (int64, error) { return 1, nil }, DiskBytes: -1, Hold: HoldAnswer})
	big := `{"teams":[` + strings.Repeat(`{"strTeam":"Arsenal","idTeam":"133604"},`, 300) + `{}]}`
	tg, _ := parseTarget("/api/v1/json/k/searchteams.php")
	counted, addr := serveCounted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.Serve(w, r, respcache.Key(r, tg.Route, tg.Args, store.Premium), func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, big) })
	}))
	rc := dialRaw(t, addr)
	ask := func(method, extra string) (*http.Response, []byte) {
		t.Helper()
		before := len(counted.sizes())
		resp, body := rc.do(method, "/api/v1/json/k/searchteams.php?t=Arsenal", extra)
		if n := len(counted.sizes()) - before; n != 1 {
			t.Errorf("%s %q: %d writes, want 1", method, extra, n)
		}
		return resp, body
	}
	for _, step := range []string{"computed", "cached"} {
		if _, got := ask("GET", ""); string(got) != big {
			t.Errorf("%s: body of %d bytes, want %d", step, len(got), len(big))
		}
	}
	gz, zipped := ask("GET", "Accept-Encoding: gzip\r\n")
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); string(got) != big {
		t.Errorf("gzip: %d bytes once unzipped, want %d", len(got), len(big))
	}
	if r, _ := ask("GET", "If-None-Match: "+gz.Header.Get("Etag")+"\r\n"); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", r.StatusCode)
	}
	if r, _ := ask("HEAD", ""); r.ContentLength != int64(len(big)) {
		t.Errorf("HEAD: Content-Length %d, want %d", r.ContentLength, len(big))
	}
	if _, got := ask("GET", ""); string(got) != big {
		t.Errorf("after HEAD: body of %d bytes, want %d", len(got), len(big))
	}
}

// A vector of buffers (a stream's chunk: its size, the shared frames, the end) leaves in
// one write on a connection without writev (TLS, a wrapped one), whole: a deadline between
// its parts would leave the client a cut chunk. On a TCP connection it is one writev.
func TestBuffersLeaveInOneWriteWithoutWritev(t *testing.T) {
	counted := &countingListener{}
	server, client := net.Pipe()
	defer client.Close()
	c := &answerConn{Conn: &countingConn{Conn: server, l: counted}}
	parts := [][]byte{[]byte("f\r\n"), []byte("event: team\n"), []byte("data: {}\n\n"), []byte("\r\n")}
	var want []byte
	for _, p := range parts {
		want = append(want, p...)
	}
	got := make(chan []byte)
	go func() {
		b := make([]byte, len(want))
		_, _ = io.ReadFull(client, b)
		got <- b
	}()
	v := net.Buffers(parts)
	if n, err := c.WriteBuffers(&v); err != nil || n != int64(len(want)) {
		t.Fatalf("WriteBuffers: %d, %v; want %d", n, err, len(want))
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("read %q, want %q", b, want)
	}
	if sizes := counted.sizes(); len(sizes) != 1 || sizes[0] != len(want) {
		t.Errorf("writes %v, want one of %d bytes", sizes, len(want))
	}
}
