package main

import (
	"io"
	"sync"
	"time"
)

const (
	// flushInterval bounds how long a log line waits in the buffer.
	flushInterval = 200 * time.Millisecond
	// flushBytes is how much buffered text wakes the writer before its interval is up.
	flushBytes = 32 << 10
	// maxPending is how much text may wait for the output; past it, logging waits for the
	// writer, so a stalled output slows the server rather than losing lines or memory.
	maxPending = 4 << 20
)

// bufferedLog batches log lines into few writes, and keeps the writes off the requests'
// path: one write per access-log line would be a system call on every request, made before
// the answer leaves (the access log is written when the handler returns), and a write that
// stalls (a slow disk, a full pipe to the system journal) would hold every request that logs
// meanwhile. Lines are appended to a buffer; one goroutine writes it out, outside the lock,
// every flushInterval, once flushBytes are waiting, and on Close.
type bufferedLog struct {
	out  io.Writer
	mu   sync.Mutex
	room *sync.Cond // signalled when a write has taken the pending text
	buf  []byte     // the pending text
	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

func newBufferedLog(out io.Writer) *bufferedLog {
	b := &bufferedLog{out: out, buf: make([]byte, 0, 64<<10),
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	b.room = sync.NewCond(&b.mu)
	go b.flushLoop()
	return b
}

func (b *bufferedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	for len(b.buf) > 0 && len(b.buf)+len(p) > maxPending {
		b.poke()
		b.room.Wait()
	}
	b.buf = append(b.buf, p...)
	n := len(b.buf)
	b.mu.Unlock()
	if n >= flushBytes {
		b.poke()
	}
	return len(p), nil
}

// poke wakes the writer, if it is not awake already.
func (b *bufferedLog) poke() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *bufferedLog) flushLoop() {
	defer close(b.done)
	t := time.NewTicker(flushInterval)
	defer t.Stop()
	var spare []byte
	for {
		select {
		case <-t.C:
		case <-b.wake:
		case <-b.stop:
			b.flush(spare)
			return
		}
		spare = b.flush(spare)
	}
}

// flush writes out the pending text, swapping in spare as the new buffer, and returns the
// written buffer to be the next spare.
func (b *bufferedLog) flush(spare []byte) []byte {
	b.mu.Lock()
	text := b.buf
	b.buf = spare[:0]
	b.room.Broadcast()
	b.mu.Unlock()
	if len(text) > 0 {
		_, _ = b.out.Write(text)
	}
	if cap(text) > 1<<20 { // after a burst, do not keep its buffer
		return nil
	}
	return text
}

// Close writes out what is buffered and stops the writer.
func (b *bufferedLog) Close() error {
	close(b.stop)
	<-b.done
	return nil
}
