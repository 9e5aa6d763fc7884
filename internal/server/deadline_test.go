package server

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Without a waiter, the deadline still shows in Err; with one, Done closes at the deadline.
func TestLazyDeadline(t *testing.T) {
	c := withLazyDeadline(context.Background(), 20*time.Millisecond)
	if d, ok := c.Deadline(); !ok || time.Until(d) > 20*time.Millisecond {
		t.Fatalf("Deadline = %v %v", d, ok)
	}
	if c.Err() != nil || c.real.Load() != nil {
		t.Fatalf("before the deadline: Err %v, timer made %v", c.Err(), c.real.Load() != nil)
	}
	time.Sleep(25 * time.Millisecond)
	if !errors.Is(c.Err(), context.DeadlineExceeded) || c.real.Load() != nil {
		t.Fatalf("past the deadline, nobody waiting: Err %v, timer made %v", c.Err(), c.real.Load() != nil)
	}
	select {
	case <-c.Done():
	case <-time.After(time.Second):
		t.Fatal("Done asked for past the deadline did not close")
	}
	c.stop()

	c = withLazyDeadline(context.Background(), 30*time.Millisecond)
	child, cancel := context.WithCancel(c) // a derived context waits on it
	defer cancel()
	start := time.Now()
	select {
	case <-child.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("a derived context was not cancelled at the deadline")
	}
	if waited := time.Since(start); waited < 25*time.Millisecond {
		t.Fatalf("cancelled after %v, before the deadline", waited)
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
		c := withLazyDeadline(parent, time.Hour)
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
		select {
		case <-c.Done():
		case <-time.After(time.Second):
			t.Fatalf("waiting=%v: Done not closed after the request was cancelled", waiting)
		}
		c.stop()
	}
}
