package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/respcache"
	"sportsdb/internal/store"
)

// Upstream reads through to another TheSportsDB-compatible API for answers the store cannot
// give (serve --upstream: a mirror.Fetcher). version is the name of the API that matched
// ("v1", "v2"), pathAndQuery the request as that API names it for an upstream
// (api.Mount.Upstream). Which answers depend on the time, which hold no records, and which
// no upstream has, the APIs say (api.Target.Clock, api.Answer.Empty, api.Target.Local).
type Upstream interface {
	// Ensure makes the store hold the upstream's answer unless it holds a fresh one; changed
	// says records were stored. Its errors never hold the upstream's key.
	Ensure(ctx context.Context, version, pathAndQuery string) (changed bool, err error)
}

const (
	// defaultUpstreamTimeout bounds how long a request waits for the upstream. It is longer
	// than the store's 1.8 s: the answer of a remote API over the internet, and its storing,
	// often take more. A request that waits longer is answered from the store as it is (the
	// fetch goes on, and the next request finds its answer).
	defaultUpstreamTimeout = 5 * time.Second
	// upstreamRecheck is how long an answer still empty after the upstream was asked is kept
	// in the response cache: past it the next request asks again, which costs nothing while the
	// upstream's empty answer is fresh and asks the upstream when it is not. An answer kept
	// after the upstream failed, and a time-dependent one, expire after respcache.TTL instead.
	upstreamRecheck = time.Minute
)

// RegisterCollectors adds metrics of the server's parts (the upstream's requests) to
// /metrics.
func (s *Server) RegisterCollectors(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := s.metrics.reg.Register(c); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
	}
	return nil
}

// answer computes the answer to an API request for the response cache: from the store, and
// with an upstream, from what it adds to the store first when the answer depends on the
// time, or when the store's answer holds no records (then computed again, and rendered
// once).
func (s *Server) answer(w http.ResponseWriter, r *http.Request, t target, tier store.Tier) {
	if s.cfg.Upstream == nil {
		t.mount.Serve(w, r, t.Target, tier) // within the request's deadline
		return
	}
	if !t.Known() || t.Local {
		s.fromStore(w, r, t, tier)
		return
	}
	pathAndQuery := t.mount.Upstream(r, t.Target)
	if t.Clock {
		s.ensure(r, t.version, pathAndQuery)
		s.keepFor(r, respcache.TTL)
		s.fromStore(w, r, t, tier)
		return
	}
	var cancelAgain context.CancelFunc
	defer func() {
		if cancelAgain != nil {
			cancelAgain()
		}
	}()
	refill := func(ctx context.Context) context.Context {
		changed, err := s.ensure(r, t.version, pathAndQuery)
		switch {
		case changed:
			// The store work again, within a store deadline of its own from now.
			var again context.Context
			again, cancelAgain = context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
			return again
		case err != nil:
			s.keepFor(r, respcache.TTL)
		default:
			s.keepFor(r, upstreamRecheck)
		}
		return nil
	}
	s.fromStore(w, r.WithContext(api.WithRefill(r.Context(), refill)), t, tier)
}

// fromStore answers from the store within the store's deadline.
func (s *Server) fromStore(w http.ResponseWriter, r *http.Request, t target, tier store.Tier) {
	r, cancel := s.storeRequest(r)
	defer cancel()
	t.mount.Serve(w, r, t.Target, tier)
}

// ensure asks the upstream within its own timeout; a failure is logged and the local
// answer stands. The upstream's errors never hold its key.
func (s *Server) ensure(r *http.Request, version, pathAndQuery string) (bool, error) {
	timeout := s.upstreamTimeout()
	// Not the request's deadline, which bounds store work: the upstream may need longer.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), timeout)
	defer cancel()
	changed, err := s.cfg.Upstream.Ensure(ctx, version, pathAndQuery)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no upstream answer within %v: %w", timeout, err)
		}
		// At debug level: the upstream's own failures are logged once, where they happen.
		s.cfg.Logger.DebugContext(r.Context(), "upstream unavailable, answered from the store", "version", version, "err", err)
	}
	return changed, err
}

// storeRequest is the request with the store's deadline from now: the computation of an
// answer that may wait for the upstream has a longer one (waitForUpstream), which bounds
// no store work.
func (s *Server) storeRequest(r *http.Request) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	return r.WithContext(ctx), cancel
}

// waitForUpstream is the response cache's wait deadline with an upstream: the time an
// answer that reads through may take, its store work (each read within the store's
// deadline: fromStore), the upstream's, and its store work again. Requests for the same
// answer wait on the one that computes it (the cache's flights) with this deadline too. The
// request's own deadline, the store's, still bounds its key lookup, its rate limit and its
// read of the data version, so a database that stopped answering gives a 503 as soon as
// without an upstream.
func (s *Server) waitForUpstream(r *http.Request) (*http.Request, func()) {
	ld, ok := r.Context().(*lazyDeadline)
	if s.cfg.Upstream == nil || !ok {
		return r, func() {}
	}
	longer := withLazyDeadline(ld.parent, 2*s.cfg.RequestTimeout+s.upstreamTimeout(), s.deadlines)
	return r.WithContext(longer), longer.stop
}

func (s *Server) upstreamTimeout() time.Duration {
	if s.cfg.UpstreamTimeout > 0 {
		return s.cfg.UpstreamTimeout
	}
	return defaultUpstreamTimeout
}

// keepFor bounds how long the response cache keeps the answer being computed, so that the
// upstream is asked again after d (clock.Watch: the earliest bound declared wins).
func (s *Server) keepFor(r *http.Request, d time.Duration) {
	var clk clock.Clock = clock.System{}
	if s.cfg.Clock != nil {
		clk = s.cfg.Clock
	}
	now := clock.Read(r.Context(), clk)
	clock.Until(r.Context(), now.Add(d))
}
