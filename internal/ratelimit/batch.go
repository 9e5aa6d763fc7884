package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"
)

// maxBatch bounds the keys of one script call, so one call never holds Redis's single thread
// for long; a larger backlog goes out in the calls that follow.
const maxBatch = 256

// errNoClient reports a batch run before any Redis client exists; Allow never queues then.
var errNoClient = errors.New("ratelimit: no Redis client")

// pending is one request waiting for its decision. done is closed once d and err are set.
type pending struct {
	id    string
	limit int
	d     Decision
	err   error
	done  chan struct{}
}

// batcher turns the requests that arrive while a Redis call is in flight into one script
// call: Redis pays the call's fixed cost (parsing, script setup, TIME) once per batch instead
// of once per request. With nothing in flight a request is sent at once, by its own
// goroutine, so an idle limiter adds no latency; a request waits for at most the one call in
// flight (and, past maxBatch waiting requests, the calls ahead of it).
type batcher struct {
	run func([]*pending) // decides a batch, setting every entry's d or err

	mu    sync.Mutex
	queue []*pending
	busy  bool // a call is in flight, or about to be
	max   int  // keys per call; 1 on a Redis Cluster, whose keys live on many nodes, or before connecting
}

// decide sends q in the next call and waits for its answer, or for ctx to end.
func (b *batcher) decide(ctx context.Context, q *pending) error {
	b.mu.Lock()
	if b.max <= 1 {
		// One key per call: nothing to gather, so calls run side by side.
		b.mu.Unlock()
		b.run([]*pending{q})
		return nil
	}
	b.queue = append(b.queue, q)
	if b.busy {
		b.mu.Unlock()
		select {
		case <-q.done:
			return nil
		case <-ctx.Done():
			// The call may still count the request: as with any request abandoned in flight.
			return fmt.Errorf("ratelimit: %w", ctx.Err())
		}
	}
	b.busy = true
	batch := b.takeLocked()
	b.mu.Unlock()
	b.run(batch)
	if next := b.next(); next != nil {
		// Requests gathered meanwhile go out from another goroutine, so this one answers its
		// own request now.
		go b.drain(next)
	}
	return nil
}

// drain runs batches until no request is waiting.
func (b *batcher) drain(batch []*pending) {
	for batch != nil {
		b.run(batch)
		batch = b.next()
	}
}

// next takes the waiting requests as the next batch, or marks the batcher idle.
func (b *batcher) next() []*pending {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.busy = false
		return nil
	}
	return b.takeLocked()
}

// takeLocked removes up to max requests from the head of the queue, oldest first.
func (b *batcher) takeLocked() []*pending {
	n := min(len(b.queue), b.max)
	batch := b.queue[:n:n]
	if n == len(b.queue) {
		b.queue = nil
	} else {
		b.queue = append([]*pending(nil), b.queue[n:]...)
	}
	return batch
}

// runBatch decides a batch in one script call on the current client.
func (r *Redis) runBatch(batch []*pending) {
	err := errNoClient
	if c := r.client.Load(); c != nil {
		ctx, cancel := r.callContext()
		err = r.evalBatch(ctx, *c, batch)
		cancel()
	}
	for _, q := range batch {
		if err != nil {
			q.err = err
		}
		close(q.done)
	}
}

// callContext bounds one script call by r.timeout with a timer, not a deadline: given a
// deadline and no other call in flight (the usual case once calls are batched) the client
// talks over the connection synchronously and leaves it unwatched in between, so a connection
// that Redis or the network closed is only found by the next call, which fails; without one it
// keeps a reader on every connection that replaces a closed one at once.
func (r *Redis) callContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	t := time.AfterFunc(r.timeout, cancel)
	return ctx, func() {
		t.Stop()
		cancel()
	}
}

// evalBatch runs slidingLog on every request of batch, in order, and sets their decisions.
func (r *Redis) evalBatch(ctx context.Context, c rueidis.Client, batch []*pending) error {
	keys := make([]string, len(batch))
	args := make([]string, 1+len(batch))
	args[0] = strconv.FormatInt(Window.Microseconds(), 10)
	for i, q := range batch {
		keys[i] = r.prefix + q.id
		args[1+i] = strconv.Itoa(q.limit)
	}
	res, err := slidingLog.Exec(ctx, c, keys, args).AsIntSlice()
	if err != nil {
		return fmt.Errorf("ratelimit: Redis sliding log: %w", err)
	}
	if len(res) != 3*len(batch) {
		return fmt.Errorf("ratelimit: Redis sliding log answered %d values for %d keys, want %d",
			len(res), len(batch), 3*len(batch))
	}
	for i, q := range batch {
		admitted, count, reset := res[3*i], res[3*i+1], res[3*i+2]
		d := Decision{Allowed: admitted == 1, Limit: q.limit, Remaining: max(q.limit-int(count), 0)}
		d.Reset = durationNanos(reset * int64(time.Microsecond))
		if !d.Allowed {
			d.RetryAfter = d.Reset
		}
		q.d = d
	}
	return nil
}
