package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// sseServer answers every stream with the retry line, then one livescore event each time the
// file at flag is touched, as sportsdb does when an import commits.
func sseServer(t *testing.T, flag string) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	changed := make(chan struct{})
	stop := make(chan struct{})
	go func() {
		var last time.Time
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if fi, err := os.Stat(flag); err == nil && fi.ModTime() != last {
				last = fi.ModTime()
				mu.Lock()
				close(changed)
				changed = make(chan struct{})
				mu.Unlock()
			}
		}
	}()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-KEY") != "k" || r.URL.Path != "/api/v2/json/stream/livescore" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "retry: 1000\n\n")
		w.(http.Flusher).Flush()
		for id := 1; ; id++ {
			mu.Lock()
			wait := changed
			mu.Unlock()
			select {
			case <-wait:
			case <-r.Context().Done():
				return
			}
			fmt.Fprintf(w, "id: %d\nevent: livescore\ndata: {}\n\n", id)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(func() { close(stop); hs.Close() })
	return hs
}

// loadgen streams opens every stream, and times each change's arrival on all of them.
func TestStreamsDelivers(t *testing.T) {
	dir := t.TempDir()
	flag := filepath.Join(dir, "committed")
	hs := sseServer(t, flag)
	c := streamsConfig{addr: strings.TrimPrefix(hs.URL, "http://"), key: "k", path: "/api/v2/json/stream/livescore",
		n: 50, sources: 2, pid: os.Getpid(), changes: 2, importer: []string{"touch", flag},
		settle: time.Millisecond, timeout: 20 * time.Second}
	res, err := runStreams(context.Background(), c, filepath.Join(dir, "livescore.json"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Delivered != 100 || res.Missed != 0 || res.RSSBeforeKB <= 0 || res.P99MS < res.P50MS || res.MaxMS < res.P99MS {
		t.Fatalf("result %+v: want 100 deliveries, none missed, an RSS and ordered percentiles", res)
	}
	// A refused stream fails the run with the server's answer.
	c.key = "wrong"
	if _, err := runStreams(context.Background(), c, filepath.Join(dir, "livescore.json"), io.Discard); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Fatalf("a refused stream: %v, want the HTTP 401", err)
	}
}
