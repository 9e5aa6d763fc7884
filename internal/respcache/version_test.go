package respcache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// No caller may get a version older than the one committed when it arrived, however the
// calls and commits interleave; and concurrent callers share reads.
func TestVersionGateNeverAnswersOlderThanArrival(t *testing.T) {
	var committed, reads atomic.Int64
	g := newVersionGate(func(context.Context) (int64, error) {
		reads.Add(1)
		v := committed.Load() // the read's snapshot is taken when it starts
		time.Sleep(200 * time.Microsecond)
		return v, nil
	})
	stop := make(chan struct{})
	var writer sync.WaitGroup
	writer.Add(1)
	go func() {
		defer writer.Done()
		for {
			select {
			case <-stop:
				return
			default:
				committed.Add(1)
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	var wg sync.WaitGroup
	var calls, stale atomic.Int64
	for w := 0; w < 64; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				arrived := committed.Load()
				v, err := g.get(context.Background())
				calls.Add(1)
				if err != nil || v < arrived {
					stale.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	writer.Wait()
	if stale.Load() != 0 {
		t.Fatalf("%d of %d calls got a version older than their arrival", stale.Load(), calls.Load())
	}
	if reads.Load() >= calls.Load()/2 {
		t.Fatalf("reads are not shared: %d reads for %d calls", reads.Load(), calls.Load())
	}
	t.Logf("%d calls, %d reads", calls.Load(), reads.Load())
}

func TestVersionGateErrorsAndCancellation(t *testing.T) {
	boom := errors.New("database down")
	release := make(chan struct{})
	g := newVersionGate(func(context.Context) (int64, error) {
		<-release
		return 0, boom
	})
	first := make(chan error, 1)
	go func() { _, err := g.get(context.Background()); first <- err }()
	for { // wait until the first read is under way
		g.mu.Lock()
		running := g.running
		g.mu.Unlock()
		if running {
			break
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() { _, err := g.get(ctx); waiter <- err }()
	time.Sleep(5 * time.Millisecond)
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	close(release)
	if err := <-first; !errors.Is(err, boom) {
		t.Fatalf("first caller: %v", err)
	}
	if _, err := g.get(context.Background()); !errors.Is(err, boom) {
		t.Fatalf("later caller: %v", err)
	}
}
