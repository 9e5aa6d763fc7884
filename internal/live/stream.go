package live

import (
	"context"
	"errors"
	"fmt"
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

// Stream is one open Server-Sent Events answer.
type Stream struct {
	hub    *Hub
	w      http.ResponseWriter
	rc     *http.ResponseController
	filter Filter
	ping   time.Duration
	buf    []byte
}

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
// server drains, or a write fails. The caller has set the headers (SetHeaders) and any
// other answer to the request is its own.
func (h *Hub) Serve(ctx context.Context, w http.ResponseWriter, f Filter, since int64, ping time.Duration) error {
	if err := h.subscribe(ctx); err != nil {
		return fmt.Errorf("live: open stream: %w: %w", ErrNotOpened, err)
	}
	defer h.unsubscribe()
	// From now on means from the head as the stream opens: a change committed after the
	// client saw the stream open is after it.
	pos := since
	if pos == store.FromOldest {
		pos = h.cursor()
	}
	s := &Stream{hub: h, w: w, rc: http.NewResponseController(w), filter: f, ping: ping}
	// A stream outlives the server's read and write timeouts; errors mean the writer has no
	// deadlines to clear.
	_ = s.rc.SetReadDeadline(time.Time{})
	_ = s.rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	// The client reconnects a second after the stream ends (a draining server ends them).
	s.buf = append(s.buf, "retry: 1000\n\n"...)
	if err := s.flush(); err != nil {
		return nil
	}
	return s.run(ctx, pos)
}

func (s *Stream) run(ctx context.Context, pos int64) error {
	ping := time.NewTicker(s.ping)
	defer ping.Stop()
	// A cursor past the hub's head may be one the store never issued: the store says.
	check := pos > s.hub.cursor()
	for {
		v := s.hub.after(pos)
		if v.behind || check {
			check = false
			next, err := s.catchUp(ctx, pos)
			if err != nil {
				return err
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
		pos = max(pos, v.head)
		if err := s.flush(); err != nil {
			return nil
		}
		select {
		case <-v.wait:
		case <-ping.C:
			s.buf = append(s.buf, ": ping\n\n"...)
		case <-ctx.Done():
			return nil
		case <-s.hub.Stopped():
			return nil
		}
	}
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
		s.buf = appendSSE(s.buf, "reset", Event{Cursor: latest, Data: []byte(`{"cursor":"` + strconv.FormatInt(latest, 10) + `"}`)})
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
		s.buf = appendSSE(s.buf, s.filter.name(ev), ev)
	}
}

func (s *Stream) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	_, err := s.w.Write(s.buf)
	s.buf = s.buf[:0]
	if err == nil {
		err = s.rc.Flush()
	}
	return err
}
