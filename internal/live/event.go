// Package live pushes the change feed to clients: one watcher per server follows the
// store's feed and fans the changed records out to every open Server-Sent Events stream,
// and the changes endpoint pages through the feed (docs/CONTRACT.md section 9).
package live

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Source is what live reads from the store.
type Source interface {
	store.Feed
	Get(ctx context.Context, k *record.Kind, id string) (record.Record, error)
	DataVersion(ctx context.Context) (int64, error)
}

// Listener is a store that can tell when another process committed changes (PostgreSQL's
// LISTEN); without one the watcher polls.
type Listener interface {
	Listen(ctx context.Context, fn func()) error
}

// Event is one change ready to send: the record as v2 writes it, on one line.
type Event struct {
	Cursor int64
	Kind   *record.Kind
	ID     string
	Op     string
	// Sport is the folded strSport of the record ("" for a delete or a kind without one).
	Sport string
	Data  []byte
	// frames holds the event as streams write it, made by the first stream of each form that
	// sends it, for the streams after it: a thousand streams on the same host, following the
	// same kinds, write one record once rather than a thousand times. nil (an event read for
	// one stream's catch-up): each stream writes its own. A frame made a moment before a new
	// image is stored names the image's old address, as it would had that stream sent it a
	// moment earlier; the next change of the record brings the new one.
	frames *frameMemo
}

// frameMemo is an event's frames by their name and form.
type frameMemo struct {
	mu   sync.Mutex
	list []frame
}

type frame struct {
	name, form string
	rewritten  bool
	b          []byte
}

// frame returns the frame of name and form, made by build if no stream made it yet. The
// frame is shared: the caller copies it and keeps no reference.
func (m *frameMemo) frame(name string, rewritten bool, form string, build func() []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.list {
		if f.name == name && f.rewritten == rewritten && f.form == form {
			return f.b
		}
	}
	b := build()
	m.list = append(m.list, frame{name: name, form: form, rewritten: rewritten, b: b})
	return b
}

// Renderer turns changes into events; View is the v2 view of each kind.
type Renderer struct {
	Src  Source
	View func(*record.Kind) *record.View
}

// Render reads the record of a change and writes it. ok is false for an upsert whose record
// is gone again: a later delete in the feed says so.
func (rd Renderer) Render(ctx context.Context, c store.Change) (ev Event, ok bool, err error) {
	ev = Event{Cursor: c.Cursor, Kind: c.Kind, ID: c.ID, Op: c.Op}
	if c.Op == store.OpDelete {
		b := append([]byte(`{"kind":`), record.AppendString(nil, c.Kind.Name)...)
		b = append(append(b, `,"id":`...), record.AppendString(nil, c.ID)...)
		ev.Data = append(b, '}')
		return ev, true, nil
	}
	r, err := rd.Src.Get(ctx, c.Kind, c.ID)
	if errors.Is(err, store.ErrNotFound) {
		return ev, false, nil
	}
	if err != nil {
		return ev, false, fmt.Errorf("change %d: %w", c.Cursor, err)
	}
	if c.Kind.Has("strSport") {
		ev.Sport = record.Fold(r.Str("strSport"))
	}
	if ev.Data, err = record.AppendView(nil, r, rd.View(c.Kind), false); err != nil {
		return ev, false, fmt.Errorf("change %d: %w", c.Cursor, err)
	}
	return ev, true, nil
}

// RenderAll renders changes in order, leaving out those whose record is gone.
func (rd Renderer) RenderAll(ctx context.Context, cs []store.Change) ([]Event, error) {
	out := make([]Event, 0, len(cs))
	for _, c := range cs {
		ev, ok, err := rd.Render(ctx, c)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ev)
		}
	}
	return out, nil
}

// appendSSE writes ev as one Server-Sent Event named name.
func appendSSE(b []byte, name string, ev Event) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, ev.Cursor, 10)
	b = append(b, "\nevent: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, ev.Data...)
	return append(b, "\n\n"...)
}
