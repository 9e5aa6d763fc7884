package mirror

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// ErrBudgetSpent: the upstream budget has no slot now; the caller serves its local answer.
var ErrBudgetSpent = errors.New("upstream budget spent")

// FetcherOptions configure read-through.
type FetcherOptions struct {
	From, Key string
	Store     store.Store
	// Rate is the budget per rolling 60 s, shared (same Limiter or Redis) with a running
	// mirror of the same key; 0 means DefaultRate.
	Rate int
	// Limiter, or Redis (see Options.Redis), keeps the budget; default in memory.
	Limiter ratelimit.Limiter
	Redis   string
	// Timeout bounds one upstream request, so a client waits little for a slow upstream;
	// default 5 s.
	Timeout time.Duration
	Clock   Clock
	HTTP    *http.Client
	Logger  *slog.Logger
	Metrics *Metrics
	// MediaRate is the image budget per rolling 60 s (Image), shared with mirror --media;
	// 0 means DefaultMediaRate.
	MediaRate int
}

// Fetcher reads through to the upstream for answers the store cannot give.
type Fetcher struct {
	c     *client
	st    store.Store
	clock Clock
	log   *slog.Logger
	close func() error
	m     *Metrics

	// img reads images through (readimage.go); nil when the store keeps none.
	img *imageSide

	mu       sync.Mutex
	inflight map[string]*flight
	fresh    map[string]time.Time // URL -> until when the stored answer is fresh
}

type flight struct {
	done    chan struct{}
	changed bool
	err     error
}

