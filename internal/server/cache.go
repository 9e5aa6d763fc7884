package server

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/store"
)

// The response cache keeps whole answers, keyed by what an answer depends on: the request
// (less the key), the tier class, and the store's data version, so it never serves data older
// than the last import. Answers that depend on the clock (next and previous events, live
// scores, TV listings from today) are refreshed after cacheTTL: the first request after that
// starts one recomputation in the background and is answered from the entry meanwhile, so
// entries made together do not all miss together; an entry more than twice cacheTTL old is
// not served. The others stay until the data changes. Memory is bounded by a byte budget
// with LRU eviction.

const (
	defaultCacheBytes = 64 << 20
	cacheTTL          = 5 * time.Second
	refreshTimeout    = 10 * time.Second
	maxCacheKey       = 1024
	minGzipBytes      = 1024
)

type cacheEntry struct {
	key     string
	version int64
	expires time.Time // zero: until the data version changes
	// refreshing is set while one background recomputation of an expired entry runs.
	refreshing bool
	body       []byte
	gz         []byte // gzip of body, made on first demand
	etag       string
	status     int
	elem       *list.Element
	gzOnce     sync.Once
	byteLen    int
}

type responseCache struct {
	versions *versionGate
	ttl      time.Duration
	budget   int
	mu       sync.Mutex
	used     int
	entries  map[string]*cacheEntry
	lru      *list.List
	hits     func()
	misses   func()
}

func newResponseCache(dataVersion func(context.Context) (int64, error), budget int) *responseCache {
	return &responseCache{versions: newVersionGate(dataVersion), ttl: cacheTTL, budget: budget, entries: map[string]*cacheEntry{}, lru: list.New(), hits: func() {}, misses: func() {}}
}

// clockFiles and clockGroups answer relative to now: next and previous events, live scores,
// TV listings from today on.
var (
	clockFiles  = map[string]bool{"eventsnext.php": true, "eventslast.php": true, "eventsnextleague.php": true, "eventspastleague.php": true, "livescore.php": true, "eventstv.php": true}
	clockGroups = map[string]bool{"schedule": true, "filter": true, "livescore": true}
)

func clockDependent(t target) bool {
	if t.version == "v1" {
		return clockFiles[t.file]
	}
	return len(t.segments) > 0 && clockGroups[t.segments[0]]
}

func cacheKey(r *http.Request, t target, tier store.Tier) string {
	class := "p"
	if tier == store.Free {
		class = "f"
	}
	var b strings.Builder
	b.WriteString(class)
	switch {
	case t.legacyLivescore:
		b.WriteString("|L|")
	case t.version == "v1":
		b.WriteString("|1|")
		b.WriteString(t.file)
	default:
		b.WriteString("|2|")
		b.WriteString(strings.Join(t.segments, "\x00"))
	}
	b.WriteByte('?')
	b.WriteString(r.URL.RawQuery)
	return b.String()
}

// serve answers from the cache or runs next and keeps its answer.
func (c *responseCache) serve(w http.ResponseWriter, r *http.Request, t target, tier store.Tier, next http.HandlerFunc) {
	key := cacheKey(r, t, tier)
	version, err := c.versions.get(r.Context())
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	if len(key) <= maxCacheKey {
		if e, refresh := c.get(key, version); e != nil {
			c.hits()
			if refresh {
				go c.refresh(r, t, key, version, next)
			}
			c.write(w, r, e)
			return
		}
	}
	c.misses()
	e, buf := c.compute(r, t, key, version, next)
	if e == nil {
		copyHeader(w.Header(), buf.header)
		w.WriteHeader(buf.status)
		_, _ = w.Write(buf.body.Bytes())
		return
	}
	c.write(w, r, e)
}

// compute runs the API and keeps a successful answer. A nil entry means the answer was not
// a 200; buf holds it.
func (c *responseCache) compute(r *http.Request, t target, key string, version int64, next http.HandlerFunc) (*cacheEntry, *bufferWriter) {
	buf := &bufferWriter{header: http.Header{}}
	next(buf, r)
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	if buf.status != http.StatusOK {
		return nil, buf
	}
	e := &cacheEntry{key: key, version: version, body: buf.body.Bytes(), status: buf.status}
	if clockDependent(t) {
		e.expires = time.Now().Add(c.ttl)
	}
	e.etag = etagOf(e.body)
	if len(key) <= maxCacheKey {
		c.put(e)
	}
	return e, buf
}

// refresh recomputes an expired entry in the background, detached from the request that
// noticed it (which has been answered), within refreshTimeout.
func (c *responseCache) refresh(r *http.Request, t target, key string, version int64, next http.HandlerFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), refreshTimeout)
	defer cancel()
	if e, _ := c.compute(r.WithContext(ctx), t, key, version, next); e == nil {
		c.mu.Lock()
		if old, ok := c.entries[key]; ok {
			c.remove(old) // the recomputation failed: the next request computes afresh
		}
		c.mu.Unlock()
	}
}

// get returns the entry for key at this data version, and whether the caller should start
// its background refresh (the entry has expired and no refresh runs yet).
func (c *responseCache) get(key string, version int64) (e *cacheEntry, refresh bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	if e.version != version {
		c.remove(e)
		return nil, false
	}
	if !e.expires.IsZero() {
		now := time.Now()
		if now.After(e.expires.Add(c.ttl)) {
			c.remove(e) // too old to serve while refreshing
			return nil, false
		}
		if now.After(e.expires) && !e.refreshing {
			e.refreshing, refresh = true, true
		}
	}
	c.lru.MoveToFront(e.elem)
	return e, refresh
}

func (c *responseCache) put(e *cacheEntry) {
	e.byteLen = len(e.body) + len(e.key) + 256
	if e.byteLen > c.budget/8 {
		return // one answer may not crowd out the rest
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[e.key]; ok {
		c.remove(old)
	}
	e.elem = c.lru.PushFront(e)
	c.entries[e.key] = e
	c.used += e.byteLen
	for c.used > c.budget {
		c.remove(c.lru.Back().Value.(*cacheEntry))
	}
}

func (c *responseCache) remove(e *cacheEntry) {
	c.lru.Remove(e.elem)
	delete(c.entries, e.key)
	c.used -= e.byteLen
}

// write sends an entry with its ETag, answering 304 to a matching If-None-Match and gzip to
// clients that accept it.
func (c *responseCache) write(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	h := w.Header()
	// Canonical keys assigned directly: Header.Set canonicalises on every call.
	h["Content-Type"] = jsonType
	h["Etag"] = []string{e.etag}
	h["Cache-Control"] = noCache
	h["Vary"] = varyEncoding
	if etagMatches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := e.body
	if len(body) >= minGzipBytes && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		e.gzOnce.Do(func() { e.gz = gzipBytes(e.body) })
		body = e.gz
		h.Set("Content-Encoding", "gzip")
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(e.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

var (
	jsonType     = []string{"application/json"}
	noCache      = []string{"no-cache"}
	varyEncoding = []string{"Accept-Encoding"}
)

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, part := range strings.Split(header, ",") {
		p := strings.TrimSpace(part)
		if p == "*" || strings.TrimPrefix(p, "W/") == etag {
			return true
		}
	}
	return false
}

func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") || strings.Contains(params, "q=0.")
		}
	}
	return false
}

func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return out.Bytes()
}

func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// bufferWriter collects an answer so it can be cached before it is sent.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
