// Package server wires sportsdb together: it reads the API path, checks the key, applies
// the rate limit, and hands the request to the v1 or v2 API. It also serves health and
// metrics, writes access logs without keys, and turns panics into JSON 503s.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/api/respond"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// Config is what a server is built from.
type Config struct {
	Store   store.Store
	Clock   clock.Clock
	Caps    *caps.Table
	Auth    *auth.Authenticator
	Guard   *auth.FailGuard
	Limiter Limiter
	Logger  *slog.Logger
	// AccessLog writes a line for every request; nil logs none. The Logger logs the rest.
	AccessLog *AccessLog
	// RequestTimeout bounds the store work of one request (default 1.8 s), so a database
	// that stopped answering gives a 503 within 2 s instead of a hanging client.
	RequestTimeout time.Duration
	// TrustProxy takes the client address from X-Forwarded-For (behind a reverse proxy).
	TrustProxy bool
	// Limits are the requests per rolling minute of each tier; nil means DefaultLimits.
	Limits map[store.Tier]int
	// CacheBytes bounds the memory of the response cache (default 64 MiB).
	CacheBytes int
	// CacheDir is where large cached answers are kept as files (default: the system's
	// temporary directory); the server makes a directory of its own in it, removed by Close.
	CacheDir string
	// CacheDiskBytes bounds those files (default 1 GiB); negative keeps every answer in memory.
	CacheDiskBytes int64
}

// Limiter counts requests per key and reports whether its limits are shared.
type Limiter interface {
	ratelimit.Limiter
	Healthy() (ok bool, detail string)
}

// Server is the HTTP handler of sportsdb.
type Server struct {
	cfg     Config
	v1      *v1.API
	v2      *v2.API
	metrics *metrics
	cache   *responseCache
}

// DefaultLimits are the public service's requests per rolling minute of each tier.
var DefaultLimits = map[store.Tier]int{
	store.Free: ratelimit.FreeLimit, store.Premium: ratelimit.PremiumLimit, store.Business: ratelimit.BusinessLimit,
}

// ParseLimits reads "free:30,premium:100,business:120"; tiers not named keep their default.
func ParseLimits(s string) (map[store.Tier]int, error) {
	out := map[store.Tier]int{}
	for t, n := range DefaultLimits {
		out[t] = n
	}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(part), ":")
		tier, known := store.ParseTier(strings.TrimSpace(name))
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || !known || err != nil || n < 1 {
			return nil, fmt.Errorf("limits %q: want tier:requests-per-minute pairs, like free:30,premium:100", s)
		}
		out[tier] = n
	}
	return out, nil
}

// New builds a server. Caps defaults are registered by the APIs; cfg.Caps may already hold
// overrides loaded from a caps file.
func New(cfg Config) *Server {
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = 1800 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == nil {
		cfg.Limits = DefaultLimits
	}
	deps := api.Deps{Store: cfg.Store, Clock: cfg.Clock, Caps: cfg.Caps}
	s := &Server{cfg: cfg, v1: v1.New(deps), v2: v2.New(deps)}
	s.metrics = newMetrics(s.routeNames())
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = defaultCacheBytes
	}
	if cfg.CacheDiskBytes == 0 {
		cfg.CacheDiskBytes = defaultSpillBytes
	}
	var spill *spillDir
	if cfg.CacheDiskBytes > 0 {
		spill = newSpillDir(cfg.CacheDir, cfg.CacheDiskBytes)
	}
	s.cache = newResponseCache(cfg.Store.DataVersion, cfg.CacheBytes, spill)
	if cfg.Clock != nil {
		s.cache.now = cfg.Clock.Now
	}
	s.cache.warn = func(msg string, err error) { cfg.Logger.Warn(msg, "err", err) }
	s.cache.hits = s.metrics.cache.WithLabelValues("hit").Inc
	s.cache.misses = s.metrics.cache.WithLabelValues("miss").Inc
	s.cache.refreshes = s.metrics.cache.WithLabelValues("refresh").Inc
	return s
}

