package mqtt

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
)

// proxy stands between the publisher and the broker, so that a test can cut the connection
// as a broker restart would, without restarting the broker other tests use.
type proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newProxy(t *testing.T, b Broker) (*proxy, Broker) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	target := strings.TrimPrefix(b.Addr, "mqtt://")
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	return p, Broker{Addr: "mqtt://" + ln.Addr().String()}
}

// cut closes every connection through the proxy.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// When the connection to the broker drops (a broker restart), the broker says offline by the
// publisher's last will; the publisher connects again, says online, and resumes from its
// stored cursor: the changes committed meanwhile all arrive.
func TestReconnectsAndResumes(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	px, via := newProxy(t, b)
	st := openStore(t)
	sub := subscribe(t, b, prefix+"/#")
	o := testOptions(via, prefix, clock.System{})
	o.Metrics = NewMetrics()
	logs := make(chan string, 100)
	o.Log = newLineLogger(logs)
	pub := start(t, st, o)
	pub.waitStored(t, 0)
	pub.waitStored(t, write(t, st, team("1", "A")))
	if m := sub.next(t); m.Topic != prefix+"/team/1" {
		t.Fatalf("%+v, want team 1", m)
	}

	status := subscribe(t, b, prefix+"/status")
	expectStatus(t, status, online) // retained
	px.cut()
	waitLog(t, logs, "reconnecting")
	expectStatus(t, status, offline) // the last will
	expectStatus(t, status, online)
	pub.waitStored(t, write(t, st, team("2", "B"), team("3", "C")))
	for _, id := range []string{"2", "3"} {
		if m := sub.next(t); m.Topic != prefix+"/team/"+id || m.Payload != payload(t, st, record.Team, id) {
			t.Fatalf("after reconnecting: %+v, want team %s", m, id)
		}
	}
}

func expectStatus(t *testing.T, s *subscriber, want string) {
	t.Helper()
	select {
	case m := <-s.ch:
		if m.Payload != want {
			t.Fatalf("status %q, want %q", m.Payload, want)
		}
	case <-time.After(waitFor):
		t.Fatalf("no status %q", want)
	}
}
