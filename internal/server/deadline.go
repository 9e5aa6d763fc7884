package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// lazyDeadline is a request's context with a deadline, whose timer is made only when
// something waits on it (Done, or a context derived from it). An answer served from the
// response cache never waits, and context.WithTimeout on every request was a measurable share
// of the server's CPU under load (docs/PERFORMANCE.md). Until then Err reads the clock instead; from then on it behaves as
// context.WithDeadline(parent, deadline).
type lazyDeadline struct {
	parent   context.Context
	deadline time.Time
	once     sync.Once
	real     atomic.Pointer[context.Context]
	cancel   context.CancelFunc
}

func withLazyDeadline(parent context.Context, d time.Duration) *lazyDeadline {
	return &lazyDeadline{parent: parent, deadline: time.Now().Add(d)}
}

// start makes the real context once and returns it.
func (c *lazyDeadline) start() context.Context {
	c.once.Do(func() {
		ctx, cancel := context.WithDeadline(c.parent, c.deadline)
		c.cancel = cancel
		c.real.Store(&ctx)
	})
	return *c.real.Load()
}

// stop releases the timer, if one was made; the request is over.
func (c *lazyDeadline) stop() {
	if c.real.Load() != nil {
		c.cancel()
	}
}

func (c *lazyDeadline) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *lazyDeadline) Done() <-chan struct{} { return c.start().Done() }

func (c *lazyDeadline) Err() error {
	if real := c.real.Load(); real != nil {
		return (*real).Err()
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// Value answers from the real context once it exists, so that contexts derived from this one
// find its cancellation directly rather than through a goroutine each.
func (c *lazyDeadline) Value(key any) any {
	if real := c.real.Load(); real != nil {
		return (*real).Value(key)
	}
	return c.parent.Value(key)
}
