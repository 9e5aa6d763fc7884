package main

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// The suite's own judges: if they passed what they should fail, every check would be
// worthless.

func TestWorstWindow(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(secs ...float64) []time.Time {
		var ts []time.Time
		for _, s := range secs {
			ts = append(ts, t0.Add(time.Duration(s*float64(time.Second))))
		}
		return ts
	}
	for _, c := range []struct {
		name string
		ts   []time.Time
		want int
	}{
		{"none", nil, 0},
		{"all in one minute", at(0, 1, 2, 59), 4},
		{"a window slides", at(0, 1, 60, 61, 62), 3},
		{"exactly 60 s apart is two windows", at(0, 60), 1},
		{"unsorted", at(61, 0, 1, 60), 2},
	} {
		if got := worstWindow(c.ts, time.Minute); got != c.want {
			t.Errorf("%s: worstWindow = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestAnswerProblem(t *testing.T) {
	js := http.Header{"Content-Type": {"application/json"}}
	txt := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
	for _, c := range []struct {
		name string
		a    answer
		ok   bool
	}{
		{"200 JSON", answer{200, js, []byte(`{"teams":null}`)}, true},
		{"200 empty", answer{200, js, nil}, true},
		{"200 not JSON", answer{200, txt, []byte("hello")}, false},
		{"404 documented", answer{404, js, []byte(`{"Message":"Not found"}`)}, true},
		{"429 documented", answer{429, js, []byte(`{"message":"Rate limit exceeded. Please keep below 30 requests per 1 minute.","error":429}`)}, true},
		{"400 plain text", answer{400, txt, []byte("400 Bad Request")}, false},
		{"400 other JSON", answer{400, js, []byte(`{"error":"bad"}`)}, false},
		{"400 stack", answer{400, js, []byte(`{"Message":"goroutine 1 [running]"}`)}, false},
		{"503", answer{503, js, []byte(`{"Message":"Service unavailable"}`)}, false},
		{"HTML", answer{404, http.Header{"Content-Type": {"text/html"}}, []byte("<html>no</html>")}, false},
	} {
		if got := c.a.problem(); (got == "") != c.ok {
			t.Errorf("%s: problem() = %q, want ok=%v", c.name, got, c.ok)
		}
	}
	if p := (answer{503, js, []byte(`{"Message":"Service unavailable"}`)}).problem(503); p != "" {
		t.Errorf("an allowed 503 in the documented shape: %q", p)
	}
}

func TestCountPanics(t *testing.T) {
	log := "time=1 level=INFO msg=request path=/x\ntime=2 level=ERROR msg=panic route=v1 panic=boom\ngoroutine 7 [running]:\n"
	if n := countPanics(log); n != 2 {
		t.Errorf("countPanics = %d, want 2", n)
	}
	if n := countPanics("time=1 level=INFO msg=request path=/api/v1/json/{key}/all_sports.php\n"); n != 0 {
		t.Errorf("countPanics of a clean log = %d", n)
	}
}

// TestProxy checks the three modes against an echo server: pass forwards, hang holds the
// bytes until pass, cut closes.
func TestProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	p, err := newProxy(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo := func(msg string, wait time.Duration) (string, error) {
		if _, err := c.Write([]byte(msg)); err != nil {
			return "", err
		}
		_ = c.SetReadDeadline(time.Now().Add(wait))
		buf := make([]byte, len(msg))
		_, err := io.ReadFull(c, buf)
		return string(buf), err
	}
	if got, err := echo("one", 2*time.Second); err != nil || got != "one" {
		t.Fatalf("pass: %q, %v", got, err)
	}
	p.set(hang)
	if got, err := echo("two", 200*time.Millisecond); err == nil {
		t.Fatalf("hang: the bytes came through: %q", got)
	}
	p.set(pass)
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 3)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "two" {
		t.Fatalf("after the hang: %q, %v", buf, err)
	}
	p.set(cut)
	if _, err := echo("three", 2*time.Second); err == nil {
		t.Fatal("cut: the connection still echoes")
	}
}
