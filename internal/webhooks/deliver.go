// Package webhooks delivers the change feed to registered webhooks (docs/WEBHOOKS.md,
// docs/CONTRACT.md section 15): the API and the command line register them per key; the
// Deliverer POSTs each matching change, signed as Standard Webhooks sign, in cursor order
// per webhook, at least once, retrying for 24 hours before disabling the webhook. Each
// webhook's cursor and lease are its row of the store's push progress, so one replica
// delivers it at a time and a restart resumes after the last 2xx.
package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// Source is the store the deliverer reads and keeps its progress in.
type Source interface {
	store.Records
	store.Feed
	store.Pushes
	store.Webhooks
	store.Keys
}

// GiveUp is how long a webhook keeps failing before it is disabled.
const GiveUp = 24 * time.Hour

// Retry is the wait after the nth failure in a row (1-based): growing to an hour, the
// schedule Standard Webhooks suggest in spirit.
func Retry(n int) time.Duration {
	steps := []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute}
	if n >= 1 && n <= len(steps) {
		return steps[n-1]
	}
	return time.Hour
}

// Event is what a delivery attempt came to, told to Options.Observe (tests wait on them).
type Event struct {
	Webhook string
	Cursor  int64
	// Status is the receiver's HTTP status (0: no answer); Err what failed ("" delivered).
	Status int
	Err    string
	// Disabled says the attempt disabled the webhook.
	Disabled bool
}

// Options configure a Deliverer. Zero values take the defaults.
type Options struct {
	Guard Guard
	// Clock is the time retries, the 24 hours and leases are counted on (clock.System).
	Clock clock.Clock
	// Holder names this process in the leases (random).
	Holder string
	Log    *slog.Logger
	// Poll is how often the webhooks and the latest cursor are read (250 ms); sooner when
	// the data version, looked at every VersionPoll (50 ms) while a webhook is active,
	// shows a change after the latest cursor.
	Poll, VersionPoll time.Duration
	// LeaseTTL is how long a webhook's lease lasts unrenewed (30 s); renewed every third,
	// and tried by other replicas every LeaseRetry (5 s).
	LeaseTTL, LeaseRetry time.Duration
	// Concurrency bounds the requests in flight at once, over every webhook (32), and
	// apart from them those of receivers slow to answer (as many again): a request that
	// has taken SlowAfter (1 s) gives its slot up, and its webhook's next requests take
	// the slow ones' slots until one is quick again.
	Concurrency int
	SlowAfter   time.Duration
	// RequestTimeout bounds each request, answer included (Timeout).
	RequestTimeout time.Duration
	// Observe, if set, is told each attempt.
	Observe func(Event)
	// Metrics are counted (NewMetrics when nil).
	Metrics *Metrics
	// Revoked, if set, says whether the key of a hash was revoked or is gone, false when it
	// cannot say now: serve passes auth's cached lookup, so that the owners' keys are not
	// read from the store every Poll. Unset, the store is read each Poll.
	Revoked func(ctx context.Context, hash string) bool
	// Images, if set, makes a record as it is delivered: the image addresses of the images
	// the server holds on its public address (internal/imageurl).
	Images func(ctx context.Context, record []byte) []byte
}

// Deliverer delivers the change feed to every active webhook, one worker per webhook.
type Deliverer struct {
	o      Options
	src    Source
	client *http.Client
	// quick and slow are the request slots (see worker.slot).
	quick, slow chan struct{}
	reads       *changeReads
	// commit takes the deliveries to the committer (commit.go).
	commit chan *commitReq
}

// New returns a deliverer over src; Run starts it.
func New(src Source, o Options) *Deliverer {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Poll, 250*time.Millisecond)
	def(&o.VersionPoll, 50*time.Millisecond)
	def(&o.LeaseTTL, 30*time.Second)
	def(&o.LeaseRetry, 5*time.Second)
	def(&o.RequestTimeout, Timeout)
	def(&o.SlowAfter, time.Second)
	if o.Concurrency <= 0 {
		o.Concurrency = 32
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Holder == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		o.Holder = hex.EncodeToString(b)
	}
	return &Deliverer{o: o, src: src, client: o.Guard.Client(o.RequestTimeout),
		quick: make(chan struct{}, o.Concurrency), slow: make(chan struct{}, o.Concurrency),
		reads: newChangeReads(src, o.Images), commit: make(chan *commitReq)}
}

