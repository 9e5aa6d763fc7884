package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/live"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// liveState is the server's side of the change feed: the hub its streams share and the
// count of open streams per key.
type liveState struct {
	hub    *live.Hub
	limits map[store.Tier]int // open streams per key, by tier
	// leaser, when the limiter has one (Redis), counts the streams of every replica; leases
	// are named replica-n.
	leaser  StreamLeaser
	replica string
	log     *slog.Logger
	// keys ends the streams of revoked keys (livekeys.go).
	keys *keyStreams
	// ended is called when a stream has ended (or failed to open) and given its slot back:
	// an event for tests.
	ended func()

	mu      sync.Mutex
	open    map[string]int                 // by key hash: the streams open here
	leases  map[string]map[string]struct{} // by key hash: this replica's leases in Redis
	next    uint64                         // number of the next lease
	renewal chan struct{}                  // closed to stop the renewal of the leases; nil when none run
	// renewing keeps a release from crossing a renewal, which would count a closed stream again.
	renewing sync.Mutex
}

// StreamLeaser counts the open streams of each key for every replica sharing it
// (ratelimit.Redis): a lease per stream, renewed while it is open, so that the streams of a
// replica that stopped without closing them expire.
type StreamLeaser interface {
	AcquireStream(ctx context.Context, id, lease string, limit int) (bool, error)
	RefreshStreams(ctx context.Context, held map[string][]string) error
	ReleaseStream(ctx context.Context, id, lease string) error
}

func newLiveState(s *Server) *liveState {
	rd := live.Renderer{Src: s.cfg.Store, View: s.cfg.Mounts.LiveView}
	limits := s.cfg.OpenStreams
	if limits == nil {
		limits = live.OpenStreams
	}
	l := &liveState{hub: live.NewHub(rd, s.Draining, s.cfg.Logger), limits: limits, log: s.cfg.Logger,
		open: map[string]int{}, leases: map[string]map[string]struct{}{}, keys: newKeyStreams(s.cfg.Auth),
		ended: func() {}}
	if sl, ok := s.cfg.Limiter.(StreamLeaser); ok {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		l.leaser, l.replica = sl, hex.EncodeToString(b)
	}
	return l
}

// reserve takes one of the key's stream slots; release gives it back. With a leaser the
// slots are shared by every replica; while it cannot answer (Redis unreachable) each replica
// counts its own streams.
func (l *liveState) reserve(ctx context.Context, k store.Key) (release func(), ok bool) {
	limit := l.limits[k.Tier]
	if l.leaser != nil {
		l.mu.Lock()
		l.next++
		lease := l.replica + "-" + strconv.FormatUint(l.next, 10)
		l.mu.Unlock()
		ok, err := l.leaser.AcquireStream(ctx, k.Hash, lease, limit)
		if err == nil {
			if !ok {
				return nil, false
			}
			l.mu.Lock()
			l.count(k.Hash, 1)
			l.hold(k.Hash, lease)
			l.mu.Unlock()
			return func() { l.releaseLease(k.Hash, lease) }, true
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[k.Hash] >= limit {
		return nil, false
	}
	l.count(k.Hash, 1)
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.count(k.Hash, -1)
	}, true
}

// count moves the streams open here for a key; l.mu is held.
func (l *liveState) count(id string, by int) {
	if l.open[id] += by; l.open[id] <= 0 {
		delete(l.open, id)
	}
}

// hold records a lease taken, starting the renewal with the first; l.mu is held.
func (l *liveState) hold(id, lease string) {
	if l.leases[id] == nil {
		l.leases[id] = map[string]struct{}{}
	}
	l.leases[id][lease] = struct{}{}
	if l.renewal == nil {
		l.renewal = make(chan struct{})
		go l.renew(l.renewal)
	}
}

func (l *liveState) releaseLease(id, lease string) {
	l.mu.Lock()
	l.count(id, -1)
	delete(l.leases[id], lease)
	if len(l.leases[id]) == 0 {
		delete(l.leases, id)
	}
	if len(l.leases) == 0 && l.renewal != nil {
		close(l.renewal)
		l.renewal = nil
	}
	l.mu.Unlock()
	l.renewing.Lock()
	defer l.renewing.Unlock()
	// Unreachable Redis: the lease expires there by itself.
	_ = l.leaser.ReleaseStream(context.Background(), id, lease)
}

// renew refreshes the leases held every third of their lifetime until stop closes.
func (l *liveState) renew(stop chan struct{}) {
	tick := time.NewTicker(ratelimit.StreamLeaseTTL / 3)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		l.renewing.Lock()
		l.mu.Lock()
		held := make(map[string][]string, len(l.leases))
		for id, leases := range l.leases {
			for lease := range leases {
				held[id] = append(held[id], lease)
			}
		}
		l.mu.Unlock()
		err := l.leaser.RefreshStreams(context.Background(), held)
		l.renewing.Unlock()
		if err != nil && !failing {
			l.log.Warn("streams: renew the leases of open streams", "err", err)
		}
		failing = err != nil
	}
}

