package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// flushInterval bounds how long a log line waits in the buffer.
const flushInterval = 200 * time.Millisecond

// bufferedLog batches log lines into few writes: one write per access-log line would be a
// system call on every request. Lines reach the output within flushInterval, when the buffer
// fills, and on Close.
type bufferedLog struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newBufferedLog(out io.Writer) *bufferedLog {
	b := &bufferedLog{w: bufio.NewWriterSize(out, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushLoop()
	return b
}

func (b *bufferedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *bufferedLog) flushLoop() {
	defer close(b.done)
	t := time.NewTicker(flushInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			b.flush()
		case <-b.stop:
			b.flush()
			return
		}
	}
}

func (b *bufferedLog) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.w.Flush()
}

// Close writes out what is buffered and stops the flusher.
func (b *bufferedLog) Close() error {
	close(b.stop)
	<-b.done
	return nil
}
