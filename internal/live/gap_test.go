package live

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// burstFeed is a listening feed whose commits the test makes: each is a delete of a team,
// announced to the watcher as PostgreSQL's notifications are. fetches gets the cursor of
// each read of the changes and how many it returned.
type burstFeed struct {
	mu      sync.Mutex
	changes []store.Change
	notify  func()
	ready   chan struct{} // closed once the watcher listens
	fetches chan [2]int64
}

func (f *burstFeed) commit() {
	f.mu.Lock()
	c := int64(len(f.changes) + 1)
	f.changes = append(f.changes, store.Change{Cursor: c, Kind: record.Team, ID: fmt.Sprint(c), Op: store.OpDelete})
	notify := f.notify
	f.mu.Unlock()
	notify()
}

func (f *burstFeed) Changes(_ context.Context, since int64, _ []*record.Kind, _ int) ([]store.Change, int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.changes[since:]
	f.fetches <- [2]int64{since, int64(len(out))}
	return out, int64(len(f.changes)), nil
}

func (f *burstFeed) LatestCursor(context.Context) (int64, error) { return 0, nil }

func (f *burstFeed) DataVersion(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int64(len(f.changes)), nil
}

func (f *burstFeed) Get(context.Context, *record.Kind, string) (record.Record, error) {
	return record.Record{}, store.ErrNotFound
}

func (f *burstFeed) Listen(ctx context.Context, fn func()) error {
	f.mu.Lock()
	f.notify = fn
	f.mu.Unlock()
	close(f.ready)
	<-ctx.Done()
	return ctx.Err()
}

// While the data keeps changing, the watcher publishes at most every publishGap: a commit
// right after a publish waits out the gap, and the commits made meanwhile are read and
// published with it, once; a commit after a quiet spell is published at once.
func TestHubPublishesABurstTogether(t *testing.T) {
	feed := &burstFeed{ready: make(chan struct{}), fetches: make(chan [2]int64, 16)}
	h := NewHub(Renderer{Src: feed}, nil, nil)
	clk := clock.NewManual(time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC))
	waits, fire := make(chan time.Duration, 1), make(chan time.Time)
	h.now = clk.Now
	h.timer = func(d time.Duration) <-chan time.Time { waits <- d; return fire }
	ctx := context.Background()
	if err := h.subscribe(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.unsubscribe()
	fetched := func(since, n int64) {
		t.Helper()
		if got := <-feed.fetches; got != [2]int64{since, n} {
			t.Fatalf("read %d changes after %d, want %d after %d", got[1], got[0], n, since)
		}
	}
	<-feed.ready
	fetched(0, 0) // the watcher's first look

	feed.commit() // after a quiet spell: published at its notification
	fetched(0, 1)
	feed.commit() // within the gap: the watcher waits it out
	select {
	case d := <-waits:
		if d != publishGap {
			t.Fatalf("waited %v after a publish, want %v", d, publishGap)
		}
	case got := <-feed.fetches:
		t.Fatalf("read the feed at once after a publish: %v", got)
	}
	feed.commit()
	feed.commit()
	select {
	case got := <-feed.fetches:
		t.Fatalf("read the feed during the gap: %v", got)
	default:
	}
	clk.Advance(publishGap)
	fire <- clk.Now()
	fetched(1, 3) // the three commits, in one read and one publish
	for v := h.after(1); v.head != 4; v = h.after(1) {
		<-v.wait // the publish that follows the read (the test's timeout catches none)
	}
}