// liveWords are the first segments of live paths with the key in X-API-KEY.
var liveWords = map[string]bool{"changes": true, "stream": true}

// liveTarget is a request for the change feed or a stream.
type liveTarget struct {
	what      string // "changes", "livescore" or "stream"; "" for a live path that is none (404)
	sport     string // folded; livescore streams only
	pathKey   string
	headerKey bool
	route     string
}

// parseLive reads /api/v2/json/[{key}/]changes and /api/v2/json/[{key}/]stream/...; ok is
// false for every other path. A path under changes or stream that names nothing (an empty
// or spaced segment, one too many) is a live path with no what: 404, without a key check,
// so that it counts nothing against the client's failed key checks.
func parseLive(rawPath string) (t liveTarget, ok bool) {
	rest, found := strings.CutPrefix(rawPath, "/api/v2/json/")
	if !found {
		return t, false
	}
	segs := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	switch {
	case liveWords[segs[0]]:
		t.headerKey = true
	case len(segs) > 1 && liveWords[segs[1]]:
		key, err := url.PathUnescape(segs[0])
		if err != nil || key == "" {
			return liveTarget{route: api.OtherRoute}, true
		}
		t.pathKey, segs = key, segs[1:]
	default:
		return t, false
	}
	switch {
	case len(segs) == 1 && segs[0] == "changes":
		t.what, t.route = "changes", "v2/changes"
	case len(segs) == 2 && segs[0] == "stream" && segs[1] == "changes":
		t.what, t.route = "stream", "v2/stream/changes"
	case len(segs) >= 2 && len(segs) <= 3 && segs[0] == "stream" && segs[1] == "livescore":
		t.what, t.route = "livescore", "v2/stream/livescore"
		if len(segs) == 3 {
			sport, err := url.PathUnescape(segs[2])
			if err != nil || len(sport) > maxSegment || strings.TrimSpace(sport) != sport || record.Fold(sport) == "" {
				return liveTarget{route: api.OtherRoute}, true
			}
			t.sport = record.Fold(sport)
		}
	default:
		return liveTarget{route: api.OtherRoute}, true
	}
	return t, true
}

// logPath is the path the access log shows: as sent when the key came in X-API-KEY, with the
// key segment as {key} otherwise.
func (t liveTarget) logPath(rawPath string) string {
	if t.what == "" {
		return rawPath // scrubbed whole by the route
	}
	if t.headerKey {
		return clip(rawPath)
	}
	rest := strings.TrimPrefix(rawPath, "/api/v2/json/")
	_, after, _ := strings.Cut(rest, "/")
	return clip("/api/v2/json/{key}/" + after)
}

