// Package server is sportsdb's HTTP handler: it mounts what it is handed (the API versions,
// the keyed surfaces such as calendars, the API's document: Mounts, built by internal/app),
// reads the path, checks the key, applies the rate limit, answers through the response cache
// (internal/respcache) and hands the request to whatever owns the path. It also serves
// health, metrics, the change feed and streams, writes access logs without keys, and turns
// panics into JSON 503s.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/respcache"
	"sportsdb/internal/store"
	"sportsdb/internal/tierlimit"
)

// Config is what a server is built from.
type Config struct {
	// Mounts are the APIs and surfaces served; their store reads go through
	// respcache.Tracking of Store, so that the response cache knows what each answer read.
	Mounts  Mounts
	Store   store.Store
	Clock   clock.Clock
	Auth    *auth.Authenticator
	Guard   *auth.FailGuard
	Limiter Limiter
	Logger  *slog.Logger
	// AccessLog writes a line for every request; nil logs none. The Logger logs the rest.
	AccessLog *AccessLog
	// RequestTimeout bounds the store work of one request (default 1.8 s), so a database
	// that stopped answering gives a 503 within 2 s instead of a hanging client.
	RequestTimeout time.Duration
	// TrustProxy takes the client address from X-Forwarded-For (behind a reverse proxy):
	// the rightmost entry that is not one of TrustedProxies (clientaddr.go).
	TrustProxy bool
	// TrustedProxies are the addresses of the proxies in front; empty trusts only the
	// direct peer, whose own X-Forwarded-For entry is then taken.
	TrustedProxies []netip.Prefix
	// CORSOrigins are the origins browsers may call from; empty allows every origin ("*").
	CORSOrigins []string
	// Limits are the requests per rolling minute of each tier; nil means DefaultLimits.
	Limits map[store.Tier]int
	// OpenStreams are the event streams a key of each tier may hold open at once; nil means
	// live.OpenStreams.
	OpenStreams map[store.Tier]int
	// CacheBytes bounds the memory of the response cache (default 64 MiB).
	CacheBytes int
	// CacheDir is where large cached answers are kept, in one file of the server's own,
	// unlinked as soon as it is made (default: the system's temporary directory).
	CacheDir string
	// CacheDiskBytes bounds that file (default 1 GiB); negative keeps every answer in memory.
	CacheDiskBytes int64
	// Upstream, if set, reads through to another API for answers the store cannot give
	// (upstream.go); UpstreamTimeout bounds a request's wait for it (default 5 s).
	Upstream        Upstream
	UpstreamTimeout time.Duration
	// WarmUp answers a set of requests before /readyz says ready (warmup.go).
	WarmUp bool
	// Images, when set, points the image addresses of answers at this server
	// (imageurl.Rewriter); nil leaves them as stored.
	Images respcache.Rewriter
}

// DefaultRequestTimeout bounds the store work of a request unless Config.RequestTimeout says.
const DefaultRequestTimeout = 1800 * time.Millisecond

// Limiter counts requests per key and reports whether its limits are shared.
type Limiter interface {
	ratelimit.Limiter
	Healthy() (ok bool, detail string)
}

// Server is the HTTP handler of sportsdb.
type Server struct {
	cfg     Config
	metrics *metrics
	cache   *respcache.Cache
	cors    corsPolicy
	// draining is set by StartDrain (drain.go).
	draining atomic.Bool
	// after times the drain period: time.After, or a test's timer that ends it on cue.
	after func(time.Duration) <-chan time.Time
	// deadlines, when set (tests), measures the requests' deadlines instead of the wall clock.
	deadlines deadlineClock
	live      *liveState // change feed and streams (live.go)
	// warmedUp closes when the warm-up has ended (warmup.go); stopWarmUp ends it early.
	warmedUp, stopWarmUp chan struct{}
}

