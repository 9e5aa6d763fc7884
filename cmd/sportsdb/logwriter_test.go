package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestBufferedLogReachesTheOutput(t *testing.T) {
	var out lockedBuffer
	b := newBufferedLog(&out)
	b.Write([]byte("first line\n"))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "first line") {
		if time.Now().After(deadline) {
			t.Fatal("a buffered line was not flushed by the ticker")
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Write([]byte("last line\n"))
	b.Close()
	if !strings.HasSuffix(out.String(), "last line\n") {
		t.Fatalf("Close lost a line: %q", out.String())
	}
}
