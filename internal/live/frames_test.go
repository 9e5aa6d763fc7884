package live

import (
	"bytes"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"sportsdb/internal/record"
)

// recordConn keeps what a stream writes, and how: a vector in one call (WriteBuffers) or
// one buffer at a time.
type recordConn struct {
	net.Conn
	out     bytes.Buffer
	vectors int
	writes  int
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes++
	return c.out.Write(p)
}

func (c *recordConn) SetWriteDeadline(time.Time) error { return nil }

// vectorConn is a recordConn that writes vectors, as the server's connections do.
type vectorConn struct{ recordConn }

func (c *vectorConn) WriteBuffers(v *net.Buffers) (int64, error) {
	c.vectors++
	var n int64
	for _, b := range *v {
		m, _ := c.out.Write(b)
		n += int64(m)
	}
	*v = nil
	return n, nil
}

// Streams that write a record the same way share its frame: the record of an event is
// rewritten once for all the streams of one form, and each stream's chunk carries it
// whole; a stream of another form, or one whose rewrite names no form, makes its own.
func TestStreamsShareFrames(t *testing.T) {
	h := NewHub(Renderer{}, nil, nil)
	h.gen = 1
	var evs []Event
	for c := int64(1); c <= 3; c++ {
		data := fmt.Sprintf(`{"idTeam":"%d","strBadge":"https://img.example/t/%d.png"}`, c, c)
		evs = append(evs, Event{Cursor: c, Kind: record.Team, ID: strconv.FormatInt(c, 10), Op: "upsert", Data: []byte(data)})
	}
	h.publish(1, evs, 3)

	calls := map[string]int{}
	rewriteTo := func(base string) func([]byte) []byte {
		return func(b []byte) []byte {
			calls[base]++
			return bytes.ReplaceAll(b, []byte("https://img.example"), []byte(base))
		}
	}
	type streamCase struct {
		form, base string
		conn       net.Conn
		rec        *recordConn
	}
	var cases []streamCase
	add := func(form, base string, vector bool) {
		if vector {
			c := &vectorConn{}
			cases = append(cases, streamCase{form: form, base: base, conn: c, rec: &c.recordConn})
		} else {
			c := &recordConn{}
			cases = append(cases, streamCase{form: form, base: base, conn: c, rec: c})
		}
	}
	for range 5 {
		add("http://a", "http://a", true)
	}
	add("http://a", "http://a", false)
	add("http://c", "http://c", true)
	add("", "http://d", true) // a rewrite without a form
	add("", "http://d", true)
	for _, c := range cases {
		s := &Stream{hub: h, filter: Filter{Rewrite: rewriteTo(c.base), Form: c.form}, conn: c.conn, chunked: true}
		for _, ev := range h.after(0).events {
			s.send(ev)
		}
		s.write(": ping\n\n")
		if err := s.flush(); err != nil {
			t.Fatal(err)
		}
	}
	if calls["http://a"] != 3 || calls["http://c"] != 3 || calls["http://d"] != 6 {
		t.Errorf("rewrites by base %v; want each event once for a (6 streams) and c, once a stream for d (2)", calls)
	}
	for i, c := range cases {
		var want bytes.Buffer
		for _, ev := range evs {
			want.WriteString(fmt.Sprintf("id: %d\nevent: team\ndata: %s\n\n", ev.Cursor,
				bytes.ReplaceAll(ev.Data, []byte("https://img.example"), []byte(c.base))))
		}
		want.WriteString(": ping\n\n")
		chunk := strconv.FormatInt(int64(want.Len()), 16) + "\r\n" + want.String() + "\r\n"
		if got := c.rec.out.String(); got != chunk {
			t.Errorf("stream %d (form %q) wrote\n%q\nwant\n%q", i, c.form, got, chunk)
		}
		if _, vector := c.conn.(*vectorConn); vector && (c.rec.vectors != 1 || c.rec.writes != 0) {
			t.Errorf("stream %d: %d vectors and %d writes; want the chunk as one vector", i, c.rec.vectors, c.rec.writes)
		}
	}
	// The shared frames are left as they were: a later stream of form a still gets them.
	c := &vectorConn{}
	s := &Stream{hub: h, filter: Filter{Rewrite: rewriteTo("http://a"), Form: "http://a"}, conn: c, chunked: true}
	for _, ev := range h.after(0).events {
		s.send(ev)
	}
	_ = s.flush()
	if calls["http://a"] != 3 || !bytes.Contains(c.out.Bytes(), []byte(`"strBadge":"http://a/t/3.png"`)) {
		t.Errorf("a later stream of form a: %d rewrites, wrote %q", calls["http://a"], c.out.String())
	}
}

// An event read for one stream's catch-up (no frames) is written by that stream alone.
func TestCatchUpEventsAreOwn(t *testing.T) {
	n := 0
	c := &vectorConn{}
	s := &Stream{filter: Filter{Form: "x", Rewrite: func(b []byte) []byte { n++; return b }}, conn: c}
	ev := Event{Cursor: 7, Kind: record.Team, ID: "7", Op: "upsert", Data: []byte(`{}`)}
	s.send(ev)
	s.send(ev)
	_ = s.flush()
	if n != 2 || c.out.String() != "id: 7\nevent: team\ndata: {}\n\nid: 7\nevent: team\ndata: {}\n\n" {
		t.Errorf("%d rewrites, wrote %q; want two of its own, unchunked", n, c.out.String())
	}
}