// Close removes the files of the response cache. The server must not answer requests after.
func (s *Server) Close() error { return s.cache.Close() }

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
				respond.Unavailable(rec)
			}
		}
		d := time.Since(start)
		s.metrics.observe(route, rec.status, d)
		if s.cfg.AccessLog != nil {
			s.cfg.AccessLog.write(start.Add(d), accessEntry{method: r.Method, path: scrubPath(path, route, t),
				route: route, status: rec.status, bytes: rec.bytes, took: d, remote: addr})
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rec.Header().Set("Allow", "GET, HEAD")
		respond.Message(rec, http.StatusMethodNotAllowed, "Method not allowed")
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
	var ok bool
	if t, ok = s.match(path); !ok {
		respond.NotFound(rec)
		return
	}
	route = t.Route
	// One context for the rest of the request: its route, for logs, and its deadline, which
	// bounds the key lookup and the limiter as well as the answer.
	ctx := withLazyDeadline(respond.ContextWithRoute(r.Context(), route), s.cfg.RequestTimeout)
	defer ctx.stop()
	s.serveAPI(rec, r.WithContext(ctx), t, addr, &route)
}

// serveAPI answers an API path. A refused key names no endpoint: route becomes OtherRoute.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, t target, addr string, route *string) {
	key := t.Key
	if t.HeaderKey {
		key = r.Header.Get("X-API-KEY")
	}
	// Failed key checks, like rate limits, count in real time: SPORTSDB_NOW pins the data
	// clock (next and previous events), not the passing of minutes.
	now := time.Now()
	if retry, blocked := s.cfg.Guard.Blocked(addr, now); blocked {
		w.Header().Set("Retry-After", strconv.Itoa(int((retry+time.Second-1)/time.Second)))
		respond.Message(w, http.StatusTooManyRequests, "Too many invalid API keys from this address")
		*route = api.OtherRoute
		return
	}
	k, err := s.cfg.Auth.Resolve(r.Context(), key)
	switch {
	case errors.Is(err, auth.ErrUnknownKey):
		s.cfg.Guard.Fail(addr, now)
		respond.InvalidKey(w)
		*route = api.OtherRoute
		return
	case err != nil:
		respond.Error(w, r, err)
		return
	}
	d, err := s.cfg.Limiter.Allow(r.Context(), k.Hash, s.cfg.Limits[k.Tier])
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	ratelimit.SetHeaders(w.Header(), d)
	if !d.Allowed {
		ratelimit.WriteTooMany(w, d)
		return
	}
	if t.PremiumOnly && k.Tier == store.Free {
		respond.PremiumNeeded(w)
		return
	}
	s.cache.serve(w, r, t, k.Tier, func(w http.ResponseWriter, r *http.Request) {
		t.mount.Serve(w, r, t.Target, k.Tier)
	})
}

// ready reports whether the database answers and how rate limits are shared.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	ready, db, status := "ready", "ok", http.StatusOK
	if err := s.cfg.Store.Ping(ctx); err != nil {
		ready, db, status = "unavailable", "unavailable", http.StatusServiceUnavailable
	}
	// A limiter whose shared store is away still serves, per replica: it is reported here,
	// not a reason to take the replica out of service.
	_, limits := s.cfg.Limiter.Healthy()
	body := []byte(`{"status":` + quote(ready) + `,"database":` + quote(db) + `,"ratelimit":` + quote(limits) + `}`)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func quote(s string) string { return string(appendQuoted(nil, s)) }

// clientAddr is the address failed key checks are counted against.
func (s *Server) clientAddr(r *http.Request) string {
	if s.cfg.TrustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			return strings.TrimSpace(first)
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// scrubPath is the path an access log line shows, never a key. A path a route table names
// is shown with its key segment as {key}. Any other API-like path may hold a key in any
// segment (//api/..., /API/..., dot segments, escapes, unknown files), so it is shown as its
// route name only; the server's own paths (route healthz and the like) are shown as sent.
func scrubPath(p, route string, t target) string {
	switch {
	case t.mount == nil && route != api.OtherRoute:
		return p
	case t.mount == nil || !t.Known():
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