// New builds a server over the mounts it is handed.
func New(cfg Config) *Server {
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == nil {
		cfg.Limits = tierlimit.DefaultLimits
	}
	s := &Server{cfg: cfg, cors: newCORSPolicy(cfg.CORSOrigins), after: time.After}
	s.metrics = newMetrics(s.routeNames())
	if p, ok := cfg.Store.(store.Pools); ok {
		s.metrics.reg.MustRegister(newPoolCollector(p))
	}
	opts := respcache.Options{
		DataVersion: cfg.Store.DataVersion, Feed: cfg.Store,
		MemoryBytes: cfg.CacheBytes, Dir: cfg.CacheDir, DiskBytes: cfg.CacheDiskBytes,
		Warn:      func(msg string, err error) { cfg.Logger.Warn(msg, "err", err) },
		Hits:      s.metrics.cache.WithLabelValues("hit").Inc,
		Misses:    s.metrics.cache.WithLabelValues("miss").Inc,
		Refreshes: s.metrics.cache.WithLabelValues("refresh").Inc,
		Hold:      HoldAnswer,
		// Answers read the store only, unless they read through to an upstream, which
		// writes what it fetched and computes again: then each Find goes to the store.
		KeepFinds:   cfg.Upstream == nil,
		FindsKept:   s.metrics.finds.WithLabelValues("kept").Inc,
		FindsStored: s.metrics.finds.WithLabelValues("store").Inc,
	}
	if cfg.Upstream != nil {
		opts.Wait = s.waitForUpstream
	}
	if cfg.Images != nil {
		opts.Rewriter = cfg.Images
	}
	if cfg.Clock != nil {
		opts.Now = cfg.Clock.Now
	}
	s.cache = respcache.New(opts)
	s.live = newLiveState(s)
	s.warmedUp, s.stopWarmUp = make(chan struct{}), make(chan struct{})
	if cfg.WarmUp {
		go s.warmUp(s.stopWarmUp)
	} else {
		close(s.warmedUp)
	}
	return s
}

// Close stops what the server's store runs in the background (the name index's builds,
// which read the database the caller owns and closes next) and closes the response cache's
// file. The server must not answer requests after.
func (s *Server) Close() error {
	select {
	case <-s.stopWarmUp:
	default:
		close(s.stopWarmUp)
	}
	<-s.warmedUp // it reads the store
	if st, ok := s.cfg.Store.(interface{ Stop() }); ok {
		st.Stop()
	}
	return s.cache.Close()
}

// ServeHTTP answers every request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	route := api.OtherRoute
	addr := s.clientAddr(r)
	path := r.URL.EscapedPath()
	var t target
	defer func() {
		if p := recover(); p != nil {
			s.cfg.Logger.Error("panic", "route", route, "panic", p, "stack", string(debug.Stack()))
			if !rec.wrote {
				s.fail(rec, r, respond.Internal(nil))
			}
		}
		d := time.Since(start)
		s.metrics.observe(route, rec.status, d)
		if s.cfg.AccessLog != nil {
			s.cfg.AccessLog.write(start.Add(d), accessEntry{method: r.Method, path: scrubPath(path, route, t),
				route: route, status: rec.status, bytes: rec.bytes, took: d, remote: addr})
		}
	}()
	// Surfaces live outside /api/: a path is looked for among them once, for its headers
	// and its answer.
	var sf Surface
	apiPath := isAPIPath(path)
	if !apiPath {
		sf = s.surfaceAt(path)
	}
	s.commonHeaders(rec.Header(), r, apiPath || sf != nil)
	if im := s.cfg.Mounts.Images; im != nil && !apiPath {
		if name, ok := im.Route(r.Method, path); ok {
			t.own, route, path = true, name, clip(path)
			route = s.serveImages(rec, r, im, route, addr)
			return
		}
	}
	// An /api/ path is read once, for the writes' table and the APIs'.
	apiT, isAPI := s.match(path)
	if isAPI && apiT.writes {
		t = apiT
		route = s.serveWrites(rec, r, apiT, addr)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		t = apiT // only for the log: a preflight's path is shown with {key}
		route = s.otherMethod(rec, r, path)
		return
	}
	switch path {
	case "/healthz":
		route = "healthz"
		respond.JSON(rec, []byte(`{"status":"ok"}`))
		return
	case "/readyz":
		route = "readyz"
		s.ready(rec, r)
		return
	case "/metrics":
		route = "metrics"
		s.metrics.handler().ServeHTTP(rec, r)
		return
	}
	if d := s.cfg.Mounts.Docs; d != nil {
		if name, ok := d.Route(path); ok {
			route = name
			s.serveDocs(rec, r)
			return
		}
	}
	if sf != nil {
		t.own = true
		s.serveSurface(rec, r, sf, addr, &path, &route)
		return
	}
	if lt, ok := parseLive(path); ok {
		route, path = lt.route, lt.logPath(path)
		s.serveLive(rec, r, lt, addr)
		return
	}
	if !isAPI {
		s.fail(rec, r, respond.ErrNotFound)
		return
	}
	t = apiT
	route = t.Route
	// One context for the rest of the request: its route and logger, for logs, and its
	// deadline, which bounds the key lookup and the limiter as well as the answer.
	ctx := s.requestContext(r, route)
	defer ctx.stop()
	s.serveAPI(rec, r.WithContext(ctx), t, addr, &route)
}

