package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// DefaultPing is how often an idle stream sends a comment line, so that proxies and clients
// see the connection alive (the contract asks for one at least every 15 s).
const DefaultPing = 10 * time.Second

// Filter says which events a stream sends and under which event name.
type Filter struct {
	// Kinds the stream follows; none means every kind.
	Kinds []*record.Kind
	// Sport, when set, keeps only records of that folded strSport (deletes always pass:
	// their record is gone, and with it its sport).
	Sport string
	// Name is the event name of upserts; "" names them by their kind.
	Name string
	// Rewrite, when set, makes the record of each event as this stream sends it (image
	// addresses on the server the client asked: internal/imageurl).
	Rewrite func([]byte) []byte
	// Form names what Rewrite writes: streams whose Rewrite has the same Form write a record
	// the same way, so an event is written once for all of them (Event.frames). A stream with
	// a Rewrite and no Form writes its own.
	Form string
}

func (f Filter) keep(ev Event) bool {
	if len(f.Kinds) > 0 && !hasKind(f.Kinds, ev.Kind) {
		return false
	}
	return f.Sport == "" || ev.Op == store.OpDelete || ev.Sport == f.Sport
}

func (f Filter) name(ev Event) string {
	switch {
	case ev.Op == store.OpDelete:
		return "delete"
	case f.Name != "":
		return f.Name
	}
	return ev.Kind.Name
}

