package respcache

import (
	"context"
	"sync"
	"time"
)

// queuedReadTimeout bounds a read started on behalf of queued requests.
const queuedReadTimeout = 2 * time.Second

// versionGate shares data-version reads between concurrent requests without ever letting
// one see a version older than the moment it arrived. A request that finds no read under way
// starts one. A request that arrives while a read is under way does not take that read's
// answer (the read may have started before a commit the request must see): it joins the next
// read, which starts only after the current one ends, so after the request arrived. Under
// load, one read serves every request that arrived during the previous read.
type versionGate struct {
	read func(context.Context) (int64, error)

	mu      sync.Mutex
	running bool
	next    *versionRound
}

type versionRound struct {
	done chan struct{}
	// waiters are the callers queued for the round (under the gate's lock).
	waiters int
	version int64
	err     error
}

func newVersionGate(read func(context.Context) (int64, error)) *versionGate {
	return &versionGate{read: read}
}

// get returns a data version read entirely after the call began.
func (g *versionGate) get(ctx context.Context) (int64, error) {
	g.mu.Lock()
	if !g.running {
		g.running = true
		g.mu.Unlock()
		r := &versionRound{done: make(chan struct{})}
		g.run(ctx, r)
		return r.version, r.err
	}
	if g.next == nil {
		g.next = &versionRound{done: make(chan struct{})}
	}
	r := g.next
	r.waiters++
	g.mu.Unlock()
	select {
	case <-r.done:
		return r.version, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// run performs one read and, when requests queued a next read meanwhile, starts it on its own
// goroutine, so no caller waits for more than the read it needs. The next read is detached
// from this caller's context (its waiters have their own) and bounded by queuedReadTimeout.
func (g *versionGate) run(ctx context.Context, r *versionRound) {
	r.version, r.err = g.read(ctx)
	close(r.done)
	g.mu.Lock()
	next := g.next
	g.next = nil
	if next == nil {
		g.running = false
	}
	g.mu.Unlock()
	if next != nil {
		go func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), queuedReadTimeout)
			defer cancel()
			g.run(ctx, next)
		}()
	}
}