// requestContext is the context of a request's work once its route is known: the route and
// logger, for logs, and the request's deadline. The caller stops it.
func (s *Server) requestContext(r *http.Request, route string) *lazyDeadline {
	return withLazyDeadline(respond.NewContext(r.Context(), route, s.cfg.Logger), s.cfg.RequestTimeout, s.deadlines)
}

// requestKey is the key a request for t carries: in its path, or in X-API-KEY.
func requestKey(r *http.Request, t api.Target) string {
	if t.HeaderKey {
		return r.Header.Get("X-API-KEY")
	}
	return t.Key
}

// serveAPI answers an API path. A refused key names no endpoint: route becomes OtherRoute.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, t target, addr string, route *string) {
	k, ok := s.admitKey(w, r, t.Target, requestKey(r, t.Target), addr, func() { *route = api.OtherRoute })
	if !ok {
		return
	}
	s.cache.Serve(w, r, respcache.Key(r, t.Route, t.Args, k.Tier), func(w http.ResponseWriter, r *http.Request) {
		s.answer(w, r, t, k.Tier)
	})
}

// admitKey resolves the key of a request for t, refuses a free key an endpoint for paying
// ones, and counts the request against the key's limit; ok false means it was refused, and
// answered. unknown is called first when the key is no key at all.
func (s *Server) admitKey(w http.ResponseWriter, r *http.Request, t api.Target, key, addr string, unknown func()) (store.Key, bool) {
	k, err := s.cfg.Auth.Resolve(r.Context(), key)
	if err != nil {
		if errors.Is(err, auth.ErrUnknownKey) {
			unknown()
		}
		s.refuseKey(w, r, addr, err)
		return k, false
	}
	// Refused before it is counted: a call the key may not make costs it no quota.
	if t.PremiumOnly && k.Tier == store.Free {
		s.fail(w, r, respond.ErrPremiumNeeded)
		return k, false
	}
	return k, s.admit(w, r, k)
}

// fail writes an error answer through the one error path, logging with the server's logger.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	respond.Write(w, r, s.cfg.Logger, err)
}

// refuseKey answers a key that did not resolve. Only failed checks are limited per address:
// a valid key is served from an address that others behind the same NAT made blocked, and
// an unknown one from a blocked address gets 429 instead of 400.
func (s *Server) refuseKey(w http.ResponseWriter, r *http.Request, addr string, err error) {
	if !errors.Is(err, auth.ErrUnknownKey) {
		s.fail(w, r, err)
		return
	}
	// Failed key checks, like rate limits, count in real time: SPORTSDB_NOW pins the data
	// clock (next and previous events), not the passing of minutes.
	now := time.Now()
	if retry, blocked := s.cfg.Guard.Blocked(addr, now); blocked {
		s.fail(w, r, respond.TooManyKeyFailures(retry))
		return
	}
	s.cfg.Guard.Fail(addr, now)
	s.fail(w, r, respond.ErrInvalidKey)
}

