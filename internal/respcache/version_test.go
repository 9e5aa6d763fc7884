package respcache

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
)

// gatedRead is a data-version read that the test lets through one at a time: each read
// reports that it started (and the version committed by then, its snapshot) and waits to be
// released.
type gatedRead struct {
	mu        sync.Mutex
	committed int64
	started   chan int64
	release   chan error
}

func newGatedRead() *gatedRead {
	return &gatedRead{started: make(chan int64, 16), release: make(chan error)}
}

func (g *gatedRead) commit() {
	g.mu.Lock()
	g.committed++
	g.mu.Unlock()
}

func (g *gatedRead) read(ctx context.Context) (int64, error) {
	g.mu.Lock()
	v := g.committed
	g.mu.Unlock()
	g.started <- v
	select {
	case err := <-g.release:
		return v, err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// queued waits until n callers wait for the gate's next read.
func queued(g *versionGate, n int) {
	for {
		g.mu.Lock()
		k := 0
		if g.next != nil {
			k = g.next.waiters
		}
		g.mu.Unlock()
		if k >= n {
			return
		}
		runtime.Gosched()
	}
}

// A caller that arrives while a read is under way does not take that read's answer (it may
// predate a commit the caller must see): it waits for the next read, which starts after the
// first ends, and which every caller queued meanwhile shares.
func TestVersionGateNeverAnswersOlderThanArrival(t *testing.T) {
	src := newGatedRead()
	g := newVersionGate(src.read)
	first := make(chan int64, 1)
	go func() { v, _ := g.get(context.Background()); first <- v }()
	if v := <-src.started; v != 0 {
		t.Fatalf("first read's snapshot %d", v)
	}
	src.commit() // committed while the first read is under way: its callers must see it
	const n = 8
	later := make(chan int64, n)
	for range n {
		go func() { v, _ := g.get(context.Background()); later <- v }()
	}
	queued(g, n)
	src.release <- nil
	if v := <-first; v != 0 {
		t.Fatalf("first caller: version %d, want 0", v)
	}
	if v := <-src.started; v != 1 {
		t.Fatalf("second read's snapshot %d, want 1", v)
	}
	src.release <- nil
	for range n {
		if v := <-later; v != 1 {
			t.Fatalf("a caller that arrived after the commit got version %d", v)
		}
	}
	select {
	case v := <-src.started:
		t.Fatalf("a third read (snapshot %d): the queued callers did not share one", v)
	default:
	}
}

func TestVersionGateErrorsAndCancellation(t *testing.T) {
	boom := errors.New("database down")
	src := newGatedRead()
	g := newVersionGate(src.read)
	first := make(chan error, 1)
	go func() { _, err := g.get(context.Background()); first <- err }()
	<-src.started // the first read is under way
	ctx, cancel := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() { _, err := g.get(ctx); waiter <- err }()
	queued(g, 1)
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	src.release <- boom
	if err := <-first; !errors.Is(err, boom) {
		t.Fatalf("first caller: %v", err)
	}
	// The read queued for the cancelled waiter runs and fails too; a later caller gets its
	// own read's error.
	<-src.started
	src.release <- boom
	later := make(chan error, 1)
	go func() { _, err := g.get(context.Background()); later <- err }()
	<-src.started
	src.release <- boom
	if err := <-later; !errors.Is(err, boom) {
		t.Fatalf("later caller: %v", err)
	}
}
