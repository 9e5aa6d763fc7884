package live

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// slowFeed is a feed of five changes whose catch-up reads (from cursor 0) wait until their
// request ends, as a long read of the store does; entered is closed when one has begun.
type slowFeed struct {
	entered chan struct{}
	once    sync.Once
}

func (f *slowFeed) Changes(ctx context.Context, since int64, _ []*record.Kind, _ int) ([]store.Change, int64, error) {
	if since != 0 {
		return nil, 5, nil
	}
	f.once.Do(func() { close(f.entered) })
	<-ctx.Done()
	return nil, 0, ctx.Err()
}

func (f *slowFeed) LatestCursor(context.Context) (int64, error) { return 5, nil }

func (f *slowFeed) DataVersion(context.Context) (int64, error) { return 1, nil }

func (f *slowFeed) Get(context.Context, *record.Kind, string) (record.Record, error) {
	return record.Record{}, store.ErrNotFound
}

// A client that closes its stream while the stream catches up from the store has left; the
// stream ends without a failure logged.
func TestClientLeavingDuringCatchUpIsNoFailure(t *testing.T) {
	feed := &slowFeed{entered: make(chan struct{})}
	var logs testsupport.LogBuffer
	h := NewHub(Renderer{Src: feed}, nil, slog.New(slog.NewTextHandler(&logs, nil)))
	ended := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetHeaders(w.Header())
		if err := h.Serve(r.Context(), context.Background(), w, r, Filter{}, 0, func() { close(ended) }); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}))
	defer hs.Close()

	resp, err := http.Get(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "retry: 1000\n" {
		t.Fatalf("first line %q, %v; want the retry delay", line, err)
	}
	select {
	case <-feed.entered:
	case <-time.After(15 * time.Second):
		t.Fatal("the stream did not start its catch-up")
	}
	resp.Body.Close()
	select {
	case <-ended:
	case <-time.After(15 * time.Second):
		t.Fatal("the stream did not end when its client left")
	}
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("a client leaving was logged as a failure:\n%s", logs.String())
	}
}

// A stream whose stop ends (its key was revoked) ends with a complete answer.
func TestStopEndsTheStream(t *testing.T) {
	feed := &slowFeed{entered: make(chan struct{})}
	h := NewHub(Renderer{Src: feed}, nil, slog.New(slog.DiscardHandler))
	stop, cancel := context.WithCancel(context.Background())
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetHeaders(w.Header())
		_ = h.Serve(r.Context(), stop, w, r, Filter{}, store.FromOldest, nil)
	}))
	defer hs.Close()
	resp, err := http.Get(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "retry: 1000\n" {
		t.Fatalf("first line %q, %v; want the retry delay", line, err)
	}
	cancel()
	var rest bytes.Buffer
	if _, err := rest.ReadFrom(br); err != nil {
		t.Fatalf("the stream ended without a complete answer: %v", err)
	}
}