// admit counts the request against its key's limit and sets the rate limit headers; false
// means it was refused, and answered.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, k store.Key) bool {
	d, err := s.cfg.Limiter.Allow(r.Context(), k.Hash, s.cfg.Limits[k.Tier])
	if err != nil {
		s.fail(w, r, fmt.Errorf("rate limit: %w", err))
		return false
	}
	ratelimit.SetHeaders(w.Header(), d)
	if !d.Allowed {
		s.fail(w, r, respond.RateLimited(d.Limit, d.RetryAfter))
		return false
	}
	return true
}

// ready reports whether the database answers and how rate limits are shared. A draining
// server is not ready, whatever its database says, so a load balancer stops sending to it.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	ready, db, status := "ready", "ok", http.StatusOK
	switch {
	case s.draining.Load():
		// At once, without waiting on the database.
		ready, db, status = "draining", "not checked", http.StatusServiceUnavailable
	case s.cfg.Store.Ping(ctx) != nil:
		ready, db, status = "unavailable", "unavailable", http.StatusServiceUnavailable
	case !s.warmed(ctx):
		ready, status = "starting", http.StatusServiceUnavailable
	}
	// A limiter whose shared store is away still serves, per replica: it is reported here,
	// not a reason to take the replica out of service.
	_, limits := s.cfg.Limiter.Healthy()
	body := []byte(`{"status":` + quote(ready) + `,"database":` + quote(db) + `,"ratelimit":` + quote(limits) + `}`)
	w.Header().Set("Cache-Control", "no-store")
	respond.Status(w, status, body)
}

// warmed waits, within ctx, for a store that builds something in memory at start (the name
// index) to have built it, and for the server's warm-up (warmup.go) to have ended: until
// then its answers are slower, so a load balancer should wait before sending it traffic.
func (s *Server) warmed(ctx context.Context) bool {
	if w, ok := s.cfg.Store.(interface{ Warmed() <-chan struct{} }); ok {
		select {
		case <-w.Warmed():
		case <-ctx.Done():
			return false
		}
	}
	select {
	case <-s.warmedUp:
		return true
	case <-ctx.Done():
		return false
	}
}

func quote(s string) string { return string(appendQuoted(nil, s)) }

// scrubPath is the path an access log line shows, never a key. A path a route table names
// is shown with its key segment as {key}. Any other API-like path may hold a key in any
// segment (//api/..., /API/..., dot segments, escapes, unknown files), so it is shown as its
// route name only; the server's own paths (healthz, readyz, metrics, a surface's path, whose
// key serveSurface has already replaced (t.own), and a live path, whose key ServeHTTP has)
// are shown as sent. A route that is neither
// (a preflight, say) on a path no table names is shown as its route alone.
func scrubPath(p, route string, t target) string {
	switch {
	case t.own && route != api.OtherRoute, t.mount == nil && ownRoute(route):
		return p
	case t.mount == nil && !t.writes || !t.Known():
		return "{" + api.OtherRoute + "}"
	case t.HeaderKey:
		return clip(p)
	}
	// api.SplitPath read the path as /api/vN/json/{key}/...: the key is its fifth segment.
	const prefix = len("/api/vN/json/")
	end := len(p)
	if i := strings.IndexByte(p[prefix:], '/'); i >= 0 {
		end = prefix + i
	}
	return clip(p[:prefix] + "{key}" + p[end:])
}

// ownRoute says whether a route is one of the server's own paths, which hold no key as sent.
func ownRoute(route string) bool {
	switch route {
	case "healthz", "readyz", "metrics":
		return true
	}
	return strings.HasPrefix(route, "v2/changes") || strings.HasPrefix(route, "v2/stream/")
}

// clip shortens a path for the log.
func clip(p string) string {
	if len(p) > 200 {
		return p[:200] + "…"
	}
	return p
}

// statusRecorder remembers the status and size of an answer for logs and metrics.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		r.ResponseWriter.WriteHeader(code)
	}
}

// ReadFrom keeps the connection's own ReadFrom (sendfile) reachable through the recorder.
func (r *statusRecorder) ReadFrom(src io.Reader) (int64, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	var n int64
	var err error
	if rf, ok := r.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(src)
	} else {
		n, err = io.Copy(struct{ io.Writer }{r.ResponseWriter}, src)
	}
	r.bytes += int(n)
	return n, err
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}
