package webhooks

import (
	"context"
	"sync"

	"sportsdb/internal/store"
)

// changeReads keeps the changes read for delivery, by cursor, so that the record of a change
// is read and written once for all the webhooks that deliver it, not once a webhook: two
// hundred webhooks following the same live scores read each one two hundred times.
//
// What a delivery carries does not change by it. A change's record is read after its
// commit, so what the first worker read is the record as that change left it or later, as a
// read of its own would be; and a later change of the record comes after it in the feed, read
// for itself. (A change read again later could carry a later record; either is the record as
// it was at or after the change.)
type changeReads struct {
	st     store.Records
	images func(context.Context, []byte) []byte

	mu    sync.Mutex
	m     map[readKey]*changeRead
	order []readKey // oldest first, for eviction
}

// keptReads bounds the changes kept: the last few imports' worth, where the workers of
// healthy receivers are; one further behind reads its own.
const keptReads = 1024

type readKey struct {
	cursor    int64
	withEvent bool
}

// changeRead is one change's read, done by the first worker that asks for it; done closes
// when it is.
type changeRead struct {
	done chan struct{}
	p    prepared
	body []byte
	err  error
}

func newChangeReads(st store.Records, images func(context.Context, []byte) []byte) *changeReads {
	return &changeReads{st: st, images: images, m: map[readKey]*changeRead{}}
}

// read returns the change read (with its event, when withEvent) and its message. A read that
// failed is not kept: whoever waited on it reads for itself, within its own context.
func (r *changeReads) read(ctx context.Context, c store.Change, withEvent bool) (prepared, []byte, error) {
	key := readKey{c.Cursor, withEvent}
	r.mu.Lock()
	e, ok := r.m[key]
	if !ok {
		e = &changeRead{done: make(chan struct{})}
		r.m[key] = e
		r.order = append(r.order, key)
		if len(r.order) > keptReads {
			delete(r.m, r.order[0])
			r.order = r.order[1:]
		}
	}
	r.mu.Unlock()
	if ok {
		select {
		case <-e.done:
		case <-ctx.Done():
			return prepared{}, nil, ctx.Err()
		}
		if e.err == nil {
			return e.p, e.body, nil
		}
		return r.readOwn(ctx, c, withEvent)
	}
	e.p, e.body, e.err = r.readOwn(ctx, c, withEvent)
	if e.err != nil {
		r.mu.Lock()
		if r.m[key] == e {
			delete(r.m, key)
		}
		r.mu.Unlock()
	}
	close(e.done)
	return e.p, e.body, e.err
}

func (r *changeReads) readOwn(ctx context.Context, c store.Change, withEvent bool) (prepared, []byte, error) {
	p := prepared{c: c}
	if err := p.read(ctx, r.st, withEvent); err != nil {
		return p, nil, err
	}
	body, err := p.body(ctx, r.images)
	return p, body, err
}
