package live

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"

	"sportsdb/internal/store"
)

const (
	// pollSQLite: how often the watcher compares the data version on SQLite, where imports
	// come from other processes. A comparison of the -shm header when nothing changed.
	pollSQLite = 100 * time.Millisecond
	// pollListening: on PostgreSQL notifications wake the watcher; the poll is the fallback
	// for a lost listening connection, still within the 1 s the contract allows.
	pollListening = 500 * time.Millisecond
	// publishGap is the least time between two publishes while the data keeps changing: the
	// changes of a burst of commits (a notification each on PostgreSQL, several polls on
	// SQLite) go to the streams together, one write to each connection, rather than one
	// write per commit. A change that comes after a quiet spell is published at its poll or
	// notification.
	publishGap = 200 * time.Millisecond
	// fetchPage changes are read and rendered at a time.
	fetchPage = 500
	// windowSize recent events stay in memory; a stream further behind reads the store.
	windowSize = 4096
)

// Hub follows the change feed with one watcher goroutine, which runs while streams are
// open, and keeps the latest events for them. Streams wait on a channel that is closed and
// replaced at each publish, so one change wakes every stream without a queue per stream.
type Hub struct {
	rd       Renderer
	poll     time.Duration
	pingGap  time.Duration // between two pings of idle streams
	draining func() bool
	log      *slog.Logger

	mu     sync.RWMutex // read by every stream a publish wakes, at once
	subs   int
	gen    int // of the running watcher; a stopped one publishes nothing
	cancel context.CancelFunc
	base   int64   // the window holds every event after base up to head
	head   int64   // the feed has been read up to here
	window []Event // in cursor order
	// changed is closed and replaced at each publish, ping and stop: a stream waits on it
	// alone, so that one wake-up of every stream takes no lock shared by all of them.
	changed chan struct{}
	pings   int64 // pings so far: one ticker for every stream
	stopped bool  // the server drains

	// now and timer are the watcher's clock for the gap between publishes (publishGap):
	// time.Now and time.After, a test's own in tests.
	now   func() time.Time
	timer func(time.Duration) <-chan time.Time
}

// NewHub returns a hub on the store of rd. draining, when it turns true, ends every stream.
func NewHub(rd Renderer, draining func() bool, log *slog.Logger) *Hub {
	poll := pollSQLite
	if _, ok := rd.Src.(Listener); ok {
		poll = pollListening
	}
	if log == nil {
		log = slog.Default()
	}
	return &Hub{rd: rd, poll: poll, pingGap: DefaultPing, draining: draining, log: log,
		changed: make(chan struct{}), now: time.Now, timer: time.After}
}

// SetPing sets how often idle streams send a ping comment (DefaultPing unless set); it holds
// from the next time streams open on an idle hub.
func (h *Hub) SetPing(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pingGap = d
}

// subscribe counts a stream in, starting the watcher for the first one.
func (h *Hub) subscribe(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == 0 {
		latest, err := h.rd.Src.LatestCursor(ctx)
		if err != nil {
			return err
		}
		h.gen++
		h.base, h.head, h.window = latest, latest, nil
		wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		h.cancel = cancel
		go h.watch(wctx, h.gen)
		go h.ping(wctx, h.pingGap)
	}
	h.subs++
	return nil
}

// unsubscribe counts a stream out, stopping the watcher after the last one.
func (h *Hub) unsubscribe() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs--; h.subs == 0 {
		h.cancel()
		h.gen++
	}
}

// view is what a stream at pos sees: the events after it, the head they lead to, the
// channel that closes at the next publish, ping or stop, the pings so far, whether pos is
// behind the window, and whether the server drains.
type view struct {
	events  []Event
	head    int64
	wait    <-chan struct{}
	pings   int64
	behind  bool
	stopped bool
}

func (h *Hub) after(pos int64) view {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if pos < h.base {
		return view{head: h.head, wait: h.changed, pings: h.pings, behind: true, stopped: h.stopped}
	}
	i := sort.Search(len(h.window), func(i int) bool { return h.window[i].Cursor > pos })
	return view{events: h.window[i:len(h.window):len(h.window)], head: h.head, wait: h.changed, pings: h.pings, stopped: h.stopped}
}