// serveLive answers the change feed and the streams: a premium key, counted against the
// rate limit like any request, but outside the response cache and the request deadline.
func (s *Server) serveLive(w http.ResponseWriter, r *http.Request, t liveTarget, addr string) {
	ctx := respond.NewContext(r.Context(), t.route, s.cfg.Logger)
	r = r.WithContext(ctx)
	if t.what == "" {
		s.fail(w, r, respond.ErrNotFound)
		return
	}
	key := t.pathKey
	if t.headerKey {
		key = r.Header.Get("X-API-KEY")
	}
	setup, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
	defer cancel()
	k, err := s.cfg.Auth.Resolve(setup, key)
	if err != nil {
		s.refuseKey(w, r, addr, err)
		return
	}
	if k.Tier == store.Free {
		s.fail(w, r, respond.ErrPremiumNeeded)
		return
	}
	if t.what == "changes" {
		if s.admit(w, r.WithContext(setup), k) {
			live.ServeChanges(w, r.WithContext(setup), s.cfg.Store)
		}
		return
	}
	s.serveStream(w, r, setup, t, k)
}

func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, setup context.Context, t liveTarget, k store.Key) {
	f, since, err := streamParams(r, t)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f.Rewrite, f.Form = s.imageRewrite(setup, r)
	release, ok := s.live.reserve(setup, k)
	if !ok {
		s.fail(w, r, respond.WithCode(http.StatusTooManyRequests, "Too many open streams for this key", nil))
		return
	}
	if !s.admit(w, r.WithContext(setup), k) {
		release()
		return
	}
	live.SetHeaders(w.Header())
	if r.Method == http.MethodHead || s.Draining() {
		release()
		// A draining server sends only the retry delay: the client reconnects elsewhere.
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("retry: 1000\n\n"))
		return
	}
	// The slot is given back when the stream ends, which may be after this handler returns.
	stop, forget := s.live.keys.add(k.Hash)
	err = s.live.hub.Serve(r.Context(), stop, w, r, f, since, func() { forget(); release(); s.live.ended() })
	switch {
	case errors.Is(err, live.ErrNotOpened):
		s.fail(w, r, respond.Internal(err))
	case err != nil && r.Context().Err() == nil:
		s.cfg.Logger.Warn("stream ended by a failure", "route", t.route, "err", err)
	}
}

// streamParams reads what a stream follows and where it resumes: Last-Event-ID, which an
// EventSource sends when it reconnects, wins over ?since= of the URL it was opened with.
func streamParams(r *http.Request, t liveTarget) (live.Filter, int64, error) {
	f := live.Filter{Kinds: []*record.Kind{record.LiveScore}, Sport: t.sport, Name: "livescore"}
	q, err := live.Query(r)
	if err != nil {
		return f, 0, err
	}
	if t.what == "stream" {
		kinds, err := live.ParseKinds(q.Get("kinds"))
		if err != nil {
			return f, 0, err
		}
		f = live.Filter{Kinds: kinds}
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		since, ok := live.ParseCursor(id)
		if !ok {
			return f, 0, respond.WithCode(http.StatusBadRequest, "Invalid Last-Event-ID: want a cursor (digits)", nil)
		}
		return f, since, nil
	}
	since, err := live.ParseSince(q)
	return f, since, err
}

// Unwrap lets http.ResponseController reach the connection (streams flush, and lift the
// server's read and write timeouts).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// SetStreamPing sets how often idle streams send a ping comment (live.DefaultPing unless
// set); call it before serving.
func (s *Server) SetStreamPing(d time.Duration) { s.live.hub.SetPing(d) }

// imageRewrite is the rewrite of the image addresses in the records a stream sends to r,
// outside the response cache (imageurl.Rewriter.For), or nil, and the form of what it writes
// (live.Filter.Form). (The change feed's body names records without their fields.) The set
// of held images is brought up to the data version as the stream opens; afterwards every
// answer the cache computes keeps it up to date.
func (s *Server) imageRewrite(ctx context.Context, r *http.Request) (func([]byte) []byte, string) {
	rw, ok := s.cfg.Images.(interface {
		For(*http.Request) (func([]byte) []byte, string)
	})
	if !ok {
		return nil, ""
	}
	if v, err := s.cfg.Store.DataVersion(ctx); err == nil {
		if _, err := s.cfg.Images.At(ctx, v); err != nil {
			s.cfg.Logger.Warn("stream: read the images held", "err", err)
		}
	}
	return rw.For(r)
}
