package mqtt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// pushName is the publisher's row in the store's push progress.
const pushName = "mqtt"

// Availability payloads of {prefix}/status.
const (
	online  = "online"
	offline = "offline"
)

// Source is what the publisher reads from the store.
type Source interface {
	store.Records
	store.Feed
	store.Pushes
}

// Listener is a store that can tell when another process committed changes (PostgreSQL's
// LISTEN); without one the publisher polls the data version.
type Listener interface {
	Listen(ctx context.Context, fn func()) error
}

// Options configure a Publisher. Zero durations take the defaults below.
type Options struct {
	Broker Broker
	Prefix string
	// Teams get Home Assistant sensors (discovery).
	Teams []string
	// Holder names this process in the lease and to the broker (NewHolder).
	Holder string
	// Leases is the wall clock leases are taken on (clock.System; a manual one in tests);
	// Data is the data clock, which says which game is next.
	Leases, Data clock.Clock
	Log          *slog.Logger
	Metrics      *Metrics
	// Poll is how often the data version is compared (100 ms; 500 ms with a Listener).
	Poll time.Duration
	// LeaseTTL is how long a lease lasts unrenewed (30 s); it is renewed every third of it.
	LeaseTTL time.Duration
	// LeaseRetry is how often a replica without the lease tries to take it (5 s).
	LeaseRetry time.Duration
	// MinBackoff and MaxBackoff bound the wait before reconnecting after a failure (1 s,
	// doubling to 1 min).
	MinBackoff, MaxBackoff time.Duration
	// AckTimeout is how long the broker may take to acknowledge a message (10 s).
	AckTimeout time.Duration
	// Refresh is how often the team sensors are computed again without a change (1 min):
	// a game that starts moves from next to last on the clock alone.
	Refresh time.Duration
	// Stored, if set, is told each cursor stored once the broker acknowledged everything
	// up to it.
	Stored func(cursor int64)
	// Images, if set, makes a record as it is published: the image addresses of the images
	// the server holds on its public address (internal/imageurl).
	Images func(ctx context.Context, record []byte) []byte
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.LeaseTTL, 30*time.Second)
	def(&o.LeaseRetry, 5*time.Second)
	def(&o.MinBackoff, time.Second)
	def(&o.MaxBackoff, time.Minute)
	def(&o.AckTimeout, 10*time.Second)
	def(&o.Refresh, time.Minute)
	if o.Leases == nil {
		o.Leases = clock.System{}
	}
	if o.Data == nil {
		o.Data = clock.System{}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	if o.Holder == "" {
		o.Holder = NewHolder()
	}
	return o
}

// Publisher publishes the change feed of a store to a broker.
type Publisher struct {
	o   Options
	src Source
}

// New returns a publisher of src's change feed; Run starts it.
func New(src Source, o Options) *Publisher {
	o = o.withDefaults()
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
		if _, ok := src.(Listener); ok {
			o.Poll = 500 * time.Millisecond
		}
	}
	return &Publisher{o: o, src: src}
}

var (
	errConnectionLost = errors.New("connection to the broker lost")
	errStopped        = errors.New("publisher stopped")
)

// Run publishes until ctx ends: it takes the lease when it is free, publishes while it
// holds it, and after a failure (the broker down, the database unreachable) waits a growing
// backoff and starts again from the stored cursor. It never returns before ctx ends, and a
// broker that is down stops nothing but the publishing.
func (p *Publisher) Run(ctx context.Context) {
	lease := store.NewLease(p.src, pushName, p.o.Holder, p.o.LeaseTTL)
	backoff := p.o.MinBackoff
	for ctx.Err() == nil {
		held, err := lease.Take(ctx, p.o.Leases.Now())
		if err != nil {
			p.fail(ctx, "mqtt: take the lease", err)
			wait(ctx, backoff)
			backoff = min(2*backoff, p.o.MaxBackoff)
			continue
		}
		if !held {
			wait(ctx, p.o.LeaseRetry)
			continue
		}
		progressed, err := p.session(ctx, lease)
		p.o.Metrics.publishing.Set(0)
		if ctx.Err() != nil {
			break
		}
		if progressed {
			backoff = p.o.MinBackoff
		}
		if errors.Is(err, store.ErrLeaseLost) {
			p.o.Log.Warn("mqtt: lease lost; publishing again from the stored cursor once it is taken", "err", err)
			continue
		}
		p.fail(ctx, "mqtt: publishing stopped; reconnecting", err, "in", backoff.String())
		wait(ctx, backoff)
		backoff = min(2*backoff, p.o.MaxBackoff)
	}
	rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := lease.Release(rctx); err != nil {
		p.o.Log.Warn("mqtt: release the lease", "err", err)
	}
}

func (p *Publisher) fail(ctx context.Context, msg string, err error, args ...any) {
	if ctx.Err() != nil {
		return
	}
	p.o.Metrics.errors.Inc()
	p.o.Log.Warn(msg, append([]any{"err", err}, args...)...)
}

func wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// session connects to the broker and publishes while the lease holds and the connection
// lasts. progressed says whether it connected.
func (p *Publisher) session(ctx context.Context, lease *store.Lease) (progressed bool, err error) {
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(errStopped)
	opts := p.o.Broker.publisherOptions(p.o.Holder, p.topics().status()).
		SetConnectTimeout(p.o.AckTimeout).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			cancel(fmt.Errorf("%w: %w", errConnectionLost, err))
		})
	c := paho.NewClient(opts)
	if err := await(sctx, c.Connect(), p.o.AckTimeout); err != nil {
		c.Disconnect(0) // a connection that succeeds after the wait gave up is closed, not kept
		return false, fmt.Errorf("connect to %s: %w", p.o.Broker.Addr, err)
	}
	defer func() {
		// A clean disconnect sends no will: say offline, unless another holder took over
		// (and says online) or the connection is gone.
		if !errors.Is(err, store.ErrLeaseLost) && !errors.Is(err, errConnectionLost) {
			_ = await(context.Background(), c.Publish(p.topics().status(), 1, true, offline), time.Second)
		}
		c.Disconnect(250)
	}()
	p.o.Log.Info("mqtt: publishing", "broker", p.o.Broker.Addr, "prefix", p.o.Prefix)
	kept := make(chan struct{})
	go func() { defer close(kept); p.keepLease(sctx, cancel, lease) }()
	defer func() { cancel(errStopped); <-kept }() // the lease is Run's again
	s := &session{p: p, c: c, ctx: sctx, sent: map[string]string{}, liveTopics: map[string]string{}}
	err = s.run()
	if cause := context.Cause(sctx); cause != nil && !errors.Is(cause, errStopped) {
		err = cause
	}
	return true, err
}

// keepLease renews the lease every third of its time until ctx ends, and ends the session
// once it is lost: taken by another holder, or not renewed in time.
func (p *Publisher) keepLease(ctx context.Context, cancel context.CancelCauseFunc, lease *store.Lease) {
	t := time.NewTicker(p.o.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := lease.Renew(ctx, p.o.Leases.Now()); errors.Is(err, store.ErrLeaseLost) {
			cancel(err)
			return
		}
	}
}

// await waits for a paho token, at most timeout, or until ctx ends.
func await(ctx context.Context, t paho.Token, timeout time.Duration) error {
	if err := waitDone(ctx, t.Done(), timeout); err != nil {
		return err
	}
	return t.Error()
}

// waitDone waits until done closes, at most timeout, or until ctx ends.
func waitDone(ctx context.Context, done <-chan struct{}, timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
		return fmt.Errorf("no answer from the broker in %s", timeout)
	}
}