func hasKind(ks []*record.Kind, k *record.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// Stream is one open Server-Sent Events answer. On an HTTP/1 connection it takes the
// connection over once the headers are out, so that an idle stream holds one small goroutine
// and its socket, not the handler's goroutine, net/http's buffers and the request.
type Stream struct {
	hub    *Hub
	filter Filter
	// stop ends the stream from the server's side, as a drain does.
	stop context.Context
	// parts are what the next flush writes, in order: frames shared with other streams
	// (Event.frames), which are sent without being copied, and slices of own, the bytes of
	// this stream's own making; size is their length.
	parts net.Buffers
	own   []byte
	size  int
	// vec is the backing of the vector a flush writes: the chunk's size line, parts, and
	// the chunk's end.
	vec net.Buffers
	// conn, once taken over from net/http; chunked: the answer is in chunks (HTTP/1.1).
	conn    net.Conn
	chunked bool
	// w and rc write through net/http when the connection could not be taken over.
	w  http.ResponseWriter
	rc *http.ResponseController
}

const (
	// keepBuf is the largest buffer of its own a stream keeps between writes; a bigger one (a
	// catch-up) is let go.
	keepBuf = 16 << 10
	// writeTimeout ends a stream whose client stopped reading.
	writeTimeout = 30 * time.Second
)

// SetHeaders writes the headers of a stream: no caching, no buffering in a proxy.
func SetHeaders(h http.Header) {
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
}

// ParseCursor reads a cursor as a client sends it back: decimal digits.
func ParseCursor(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// ErrNotOpened: the stream failed before anything was written; the caller answers.
var ErrNotOpened = errors.New("stream not opened")

// Serve streams events after since (FromOldest: from now on) until the client leaves, the
// server drains, stop ends (the key was revoked) or a write fails; done (if not nil) is
// called once when it ends, or when it could not open (ErrNotOpened, nothing written). The
// caller has set the headers (SetHeaders) and any other answer to the request is its own.
//
// On an HTTP/1 connection Serve returns once the stream is open and the stream goes on in a
// goroutine of its own, over the connection taken from net/http; otherwise (HTTP/2, a
// ResponseWriter that cannot hand its connection over) it streams until the end.
func (h *Hub) Serve(ctx, stop context.Context, w http.ResponseWriter, r *http.Request, f Filter, since int64, done func()) error {
	if err := h.subscribe(ctx); err != nil {
		if done != nil {
			done()
		}
		return fmt.Errorf("live: open stream: %w: %w", ErrNotOpened, err)
	}
	end := func() {
		h.unsubscribe()
		if done != nil {
			done()
		}
	}
	// From now on means from the head as the stream opens: a change committed after the
	// client saw the stream open is after it.
	pos := since
	if pos == store.FromOldest {
		pos = h.cursor()
	}
	s := &Stream{hub: h, filter: f, stop: stop}
	rc := http.NewResponseController(w)
	// The headers leave under the stream's own write timeout, not under what is left of the
	// server's: opening (the key, the limits, the subscription) may have used it up, and
	// net/http writes them on taking the connection over, before it lifts its deadlines.
	// Headers that missed the deadline would be lost, and the client would read the events
	// as a malformed answer.
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	w.WriteHeader(http.StatusOK)
	conn, rw, err := rc.Hijack()
	if err != nil {
		// A stream outlives the server's read and write timeouts; errors mean the writer has
		// no deadlines to clear.
		defer end()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(stop, cancel)()
		s.w, s.rc = w, rc
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		return s.open(ctx, pos)
	}
	// net/http wrote the headers; it chose chunks for HTTP/1.1 (no length, no Transfer-Encoding
	// set), an answer that ends with the connection before.
	s.conn, s.chunked = conn, r.ProtoAtLeast(1, 1)
	if rw.Reader.Buffered() > 0 {
		// A request pipelined behind the stream's is never answered.
		_, _ = rw.Reader.Discard(rw.Reader.Buffered())
	}
	sctx, cancel := context.WithCancel(stop)
	go s.watchClose(cancel)
	go func() {
		defer end()
		defer conn.Close()
		defer cancel()
		// A client that left is no failure: its reads stop halfway (a catch-up).
		if err := s.open(sctx, pos); err != nil && sctx.Err() == nil {
			h.log.Warn("stream ended by a failure", "err", err)
		}
	}()
	return nil
}

// watchClose cancels the stream when its client closes the connection (anything it sends
// is ignored).
func (s *Stream) watchClose(cancel context.CancelFunc) {
	var b [1]byte
	for {
		if _, err := s.conn.Read(b[:]); err != nil {
			cancel()
			return
		}
	}
}

// open sends the retry delay and runs the stream. The client reconnects a second after the
// stream ends (a draining server ends them).
func (s *Stream) open(ctx context.Context, pos int64) error {
	s.write("retry: 1000\n\n")
	if err := s.flush(); err != nil {
		return nil
	}
	return s.run(ctx, pos)
}

func (s *Stream) run(ctx context.Context, pos int64) error {
	// A cursor past the hub's head may be one the store never issued: the store says.
	check := pos > s.hub.cursor()
	pings := int64(-1)
	for {
		v := s.hub.after(pos)
		if v.stopped {
			s.end()
			return nil
		}
		if v.behind || check {
			check = false
			next, err := s.catchUp(ctx, pos)
			if err != nil {
				return s.ended(ctx, err)
			}
			pos = next
			if err := s.flush(); err != nil {
				return nil
			}
			continue
		}
		for _, ev := range v.events {
			s.send(ev)
		}
		if pings >= 0 && v.pings != pings {
			s.write(": ping\n\n")
		}
		pings = v.pings
		pos = max(pos, v.head)
		if err := s.flush(); err != nil {
			return nil
		}
		select {
		case <-v.wait:
		case <-ctx.Done():
			return s.ended(ctx, nil)
		}
	}
}

// ended is what run returns when it stops on err: nothing when the client left or the server
// stopped the stream (then the answer is ended properly, as a drain ends it).
func (s *Stream) ended(ctx context.Context, err error) error {
	if s.stop.Err() != nil {
		s.end()
		return nil
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// catchUp sends the changes after pos from the store, a page at a time, for a stream
// behind the hub's window. An expired pos starts over from the latest cursor with a reset.
func (s *Stream) catchUp(ctx context.Context, pos int64) (int64, error) {
	cs, next, err := s.hub.rd.Src.Changes(ctx, pos, s.filter.Kinds, fetchPage)
	if errors.Is(err, store.ErrCursorExpired) {
		latest, lerr := s.hub.rd.Src.LatestCursor(ctx)
		if lerr != nil {
			return 0, fmt.Errorf("live: stream: %w", lerr)
		}
		s.event("reset", Event{Cursor: latest, Data: []byte(`{"cursor":"` + strconv.FormatInt(latest, 10) + `"}`)})
		return latest, nil
	}
	if err != nil {
		return 0, fmt.Errorf("live: stream: %w", err)
	}
	evs, err := s.hub.rd.RenderAll(ctx, cs)
	if err != nil {
		return 0, fmt.Errorf("live: stream: %w", err)
	}
	for _, ev := range evs {
		s.send(ev)
	}
	return next, nil
}

func (s *Stream) send(ev Event) {
	if s.filter.keep(ev) {
		s.event(s.filter.name(ev), ev)
	}
}

func (s *Stream) event(name string, ev Event) {
	rewrite := s.filter.Rewrite
	if ev.frames == nil || rewrite != nil && s.filter.Form == "" {
		if rewrite != nil {
			ev.Data = rewrite(ev.Data)
		}
		start := len(s.own)
		s.own = appendSSE(s.own, name, ev)
		s.add(s.own[start:])
		return
	}
	s.add(ev.frames.frame(name, rewrite != nil, s.filter.Form, func() []byte {
		if rewrite != nil {
			ev.Data = rewrite(ev.Data)
		}
		return appendSSE(nil, name, ev)
	}))
}

func (s *Stream) write(text string) {
	start := len(s.own)
	s.own = append(s.own, text...)
	s.add(s.own[start:])
}

// add queues b for the next flush. A slice of own stays right when own grows later: its
// bytes are never written again before the flush.
func (s *Stream) add(b []byte) {
	s.parts = append(s.parts, b)
	s.size += len(b)
}

// buffersWriter is a connection that writes a vector of buffers, in one system call where it
// can (net.Buffers), through whatever it wraps (the server's connections).
type buffersWriter interface {
	WriteBuffers(v *net.Buffers) (int64, error)
}

// flush writes what is queued, as one chunk on a connection taken over.
func (s *Stream) flush() error {
	if s.size == 0 {
		return nil
	}
	var err error
	if s.conn == nil {
		for _, p := range s.parts {
			if _, err = s.w.Write(p); err != nil {
				break
			}
		}
		if err == nil {
			err = s.rc.Flush()
		}
	} else {
		s.vec = s.vec[:0]
		var size [18]byte
		if s.chunked {
			s.vec = append(s.vec, append(strconv.AppendInt(size[:0], int64(s.size), 16), '\r', '\n'))
		}
		s.vec = append(s.vec, s.parts...)
		if s.chunked {
			s.vec = append(s.vec, crlf)
		}
		_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		v := s.vec // WriteTo consumes its vector; vec keeps the backing for the next flush
		if bw, ok := s.conn.(buffersWriter); ok {
			_, err = bw.WriteBuffers(&v)
		} else {
			_, err = v.WriteTo(s.conn)
		}
		clear(s.vec) // let the shared frames go
	}
	clear(s.parts)
	s.parts, s.size = s.parts[:0], 0
	s.own = s.own[:0]
	if cap(s.own) > keepBuf {
		s.own = nil
	}
	if cap(s.parts) > 1024 {
		s.parts, s.vec = nil, nil
	}
	return err
}

var crlf = []byte("\r\n")

// end closes the chunked answer of a connection taken over, so that the client sees a
// complete answer when the server ends the stream.
func (s *Stream) end() {
	if s.conn != nil && s.chunked {
		_ = s.conn.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = s.conn.Write([]byte("0\r\n\r\n"))
	}
}
