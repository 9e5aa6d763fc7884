package server

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Without a waiter, the deadline still shows in Err; with one, Done closes at the deadline,
// not before. No margins of time: a deadline an hour away has not passed, one already past
// has.
func TestLazyDeadline(t *testing.T) {
	c := withLazyDeadline(context.Background(), time.Hour, nil)
	if d, ok := c.Deadline(); !ok || time.Until(d) > time.Hour {
		t.Fatalf("Deadline = %v %v", d, ok)
	}
	if c.Err() != nil || c.real.Load() != nil {
		t.Fatalf("before the deadline: Err %v, timer made %v", c.Err(), c.real.Load() != nil)
	}
	c.stop()

	c = withLazyDeadline(context.Background(), -time.Nanosecond, nil)
	if !errors.Is(c.Err(), context.DeadlineExceeded) || c.real.Load() != nil {
		t.Fatalf("past the deadline, nobody waiting: Err %v, timer made %v", c.Err(), c.real.Load() != nil)
	}
	<-c.Done() // asked for past the deadline, it closes (the test's timeout catches a hang)
	c.stop()

	c = withLazyDeadline(context.Background(), 30*time.Millisecond, nil)
	child, cancel := context.WithCancel(c) // a derived context waits on it
	defer cancel()
	<-child.Done()
	if now := time.Now(); now.Before(c.deadline) {
		t.Fatalf("cancelled %v before the deadline", c.deadline.Sub(now))
	}
	if !errors.Is(child.Err(), context.DeadlineExceeded) || !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err: child %v, ctx %v", child.Err(), c.Err())
	}
	c.stop()
}

// Cancelling the request cancels the context, whether or not its timer was made, and values
// of the request's context stay visible.
func TestLazyDeadlineFollowsItsParent(t *testing.T) {
	type key struct{}
	for _, waiting := range []bool{false, true} {
		parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
		c := withLazyDeadline(parent, time.Hour, nil)
		if waiting {
			_ = c.Done()
		}
		if c.Value(key{}) != "v" {
			t.Fatalf("waiting=%v: value lost", waiting)
		}
		cancel()
		if !errors.Is(c.Err(), context.Canceled) {
			t.Fatalf("waiting=%v: Err after the request was cancelled: %v", waiting, c.Err())
		}
		<-c.Done() // closed once the request is cancelled (the test's timeout catches a hang)
		c.stop()
	}
}

// On a test's clock (DeadlineClock) the deadline behaves as on the wall clock: Done closes
// once the clock reaches it, not before, with DeadlineExceeded in the contexts derived from
// it too; a cancelled request cancels it, and its values stay visible.
func TestLazyDeadlineOnATestClock(t *testing.T) {
	clk := NewDeadlineClock()
	c := withLazyDeadline(context.Background(), time.Minute, clk)
	if d, ok := c.Deadline(); !ok || !d.Equal(clk.Now().Add(time.Minute)) {
		t.Fatalf("Deadline = %v %v", d, ok)
	}
	child, cancel := context.WithCancel(c) // a derived context waits on it
	defer cancel()
	clk.Advance(time.Minute - time.Nanosecond)
	select {
	case <-child.Done():
		t.Fatalf("cancelled before the deadline: %v", child.Err())
	default:
	}
	if c.Err() != nil {
		t.Fatalf("before the deadline: Err %v", c.Err())
	}
	clk.Advance(time.Nanosecond)
	<-child.Done() // the test's timeout catches a hang
	if !errors.Is(child.Err(), context.DeadlineExceeded) || !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err: child %v, ctx %v", child.Err(), c.Err())
	}
	c.stop()

	c = withLazyDeadline(context.Background(), time.Minute, clk)
	clk.Advance(time.Minute)
	if !errors.Is(c.Err(), context.DeadlineExceeded) || c.real.Load() != nil {
		t.Fatalf("past the deadline, nobody waiting: Err %v, timer made %v", c.Err(), c.real.Load() != nil)
	}
	<-c.Done()
	c.stop()

	type key struct{}
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	c = withLazyDeadline(parent, time.Minute, clk)
	_ = c.Done()
	if c.Value(key{}) != "v" {
		t.Fatal("value lost")
	}
	cancelParent()
	<-c.Done()
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err after the request was cancelled: %v", c.Err())
	}
	c.stop()
}
