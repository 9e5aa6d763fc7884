package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"

	"sportsdb/internal/clock"
)

// RedisOptions tunes the Redis limiter; the zero value is ready to use.
type RedisOptions struct {
	// Prefix starts every Redis key; default "sportsdb:ratelimit:".
	Prefix string
	// Timeout bounds one Redis call before the request is served by the fallback; default
	// 500ms.
	Timeout time.Duration
	// Recheck is how often an unreachable Redis is tried again; default 2s.
	Recheck time.Duration
	// Logger receives the down and back messages; default slog.Default().
	Logger *slog.Logger
}

// Redis shares one exact limit per id between every replica on the same Redis. While Redis
// is unreachable it limits per replica in memory, and returns to the shared limit by itself
// once a background check reaches Redis again.
type Redis struct {
	opt      rueidis.ClientOption
	prefix   string
	timeout  time.Duration
	clk      clock.Clock
	log      *slog.Logger
	fallback *Memory
	blocked  blockedSet
	batch    batcher

	client    atomic.Pointer[rueidis.Client]
	degraded  atomic.Bool
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	mu        sync.Mutex // guards downSince, lastErr
	downSince time.Time
	lastErr   string
}

// NewRedis returns a limiter on the Redis at url (redis://[user:pass@]host:port/db or
// rediss://…). A malformed url is an error; an unreachable Redis is not: the limiter starts on
// its in-memory fallback and switches to Redis once it answers. Close releases it.
func NewRedis(url string, clk clock.Clock, o RedisOptions) (*Redis, error) {
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		// The URL may hold a password: keep the reason, drop the URL text that net/url adds.
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("ratelimit: parse Redis URL: %w", err)
	}
	opt.DisableCache = true // no client-side caching: every decision is the server's
	if opt.PipelineMultiplex == 0 {
		// Batched calls go out one at a time, which one connection carries; further
		// connections would sit idle, their loss unnoticed until a call fails on them.
		opt.PipelineMultiplex = -1
	}
	if opt.Dialer.Timeout == 0 {
		opt.Dialer.Timeout = time.Second
	}
	if opt.ConnWriteTimeout == 0 {
		opt.ConnWriteTimeout = 2 * time.Second
	}
	r := &Redis{
		opt:      opt,
		prefix:   o.Prefix,
		timeout:  o.Timeout,
		clk:      clk,
		log:      o.Logger,
		fallback: NewMemory(clk),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	r.blocked.init()
	r.batch.run = r.runBatch
	if r.prefix == "" {
		r.prefix = "sportsdb:ratelimit:"
	}
	if r.timeout <= 0 {
		r.timeout = 500 * time.Millisecond
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	recheck := o.Recheck
	if recheck <= 0 {
		recheck = 2 * time.Second
	}
	if err := r.connect(); err != nil {
		r.markDown(err)
	}
	go r.watch(recheck)
	return r, nil
}

// Allow counts one request of id against limit: on Redis when it is up, else in memory.
func (r *Redis) Allow(ctx context.Context, id string, limit int) (Decision, error) {
	if err := checkLimit(limit); err != nil {
		return Decision{}, err
	}
	now := r.clk.Now()
	// No slot frees before the oldest admitted request leaves the window, whatever the other
	// replicas do, so a refusal holds until then without asking Redis again.
	if d, ok := r.blocked.check(id, limit, now); ok {
		return d, nil
	}
	c := r.client.Load()
	if c == nil || r.degraded.Load() {
		return r.fallback.Allow(ctx, id, limit)
	}
	q := &pending{id: id, limit: limit, done: make(chan struct{})}
	if err := r.batch.decide(ctx, q); err != nil {
		return Decision{}, err
	}
	d, err := q.d, q.err
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, fmt.Errorf("ratelimit: %w", ctx.Err())
		}
		r.markDown(err)
		return r.fallback.Allow(ctx, id, limit)
	}
	if !d.Allowed {
		r.blocked.set(id, limit, now, now.Add(d.RetryAfter))
	} else {
		r.fallback.record(id, limit) // for an outage to go on from (replay.go)
	}
	return d, nil
}

// Healthy says whether the shared limit is in force, with a detail for health output.
func (r *Redis) Healthy() (bool, string) {
	if !r.degraded.Load() {
		return true, "redis: limits shared by every replica"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return false, fmt.Sprintf("redis unreachable since %s (%s): limiting per replica in memory",
		r.downSince.UTC().Format(time.RFC3339), r.lastErr)
}

// Close stops the background check and the Redis connections.
func (r *Redis) Close() error {
	r.closeOnce.Do(func() {
		close(r.stop)
		<-r.done
		if c := r.client.Load(); c != nil {
			(*c).Close()
		}
	})
	return nil
}

// connect creates the client once; rueidis reconnects it by itself afterwards.
func (r *Redis) connect() error {
	if r.client.Load() != nil {
		return nil
	}
	c, err := rueidis.NewClient(r.opt)
	if err != nil {
		return fmt.Errorf("ratelimit: connect to Redis: %w", err)
	}
	// A cluster spreads keys over nodes, and one script call may only touch one node's keys.
	r.batch.mu.Lock()
	r.batch.max = maxBatch
	if c.Mode() == rueidis.ClientModeCluster {
		r.batch.max = 1
	}
	r.batch.mu.Unlock()
	r.client.Store(&c)
	return nil
}

// markDown switches to the fallback, logging once per outage.
func (r *Redis) markDown(err error) {
	r.mu.Lock()
	if !r.degraded.CompareAndSwap(false, true) {
		r.mu.Unlock()
		return
	}
	r.downSince, r.lastErr = r.clk.Now(), err.Error()
	r.mu.Unlock()
	r.log.Warn("rate limiter: Redis unreachable, limiting per replica in memory until it is back",
		"err", err)
}

// watch probes Redis while it is down, and switches back to it once the script runs again.
func (r *Redis) watch(every time.Duration) {
	defer close(r.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		if !r.degraded.Load() {
			continue
		}
		if err := r.comeBack(); err != nil {
			r.mu.Lock()
			r.lastErr = err.Error()
			r.mu.Unlock()
			continue
		}
		r.log.Info("rate limiter: Redis reachable again, limits shared by every replica")
	}
}

// comeBack returns to Redis once the script runs there again, with what this replica
// admitted meanwhile added to the shared logs: first what it admitted until now, then, once
// requests go to Redis again, what it admitted in between. A request admitted through Redis
// in that instant may be counted twice, which errs on the side of the limit.
func (r *Redis) comeBack() error {
	if err := r.probe(); err != nil {
		return err
	}
	r.mu.Lock()
	since := r.downSince
	r.mu.Unlock()
	upTo := r.clk.Now()
	if err := r.replay(since, upTo); err != nil {
		return err
	}
	r.degraded.Store(false)
	// A nanosecond on: a request admitted by the fallback now is still in the range.
	if err := r.replay(upTo, r.clk.Now().Add(time.Nanosecond)); err != nil {
		r.log.Warn("rate limiter: the last requests admitted during the Redis outage are not counted there", "err", err)
	}
	return nil
}

// probe runs the real script on a key of its own, so "back" means decisions work again.
func (r *Redis) probe() error {
	if err := r.connect(); err != nil {
		return err
	}
	ctx, cancel := r.callContext()
	defer cancel()
	q := &pending{id: "probe", limit: 1 << 30}
	return r.evalBatch(ctx, *r.client.Load(), []*pending{q})
}
