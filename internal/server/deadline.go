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
	clock    deadlineClock // nil: the wall clock
	deadline time.Time
	once     sync.Once
	real     atomic.Pointer[context.Context]
	cancel   context.CancelFunc
}

// deadlineClock is what request deadlines are measured on instead of the wall clock: a
// test's clock, which passes them when the test moves it on.
type deadlineClock interface {
	Now() time.Time
	// AfterFunc calls f in a goroutine of its own once the clock has reached t; stop keeps
	// it from being called.
	AfterFunc(t time.Time, f func()) (stop func() bool)
}

// withLazyDeadline bounds parent to d from now on clk (nil: the wall clock).
func withLazyDeadline(parent context.Context, d time.Duration, clk deadlineClock) *lazyDeadline {
	if clk != nil {
		return &lazyDeadline{parent: parent, clock: clk, deadline: clk.Now().Add(d)}
	}
	return &lazyDeadline{parent: parent, deadline: time.Now().Add(d)}
}

// start makes the real context once and returns it.
func (c *lazyDeadline) start() context.Context {
	c.once.Do(func() {
		var ctx context.Context
		if c.clock != nil {
			ctx, c.cancel = withClockDeadline(c.parent, c.deadline, c.clock)
		} else {
			ctx, c.cancel = context.WithDeadline(c.parent, c.deadline)
		}
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
	now := time.Now
	if c.clock != nil {
		now = c.clock.Now
	}
	if !now().Before(c.deadline) {
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

// clockDeadline is context.WithDeadline on a deadlineClock: it ends with DeadlineExceeded
// when the clock reaches the deadline, or as its parent ends, and contexts derived from it
// end with the same error.
type clockDeadline struct {
	parent   context.Context
	deadline time.Time
	done     chan struct{}
	mu       sync.Mutex
	err      error
}

func withClockDeadline(parent context.Context, deadline time.Time, clk deadlineClock) (context.Context, context.CancelFunc) {
	c := &clockDeadline{parent: parent, deadline: deadline, done: make(chan struct{})}
	stopTimer := clk.AfterFunc(deadline, func() { c.end(context.DeadlineExceeded) })
	stopParent := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	return c, func() {
		stopTimer()
		stopParent()
		c.end(context.Canceled)
	}
}

func (c *clockDeadline) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

func (c *clockDeadline) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *clockDeadline) Done() <-chan struct{} { return c.done }

func (c *clockDeadline) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *clockDeadline) Value(key any) any { return c.parent.Value(key) }
