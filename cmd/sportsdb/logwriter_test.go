package main

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/testsupport"
)

func TestBufferedLogReachesTheOutput(t *testing.T) {
	var out testsupport.LogBuffer
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

// gatedWriter blocks every write until its gate is opened, like a stalled disk or a full pipe.
type gatedWriter struct {
	gate    chan struct{}
	entered chan struct{}
	out     testsupport.LogBuffer
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.gate
	return g.out.Write(p)
}

func TestBufferedLogDoesNotWaitForAStalledOutput(t *testing.T) {
	g := &gatedWriter{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	b := newBufferedLog(g)
	line := strings.Repeat("x", 99) + "\n"
	b.Write([]byte(line))
	<-g.entered // the writer is now stuck in the output
	// Lines keep being taken, well past what wakes the writer, while the output is stalled.
	wrote := make(chan struct{})
	go func() {
		for range 2 * flushBytes / len(line) {
			b.Write([]byte(line))
		}
		close(wrote)
	}()
	select {
	case <-wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("logging waited for a stalled output")
	}
	close(g.gate)
	b.Close()
	if got, want := g.out.String(), strings.Repeat(line, 1+2*flushBytes/len(line)); got != want {
		t.Fatalf("output has %d bytes, want %d in order", len(got), len(want))
	}
}

func TestBufferedLogHoldsBackWhenTooMuchWaits(t *testing.T) {
	g := &gatedWriter{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	b := newBufferedLog(g)
	b.Write([]byte("first\n"))
	<-g.entered
	big := make([]byte, maxPending/2)
	for i := range big {
		big[i] = 'y'
	}
	b.Write(big)
	b.Write(big[:len(big)-1])
	done := make(chan struct{})
	go func() {
		b.Write([]byte("more\n")) // past maxPending: waits for the output
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("a write past maxPending did not wait")
	case <-time.After(100 * time.Millisecond):
	}
	close(g.gate)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting write was not let through once the output took the text")
	}
	b.Close()
	if got := g.out.String(); len(got) != 6+len(big)*2-1+5 || !strings.HasSuffix(got, "more\n") {
		t.Fatalf("output of %d bytes, want every line", len(got))
	}
}

func TestBufferedLogKeepsEveryLineOfConcurrentWriters(t *testing.T) {
	var out testsupport.LogBuffer
	b := newBufferedLog(&out)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5000 {
				b.Write([]byte("w" + strconv.Itoa(w) + " " + strconv.Itoa(i) + "\n"))
			}
		}()
	}
	wg.Wait()
	b.Close()
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if seen[l] {
			t.Fatalf("line %q twice", l)
		}
		seen[l] = true
	}
	if len(seen) != 8*5000 {
		t.Fatalf("%d lines, want %d", len(seen), 8*5000)
	}
}