// Run delivers until ctx ends: it reads the webhooks every Poll, starts a worker for each
// active one and stops the worker of one disabled or deleted; workers are woken each Poll.
// On return every worker has stopped and released its lease.
func (d *Deliverer) Run(ctx context.Context) {
	type running struct {
		cancel context.CancelFunc
		wake   chan wakeup
		done   chan struct{}
	}
	workers := map[string]*running{}
	var wg sync.WaitGroup
	// The committer outlives the workers, whose last writes it takes.
	cctx, stopCommits := context.WithCancel(context.WithoutCancel(ctx))
	committed := make(chan struct{})
	go func() {
		defer close(committed)
		d.commits(cctx)
	}()
	defer func() {
		for _, r := range workers {
			r.cancel()
		}
		wg.Wait()
		stopCommits()
		<-committed
	}()
	tick := time.NewTicker(d.o.Poll)
	defer tick.Stop()
	versions := time.NewTicker(d.o.VersionPoll)
	defer versions.Stop()
	version := int64(-1)
	for {
		hooks, err := d.src.ListWebhooks(ctx)
		var latest int64
		if err == nil && len(hooks) > 0 { // most servers have none: one read a poll
			latest, err = d.src.LatestCursor(ctx)
		}
		if err != nil && ctx.Err() == nil {
			d.o.Log.Warn("webhooks: read the webhooks", "err", err)
		}
		if err == nil {
			seen := map[string]bool{}
			revoked := map[string]bool{} // by owner, read once a round
			for _, w := range hooks {
				if w.Status != store.WebhookActive || d.ownerRevoked(ctx, w.Owner, revoked) {
					continue
				}
				seen[w.ID] = true
				r := workers[w.ID]
				if r != nil {
					select {
					case <-r.done: // stopped (lease lost, disabled): start again
						delete(workers, w.ID)
						r = nil
					default:
					}
				}
				if r == nil {
					wctx, cancel := context.WithCancel(ctx)
					r = &running{cancel: cancel, wake: make(chan wakeup, 1), done: make(chan struct{})}
					workers[w.ID] = r
					wg.Add(1)
					go func() {
						defer wg.Done()
						defer close(r.done)
						lease := store.NewLease(d.src, store.WebhookPush(w.ID), d.o.Holder, d.o.LeaseTTL)
						(&worker{d: d, w: w, lease: lease}).run(wctx, r.wake)
					}()
				}
				select {
				case <-r.wake: // an older wake not taken yet: replace it
				default:
				}
				r.wake <- wakeup{w: w, latest: latest}
			}
			for id, r := range workers {
				if !seen[id] {
					r.cancel()
					delete(workers, id)
				}
			}
		}
		var commits <-chan time.Time
		if len(workers) > 0 {
			commits = versions.C
		}
		if !d.next(ctx, tick.C, commits, latest, &version) {
			return
		}
	}
}

// ownerRevoked says whether the key that registered a webhook was revoked (or is gone):
// its webhooks deliver nothing more, as its requests and streams get nothing more. A key
// that cannot be read now counts as not revoked; seen keeps the answers of this round.
func (d *Deliverer) ownerRevoked(ctx context.Context, owner string, seen map[string]bool) bool {
	if owner == "" {
		return false
	}
	if r, ok := seen[owner]; ok {
		return r
	}
	var r bool
	if d.o.Revoked != nil {
		r = d.o.Revoked(ctx, owner)
	} else {
		k, err := d.src.KeyByHash(ctx, owner)
		r = errors.Is(err, store.ErrNotFound) || err == nil && k.Revoked != nil
	}
	seen[owner] = r
	return r
}

// wakeup is what a worker is woken with: its webhook as stored and the latest cursor.
type wakeup struct {
	w      store.Webhook
	latest int64
}

// worker delivers one webhook while it holds the webhook's lease.
type worker struct {
	d      *Deliverer
	w      store.Webhook
	lease  *store.Lease
	tried  time.Time
	cursor int64
	latest int64
	// slow says the webhook's last request took SlowAfter or more.
	slow bool
}