// publish adds events read up to next, if the watcher of gen is still the running one.
func (h *Hub) publish(gen int, evs []Event, next int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if gen != h.gen || next <= h.head {
		return
	}
	for i := range evs {
		evs[i].frames = &frameMemo{}
	}
	h.window = append(h.window, evs...)
	if n := len(h.window) - windowSize; n > 0 {
		h.base = h.window[n-1].Cursor
		h.window = append([]Event(nil), h.window[n:]...)
	}
	h.head = next
	h.wake()
}

// restart forgets the window when the feed expired under the watcher (it fell behind the
// retention): every stream reads the store again, and gets a reset.
func (h *Hub) restart(gen int, latest int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if gen != h.gen {
		return
	}
	h.base, h.head, h.window = latest, latest, nil
	h.wake()
}

func (h *Hub) cursor() int64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.head
}

func (h *Hub) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.stopped {
		h.stopped = true
		h.wake()
	}
}

// wake wakes every stream; h.mu is held.
func (h *Hub) wake() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// ping wakes every idle stream for a ping every gap until ctx ends.
func (h *Hub) ping(ctx context.Context, gap time.Duration) {
	tick := time.NewTicker(gap)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		h.mu.Lock()
		h.pings++
		h.wake()
		h.mu.Unlock()
	}
}

// watch reads the feed whenever the data version moves (or a notification comes) until
// ctx ends.
func (h *Hub) watch(ctx context.Context, gen int) {
	wake := make(chan struct{}, 1)
	if l, ok := h.rd.Src.(Listener); ok {
		go h.listen(ctx, l, wake)
	}
	tick := time.NewTicker(h.poll)
	defer tick.Stop()
	seen := int64(-1)
	failing := false // a failure is logged once, not at every poll until the database is back
	var published time.Time
	for {
		if h.draining != nil && h.draining() {
			h.stop()
		}
		head := h.cursor()
		err := h.poll1(ctx, gen, &seen)
		if err != nil && !failing {
			h.warn(ctx, "live: follow the change feed", err)
		}
		failing = err != nil
		if h.cursor() != head {
			published = h.now()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-wake:
		}
		// Past a publish, the next waits out the gap: what commits meanwhile goes with it.
		if wait := publishGap - h.now().Sub(published); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-h.timer(wait):
			}
		}
	}
}

// poll1 reads the feed when the data version moved past seen.
func (h *Hub) poll1(ctx context.Context, gen int, seen *int64) error {
	v, err := h.rd.Src.DataVersion(ctx)
	if err != nil || v == *seen {
		return err
	}
	if err := h.fetch(ctx, gen); err != nil {
		return err
	}
	*seen = v
	return nil
}

func (h *Hub) listen(ctx context.Context, l Listener, wake chan struct{}) {
	for ctx.Err() == nil {
		err := l.Listen(ctx, func() {
			select {
			case wake <- struct{}{}:
			default:
			}
		})
		if ctx.Err() != nil {
			return
		}
		h.warn(ctx, "live: listen for changes", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// fetch reads and publishes every change after the head.
func (h *Hub) fetch(ctx context.Context, gen int) error {
	for {
		cs, next, err := h.rd.Src.Changes(ctx, h.cursor(), nil, fetchPage)
		if errors.Is(err, store.ErrCursorExpired) {
			latest, lerr := h.rd.Src.LatestCursor(ctx)
			if lerr != nil {
				return lerr
			}
			h.restart(gen, latest)
			return nil
		}
		if err != nil {
			return err
		}
		evs, err := h.rd.RenderAll(ctx, cs)
		if err != nil {
			return err
		}
		h.publish(gen, evs, next)
		if len(cs) < fetchPage || ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

func (h *Hub) warn(ctx context.Context, msg string, err error) {
	if ctx.Err() == nil {
		h.log.Warn(msg, "err", err)
	}
}
