package server

import (
	"sync"
	"time"

	"sportsdb/internal/clock"
)

// DeadlineClock is a manual clock for the requests' deadlines (SetDeadlineClock): a deadline
// passes when the test moves the clock past it, however long the machine took meanwhile.
type DeadlineClock struct {
	*clock.Manual
	// armed receives the instant of each timer set, for a test that waits for requests to
	// have reached a wait; it drops what does not fit.
	armed chan time.Time

	mu     sync.Mutex
	timers []*deadlineTimer
}

type deadlineTimer struct {
	at   time.Time
	f    func()
	done bool // fired or stopped
}

// NewDeadlineClock returns a clock showing the wall clock's time, which then moves only by
// Advance.
func NewDeadlineClock() *DeadlineClock {
	return &DeadlineClock{Manual: clock.NewManual(time.Now()), armed: make(chan time.Time, 256)}
}

// AfterFunc calls f once the clock has reached t (at once if it has).
func (c *DeadlineClock) AfterFunc(t time.Time, f func()) func() bool {
	tm := &deadlineTimer{at: t, f: f}
	c.mu.Lock()
	c.timers = append(c.timers, tm)
	c.mu.Unlock()
	select {
	case c.armed <- t:
	default:
	}
	c.fire()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		stopped := !tm.done
		tm.done = true
		return stopped
	}
}

// Armed receives the instant of each timer set.
func (c *DeadlineClock) Armed() <-chan time.Time { return c.armed }

// Advance moves the clock on by d and fires the timers it passes.
func (c *DeadlineClock) Advance(d time.Duration) {
	c.Manual.Advance(d)
	c.fire()
}

func (c *DeadlineClock) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.Now()
	keep := c.timers[:0]
	for _, tm := range c.timers {
		switch {
		case tm.done:
		case !now.Before(tm.at):
			tm.done = true
			go tm.f()
		default:
			keep = append(keep, tm)
		}
	}
	clear(c.timers[len(keep):])
	c.timers = keep
}