func (k *worker) run(ctx context.Context, wake <-chan wakeup) {
	defer k.release()
	for {
		select {
		case <-ctx.Done():
			return
		case up := <-wake:
			w := up.w
			k.latest = up.latest
			// The definition (URL, filters) may have changed; the state is the worker's
			// own while it holds the lease.
			k.w.URL, k.w.Kinds, k.w.League, k.w.Team = w.URL, w.Kinds, w.League, w.Team
			if !k.lease.Held() {
				k.w.WebhookState = w.WebhookState
			} else if k.w.Failures > 0 && w.Failures == 0 {
				k.reread(ctx)
			}
		}
		if err := k.step(ctx); err != nil {
			if ctx.Err() == nil && !errors.Is(err, errStop) {
				k.d.o.Log.Warn("webhooks: delivering", "webhook", k.w.ID, "err", err)
			}
			if errors.Is(err, errStop) || errors.Is(err, store.ErrLeaseLost) || errors.Is(err, store.ErrNotFound) {
				return
			}
		}
	}
}

// reread takes up an enable through the API while the worker held the webhook (failures
// forgotten, the next attempt at once). The manager's copy may predate the worker's own
// last write, so the store is asked again: it holds that write, or a later one.
func (k *worker) reread(ctx context.Context) {
	w, err := k.d.src.Webhook(ctx, k.w.ID)
	if err == nil && w.Status == store.WebhookActive && w.Failures == 0 {
		k.w.WebhookState = w.WebhookState
	}
}

// errStop ends a worker: its webhook was disabled.
var errStop = errors.New("webhook disabled")

// step takes or keeps the lease, then delivers what is due.
func (k *worker) step(ctx context.Context) error {
	now := k.d.o.Clock.Now()
	if !k.lease.Held() {
		if !k.tried.IsZero() && now.Sub(k.tried) < k.d.o.LeaseRetry {
			return nil
		}
		k.tried = now
		ok, err := k.lease.Take(ctx, now)
		if err != nil || !ok {
			return err
		}
		// Taken (and released when the worker ends): the state and cursor are read
		// again, as the last holder left them.
		k.d.o.Metrics.delivering.Inc()
		w, err := k.d.src.Webhook(ctx, k.w.ID)
		if err == nil && w.Status != store.WebhookActive {
			err = errStop
		}
		if err == nil {
			k.cursor, err = k.d.src.PushCursor(ctx, store.WebhookPush(k.w.ID))
		}
		if err != nil {
			k.release()
			return err
		}
		k.w = w
		if k.cursor == store.NoCursor {
			k.cursor = w.StartCursor
		}
	} else if err := k.lease.Keep(ctx, now); err != nil {
		// Lost (another may deliver now; the worker ends and starts over from the
		// store), or not renewed yet (tried again next step).
		return err
	}
	if now.Before(k.w.NextAttempt) || k.cursor >= k.latest {
		return nil
	}
	return k.deliver(ctx)
}

// page is how many changes are read at a time.
const page = 100

// deliver sends every change after the cursor that the webhook's filters select, in order,
// storing the cursor with each 2xx, until one fails or the feed is read to its end. The
// changes the filters pass over are stored with the next delivery or once the pages are
// read: a server stopped before that reads them again, and passes them over again.
func (k *worker) deliver(ctx context.Context) error {
	pos := k.cursor // read up to here; stored up to k.cursor
	for ctx.Err() == nil {
		changes, next, err := k.d.src.Changes(ctx, pos, nil, page)
		if errors.Is(err, store.ErrCursorExpired) {
			return k.expired(ctx)
		}
		if err != nil {
			return err
		}
		for _, c := range changes {
			body, selected, err := prepare(ctx, k.d.reads, k.w, c)
			if err != nil {
				return err
			}
			pos = c.Cursor
			if !selected {
				continue // stored with the next delivery, or at the page's end
			}
			ev, err := k.send(ctx, c.Cursor, body)
			if err != nil {
				return err
			}
			k.count(ev)
			if k.d.o.Observe != nil {
				k.d.o.Observe(ev)
			}
			switch {
			case ev.Disabled:
				return errStop
			case ev.Err != "":
				return nil
			}
		}
		pos = max(pos, next)
		if len(changes) < page || ctx.Err() != nil {
			break
		}
	}
	if pos > k.cursor && ctx.Err() == nil {
		return k.save(ctx, pos)
	}
	return ctx.Err()
}