// NewFetcher checks the options; Close releases a Redis budget.
func NewFetcher(o FetcherOptions) (*Fetcher, error) {
	mo := Options{From: o.From, Key: o.Key, Store: o.Store, Rate: o.Rate, Limiter: o.Limiter, Redis: o.Redis,
		Clock: o.Clock, HTTP: o.HTTP, Logger: o.Logger}
	if err := mo.defaults(); err != nil {
		return nil, err
	}
	if _, ok := o.Store.(store.Frontier); !ok {
		return nil, errors.New("mirror: this store keeps no crawl frontier")
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.HTTP == nil {
		mo.HTTP = &http.Client{Timeout: o.Timeout}
	}
	c, err := newClient(mo)
	if err != nil {
		return nil, err
	}
	return &Fetcher{c: c, st: o.Store, clock: mo.Clock, log: mo.Logger, close: mo.closeLimiter, m: o.Metrics,
		img: newImageSide(o, mo), inflight: map[string]*flight{}, fresh: map[string]time.Time{}}, nil
}

// Close releases the budget's Redis connection, if any.
func (f *Fetcher) Close() error {
	if f.close != nil {
		return f.close()
	}
	return nil
}

// Ensure makes the store hold the upstream's answer to one API request, unless it holds a
// fresh one already: version is "v1" or "v2", pathAndQuery what follows the key segment
// (v1: "lookupteam.php?id=133604") or /api/v2/json/ (v2: "lookup/team/133604"). Concurrent
// calls for one request make one upstream request. changed says that records were stored,
// so the caller answers again from the store. With the budget spent (ErrBudgetSpent) or the
// upstream failing, the caller serves its local answer as it is.
func (f *Fetcher) Ensure(ctx context.Context, version, pathAndQuery string) (changed bool, err error) {
	u, err := frontierURL(version, pathAndQuery)
	if err != nil {
		return false, err
	}
	f.mu.Lock()
	if until, ok := f.fresh[u]; ok && f.clock.Now().Before(until) {
		f.mu.Unlock()
		return false, nil
	}
	if fl, ok := f.inflight[u]; ok {
		f.mu.Unlock()
		select {
		case <-fl.done:
			return fl.changed, fl.err
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	fl := &flight{done: make(chan struct{})}
	f.inflight[u] = fl
	f.mu.Unlock()

	// The flight outlives a caller that gives up: the others wait for it.
	fl.changed, fl.err = f.fetch(context.WithoutCancel(ctx), u)
	f.mu.Lock()
	delete(f.inflight, u)
	f.mu.Unlock()
	close(fl.done)
	return fl.changed, fl.err
}

// frontierURL is a request in the frontier's form, its query in a canonical order.
func frontierURL(version, pathAndQuery string) (string, error) {
	p, q, _ := strings.Cut(strings.TrimPrefix(pathAndQuery, "/"), "?")
	if p == "" || strings.Contains(p, "..") {
		return "", fmt.Errorf("mirror: read-through of %q: no path", pathAndQuery)
	}
	switch version {
	case "v1":
		vals, err := url.ParseQuery(q)
		if err != nil {
			return "", fmt.Errorf("mirror: read-through of %q: %w", pathAndQuery, err)
		}
		if enc := vals.Encode(); enc != "" {
			return "v1/" + p + "?" + enc, nil
		}
		return "v1/" + p, nil
	case "v2":
		return "v2/" + p, nil
	}
	return "", fmt.Errorf("mirror: read-through: version %q: want v1 or v2", version)
}

func (f *Fetcher) fetch(ctx context.Context, u string) (bool, error) {
	now := f.clock.Now()
	e, err := f.st.(store.Frontier).FrontierGet(ctx, u)
	switch {
	case err == nil && !e.Fetched.IsZero() && now.Before(e.Due):
		f.remember(u, e.Due)
		return false, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return false, fmt.Errorf("mirror: read-through: %w", err)
	case err != nil:
		e = store.FrontierEntry{URL: u, Priority: prioDetails}
	}
	if left := f.c.paused.left(now); left > 0 {
		f.m.count("readthrough", "paused", 0)
		return false, fmt.Errorf("%w: the upstream asked to wait %s more", ErrBudgetSpent, left.Round(time.Second))
	}
	d, err := f.c.limiter.Allow(ctx, f.c.budgetID, f.c.rate)
	if err != nil {
		return false, fmt.Errorf("mirror: read-through: rate budget: %w", err)
	}
	if !d.Allowed {
		f.m.count("readthrough", "budget_spent", 0)
		return false, ErrBudgetSpent
	}
	req, _, err := f.c.target(u)
	if err != nil {
		return false, err
	}
	a, retryAfter, err := f.c.once(ctx, req)
	if err != nil {
		err = fmt.Errorf("mirror: read-through of %s: %w", masked(u), scrub(err, f.c.key))
		f.log.Warn("upstream request failed", "error", err)
		f.m.count("readthrough", "failed", 0)
		if retryAfter > 0 {
			f.c.paused.set(f.clock.Now(), retryAfter, err.Error(), f.log)
		}
		return false, err
	}
	keep := &answeringTx{asked: askedOf(u)}
	n, err := commitOnly(ctx, f.st, e, a, f.clock.Now(), nil, keep)
	a.release()
	if err != nil {
		return false, err
	}
	stored, err := f.st.(store.Frontier).FrontierGet(ctx, u)
	if err != nil {
		return n > 0, fmt.Errorf("mirror: read-through: %w", err)
	}
	f.remember(u, stored.Due)
	f.m.count("readthrough", stored.Status, n)
	switch {
	case stored.Status != "ok":
		f.log.Warn("mirror: read-through answer not stored; answered from the store as it is",
			"request", masked(u), "outcome", stored.Status, "why", stored.Note)
	case keep.dropped+keep.renamed > 0:
		f.log.Warn("mirror: read-through stored part of an answer", "request", masked(u),
			"stored", n, "why", keep.refusal().Error())
	}
	return n > 0, nil
}

// remember keeps a fresh answer's time in memory, so that asking again costs no database
// read; the map holds the requests asked within their freshness.
func (f *Fetcher) remember(u string, until time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now()
	if len(f.fresh) > 100000 {
		for k, t := range f.fresh {
			if !now.Before(t) {
				delete(f.fresh, k)
			}
		}
	}
	f.fresh[u] = until
}