// expired moves a webhook whose cursor the feed no longer keeps (away longer than the
// retention) to the latest change, and says so in its last error.
func (k *worker) expired(ctx context.Context) error {
	latest, err := k.d.src.LatestCursor(ctx)
	if err != nil {
		return err
	}
	k.w.LastError = fmt.Sprintf("the changes after cursor %d were no longer kept; resumed after cursor %d", k.cursor, latest)
	if err := k.d.src.SetActiveWebhookState(ctx, k.w.ID, k.w.WebhookState); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errStop
		}
		return err
	}
	return k.save(ctx, latest)
}

// count counts an attempt in the metrics.
func (k *worker) count(ev Event) {
	m := k.d.o.Metrics
	switch {
	case ev.Err == "":
		m.delivered.Inc()
	case ev.Disabled:
		m.failed.Inc()
		m.disabled.Inc()
	default:
		m.failed.Inc()
	}
}

// release gives the webhook's lease back, if taken.
func (k *worker) release() {
	if !k.lease.Held() {
		return
	}
	k.d.o.Metrics.delivering.Dec()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = k.lease.Release(ctx)
}

func (k *worker) save(ctx context.Context, cursor int64) error {
	if err := k.d.src.SavePushCursor(ctx, store.WebhookPush(k.w.ID), k.d.o.Holder, cursor); err != nil {
		return err
	}
	k.cursor = cursor
	return nil
}

// send POSTs one message and records the outcome: on a 2xx within Timeout (the event's
// Err is "") the webhook's state and the cursor, in one transaction; otherwise the state.
func (k *worker) send(ctx context.Context, cursor int64, body []byte) (Event, error) {
	if err := k.stillActive(ctx); err != nil {
		return Event{}, err
	}
	status, failure := k.post(ctx, cursor, body)
	if ctx.Err() != nil {
		return Event{}, ctx.Err()
	}
	now := k.d.o.Clock.Now()
	s := &k.w.WebhookState
	s.LastStatus = status
	ev := Event{Webhook: k.w.ID, Cursor: cursor, Status: status, Err: failure}
	if failure == "" {
		s.LastError, s.Failures, s.FailingSince, s.LastDelivery, s.NextAttempt = "", 0, time.Time{}, now, time.Time{}
	} else {
		s.LastError = failure
		s.Failures++
		if s.FailingSince.IsZero() {
			s.FailingSince = now
		}
		s.NextAttempt = now.Add(Retry(s.Failures))
		if now.Sub(s.FailingSince) >= GiveUp {
			s.Status, s.NextAttempt = store.WebhookDisabled, time.Time{}
			s.Reason = fmt.Sprintf("deliveries failed for %s (%d attempts); the last: %s", GiveUp, s.Failures, failure)
			ev.Disabled = true
		}
	}
	// Only while still active: a disable that came during the request stands.
	var err error
	if failure == "" {
		if err = k.delivered(ctx, store.Delivery{ID: k.w.ID, State: *s, From: k.cursor, Next: cursor}); err == nil {
			k.cursor = cursor
		}
	} else {
		err = k.d.src.SetActiveWebhookState(ctx, k.w.ID, *s)
	}
	if errors.Is(err, store.ErrNotFound) {
		return Event{}, errStop
	}
	if err != nil {
		return Event{}, err
	}
	return ev, nil
}

// stillActive is errStop when the webhook was disabled or deleted meanwhile (through the
// API): the worker stops without sending. (One disabled during the request is caught by
// SetActiveWebhookState, which then writes nothing.)
func (k *worker) stillActive(ctx context.Context) error {
	cur, err := k.d.src.Webhook(ctx, k.w.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errStop
	case err != nil:
		return err
	case cur.Status != store.WebhookActive:
		return errStop
	}
	return nil
}
