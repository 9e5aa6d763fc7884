package respcache

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// The response cache keeps whole answers, keyed by what an answer depends on: the request
// (less the key), the tier class, and the store's data version, so it never serves data older
// than the last import. An answer that read the clock (next and previous events, TV listings
// from today on) declared, while it was computed, the instant from which it may differ
// (clock.Watch): the first of the next events starting, the next event of the selection
// starting, midnight. It is refreshed from then on: the first request after that starts one
// recomputation in the background and is answered from the entry meanwhile, so a popular
// answer is not recomputed in front of its requests. At most refreshSlots recomputations run
// at once, so that after an idle spell the expired entries are brought up to date a few at a
// time rather than all at once; an entry staleLimit past its expiry is not served. An answer
// that read the clock without declaring how long it stands expires after cacheTTL. Memory is
// bounded by a byte budget with LRU eviction. Large answers asked again (or too large for
// memory) go to a file of the server's own (spill.go), bounded by a disk budget with an LRU
// of their own, and are sent from there; so are their gzip forms.

const (
	defaultCacheBytes = 64 << 20
	defaultSpillBytes = 1 << 30
	// spillMinBytes is the size from which an answer is kept in the file rather than memory:
	// the answers in the file live in the system's file cache rather than in the server's
	// heap, where the garbage collector doubles what they take. (Chosen when they were sent
	// with sendfile, which from this size cost no more CPU than a write from memory; they
	// are now copied out, sendFile.)
	spillMinBytes  = 16 << 10
	cacheTTL       = 5 * time.Second
	staleLimit     = time.Minute
	refreshTimeout = 10 * time.Second
	maxCacheKey    = 1024
	minGzipBytes   = 1024
	// holdMinBytes is the size from which an answer from memory is held by its connection
	// and sent in one write (conn.go); a smaller one leaves in one write anyway.
	holdMinBytes = 2048
)

type cacheEntry struct {
	key     string
	version int64
	expires time.Time // by the data clock; zero: until the data version changes
	// refreshing is set while one background recomputation of an expired entry runs.
	refreshing bool
	body       []byte     // nil when the body is in the file
	slot       *spillSlot // the body's place in the spill file, or nil
	size       int        // length of the body
	gz         []byte     // gzip of body, made on first demand
	gzSlot     *spillSlot // instead of gz, for a body in the file: its gzip there too
	etag       string
	status     int
	// form is the answer's Content-Type and Cache-Control, when they are not an API
	// answer's (application/json, no-cache): nil for those.
	form    *answerForm
	elem    *list.Element
	gzOnce  sync.Once
	byteLen int // memory the entry holds
	// spillable marks a large answer kept in memory until it is asked again, when it moves
	// to the file (toFile); moving is set, under the cache's lock, once that move has begun.
	spillable bool
	moving    bool
	// images says the answer depends on the set of images held (Rewriter), as it was at
	// generation imageGen.
	images   bool
	imageGen int64
	// reads are the kinds the answer read as a whole, deps the records it read by id, by
	// values or by a search, and cursor the change feed's up to which it is right (as it was
	// computed, moved on by the checks that found it still right, under mu); tracked says
	// they are known (cachefeed.go).
	reads   kindMask
	deps    []dep
	cursor  int64
	tracked bool
}

// Options are what a cache is made with; zero fields take their defaults.
type Options struct {
	// DataVersion reads the store's data version (store.Store.DataVersion); required.
	DataVersion func(context.Context) (int64, error)
	// Feed, when set, keeps the answers a change of data did not touch (cachefeed.go).
	Feed store.Feed
	// KeepFinds, with Feed, keeps the records the answers' Finds select, and answers the
	// next computations' Finds from them, brought up to date from the feed (findcache.go).
	// Only for computations that read the store and never write it: a computation that
	// writes and reads again must read the store.
	KeepFinds bool
	// Now is the clock answers are computed with, which their expiry is measured on
	// (default time.Now).
	Now func() time.Time
	// MemoryBytes bounds the memory of the cache (default 64 MiB).
	MemoryBytes int
	// Dir is where large answers are kept, in one file of the cache's own, unlinked as soon
	// as it is made (default: the system's temporary directory).
	Dir string
	// DiskBytes bounds that file (default 1 GiB); negative keeps every answer in memory.
	DiskBytes int64
	// Wait, when set, gives a request the deadline it waits for its answer with, its own
	// computation's or another request's (a flight), in place of the request's deadline,
	// which still bounds the reads of the data version and the feed. The computation bounds
	// each of its store reads itself.
	Wait func(*http.Request) (*http.Request, func())
	// Warn reports a degradation the cache keeps serving through (once each).
	Warn func(msg string, err error)
	// Hits, Misses and Refreshes count answers from the cache, computed answers, and
	// background recomputations of expired answers.
	Hits, Misses, Refreshes func()
	// FindsKept and FindsStored count the computations' Finds answered from kept records
	// and from the store (KeepFinds).
	FindsKept, FindsStored func()
	// Hold is called before an answer from memory of more than 2 KiB is written, so that
	// the connection can send headers and body in one write (a smaller one leaves in one
	// write anyway).
	Hold func(ctx context.Context, n int)
	// Rewriter, when set, rewrites each computed answer before it is kept (image
	// addresses: internal/imageurl).
	Rewriter Rewriter
}

// Rewriter changes a computed 200 answer once, before the cache keeps it, so an answer
// served from the cache costs nothing more. What it writes may depend on a set that moves
// with the data version (the images held): an answer that depends on it is stale when the
// set's generation moved, whatever the change feed says.
type Rewriter interface {
	// At brings the set up to the data version and returns its generation.
	At(ctx context.Context, version int64) (int64, error)
	// Key is the cache key of r's answer, made from key (Key's) after At: what the
	// rewrite depends on besides the set.
	Key(r *http.Request, key string) string
	// Rewrite returns the body to keep under key and send, and whether it depends on the
	// generation.
	Rewrite(r *http.Request, key string, body []byte) ([]byte, bool)
}

// TTL is how long an answer that read the clock without declaring how long it stands is
// kept (clock.Watch).
const TTL = cacheTTL

// New makes a cache.
func New(o Options) *Cache {
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = defaultCacheBytes
	}
	if o.DiskBytes == 0 {
		o.DiskBytes = defaultSpillBytes
	}
	var spill *spillFile
	if o.DiskBytes > 0 {
		spill = newSpillFile(o.Dir, o.DiskBytes)
	}
	c := newResponseCache(o.DataVersion, o.MemoryBytes, spill)
	if o.Feed != nil {
		c.feed = &feedTracker{src: o.Feed}
		if o.KeepFinds {
			c.finds = newFindCache(findCacheBytes)
			if o.FindsKept != nil {
				c.finds.kept = o.FindsKept
			}
			if o.FindsStored != nil {
				c.finds.stored = o.FindsStored
			}
		}
	}
	c.wait = o.Wait
	if o.Now != nil {
		c.now = o.Now
	}
	orNop := func(f func()) func() {
		if f == nil {
			return func() {}
		}
		return f
	}
	c.hits, c.misses, c.refreshes = orNop(o.Hits), orNop(o.Misses), orNop(o.Refreshes)
	if o.Warn != nil {
		c.warn = o.Warn
	}
	if o.Hold != nil {
		c.hold = o.Hold
	}
	c.rewriter = o.Rewriter
	return c
}

// Cache is the response cache.
type Cache = responseCache

type responseCache struct {
	versions *versionGate
	// now is the clock the answers are computed with, which their expiry is measured on.
	now func() time.Time
	ttl time.Duration
	// stale is how long past its expiry an entry is still served while it is refreshed.
	stale time.Duration
	// refreshSlots holds a token for each background refresh running; refreshRuns counts
	// them too, so that their end can be waited for.
	refreshSlots chan struct{}
	refreshRuns  sync.WaitGroup
	// joined, when set, is told of each request that waits for another's computation.
	joined  func()
	budget  int
	mu      sync.Mutex
	used    int
	entries map[string]*cacheEntry
	lru     *list.List // entries whose body is in memory
	// spill is nil when large answers are not kept in a file; spilled is their LRU.
	spill   *spillFile
	spilled *list.List
	// evicted remembers the large answers that left memory before they were asked again:
	// the next computation of one goes to the file at once.
	evicted  keyRing
	warn     func(msg string, err error)
	warnOnce sync.Once
	// flights are the computations running, by key: concurrent misses of one answer wait
	// for the first one's result instead of each computing it.
	flights map[string]*flight
	hits    func()
	misses  func()
	// refreshes counts the background recomputations of expired answers.
	refreshes func()
	// hold is called before an answer from memory of n bytes is written (Options.Hold).
	hold func(ctx context.Context, n int)
	// feed, when set, keeps the answers a change of data did not touch (cachefeed.go).
	feed *feedTracker
	// finds, with feed, keeps the records of the computations' Finds (findcache.go).
	finds *findCache
	// wait, when set, gives a request the deadline it waits for its answer with, its own
	// computation's or another request's (a flight), in place of the request's deadline,
	// which still bounds the reads of the data version and the feed (serve --upstream:
	// waitForUpstream). The computation bounds each of its store reads itself.
	wait func(*http.Request) (*http.Request, func())
	// rewriter, when set, rewrites computed answers (Options.Rewriter).
	rewriter Rewriter
}

// newResponseCache makes a cache of budget bytes of memory; spill, if not nil, takes the
// large answers.
func newResponseCache(dataVersion func(context.Context) (int64, error), budget int, spill *spillFile) *responseCache {
	return &responseCache{versions: newVersionGate(dataVersion), now: time.Now, ttl: cacheTTL, stale: staleLimit,
		refreshSlots: make(chan struct{}, max(2, runtime.GOMAXPROCS(0))), budget: budget,
		entries: map[string]*cacheEntry{}, flights: map[string]*flight{}, lru: list.New(), spilled: list.New(), spill: spill,
		evicted: newKeyRing(spillKeys(spill)),
		hits:    func() {}, misses: func() {}, refreshes: func() {}, warn: func(string, error) {},
		hold: func(context.Context, int) {}}
}

// spillKeys is how many evicted large answers the cache remembers: as many as the spill
// file can hold.
func spillKeys(spill *spillFile) int {
	if spill == nil {
		return 0
	}
	return int(min(spill.budget/spillMinBytes, 1<<20))
}

// Key is the cache key of a request for an endpoint: what its answer depends on besides the
// data (the tier class, the route, its path arguments and the query), never the key.
func Key(r *http.Request, route string, args []string, tier store.Tier) string {
	class := "p"
	if tier == store.Free {
		class = "f"
	}
	var b strings.Builder
	b.WriteString(class)
	// The route names the endpoint (and the form, where forms answer differently); the
	// arguments are its path parameters.
	b.WriteByte('|')
	b.WriteString(route)
	b.WriteByte('|')
	b.WriteString(strings.Join(args, "\x00"))
	b.WriteByte('?')
	b.WriteString(r.URL.RawQuery)
	return b.String()
}

// Serve answers from the cache or runs next and keeps its answer; key is the request's
// (Key).
func (c *responseCache) Serve(w http.ResponseWriter, r *http.Request, key string, next http.HandlerFunc) {
	version, err := c.versions.get(r.Context())
	if err != nil {
		respond.Error(w, r, fmt.Errorf("read the data version: %w", err))
		return
	}
	short := r.Context()
	if c.wait != nil {
		var stop func()
		r, stop = c.wait(r)
		defer stop()
	}
	var gen int64
	if c.rewriter != nil {
		if gen, err = c.rewriter.At(short, version); err != nil {
			respond.Error(w, r, err)
			return
		}
		key = c.rewriter.Key(r, key)
	}
	r = c.feedStamp(short, r, version)
	var f *flight
	if len(key) <= maxCacheKey {
		e, refresh, stale := c.get(key, version, gen)
		if stale {
			// An answer a change made stale is asked for again: its queries are worth
			// keeping, and the kept ones worth bringing up to date (findcache.go).
			r = c.keepingFinds(r)
		}
		if e != nil {
			if e.spillable {
				e = c.toFile(e)
			}
			if refresh {
				c.startRefresh(r, e, version, gen, next)
			}
			if c.write(w, r, e, nil) {
				c.hits()
				return
			}
			// Its body is gone (evicted a moment ago): compute the answer afresh.
		}
		var leader bool
		if f, leader = c.join(key, version); !leader {
			if c.await(w, r, f) {
				return
			}
			f = nil // compute our own
		} else {
			defer func() { // also when next panics, so no waiter is left behind
				if f != nil {
					c.land(key, f)
				}
			}()
		}
	}
	c.misses()
	e, buf := c.compute(r, key, version, gen, next)
	body := buf.body.Bytes()
	if f != nil {
		f.entry = e
		c.land(key, f) // the waiters need not wait for this answer to be sent
		f = nil
	}
	if e == nil {
		copyHeader(w.Header(), buf.header)
		w.WriteHeader(buf.status)
		_, _ = w.Write(body)
		return
	}
	c.write(w, r, e, body)
}

// flight is one computation of an answer that concurrent requests for it wait on. entry is
// set, if the answer was cacheable, before done is closed.
type flight struct {
	version int64
	done    chan struct{}
	entry   *cacheEntry
}

// join returns the running computation of key at version and false, or registers a new one
// and returns it with true: the caller computes and then calls land.
func (c *responseCache) join(key string, version int64) (*flight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.flights[key]; ok && f.version == version {
		if c.joined != nil {
			c.joined()
		}
		return f, false
	}
	f := &flight{version: version, done: make(chan struct{})}
	c.flights[key] = f
	return f, true
}

// await waits for a flight and sends its answer; false means the caller computes its own
// (the flight's answer was not a 200, or its body has left the file).
func (c *responseCache) await(w http.ResponseWriter, r *http.Request, f *flight) bool {
	select {
	case <-f.done:
	case <-r.Context().Done():
		// A client that left is recorded as such (499, at debug level); a deadline that
		// passed is named, as the operation that did not end.
		respond.Error(w, r, fmt.Errorf("wait for the same answer computed by another request: %w", r.Context().Err()))
		return true
	}
	if f.entry != nil && c.write(w, r, f.entry, nil) {
		c.hits()
		return true
	}
	return false
}

// land ends a flight: its waiters get f.entry, nil if the answer was not a 200.
func (c *responseCache) land(key string, f *flight) {
	c.mu.Lock()
	if c.flights[key] == f {
		delete(c.flights, key)
	}
	c.mu.Unlock()
	close(f.done)
}

// compute runs the API and keeps a successful answer. A nil entry means the answer was not
// a 200; buf holds it.
func (c *responseCache) compute(r *http.Request, key string, version, gen int64, next http.HandlerFunc) (*cacheEntry, *bufferWriter) {
	buf := &bufferWriter{header: http.Header{}}
	ctx, watch := clock.Watching(r.Context())
	ctx, reads := withReadSet(ctx)
	next(buf, r.WithContext(ctx))
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	if buf.status != http.StatusOK {
		return nil, buf
	}
	e := &cacheEntry{key: key, version: version, status: buf.status, imageGen: gen}
	e.body = buf.body.Bytes()
	if c.rewriter != nil && len(e.body) > 0 {
		body, images := c.rewriter.Rewrite(r, key, e.body)
		if len(body) != len(e.body) || &body[0] != &e.body[0] {
			buf.body = *bytes.NewBuffer(body) // what the caller sends
		}
		e.body, e.images = body, images
	}
	e.size = len(e.body)
	stampEntry(e, r.Context(), reads)
	if until, bound, known := watch.Expiry(); bound {
		switch {
		case !known:
			e.expires = c.now().Add(c.ttl)
		case !until.IsZero():
			e.expires = until
		}
	}
	e.etag = etagOf(e.body)
	e.form = formOf(buf.header)
	if len(key) <= maxCacheKey {
		c.put(e)
	}
	return e, buf
}

// startRefresh recomputes an expired entry in the background if a refresh slot is free;
// otherwise a later request tries again.
func (c *responseCache) startRefresh(r *http.Request, e *cacheEntry, version, gen int64, next http.HandlerFunc) {
	select {
	case c.refreshSlots <- struct{}{}:
		c.refreshRuns.Add(1)
		go func() {
			defer c.refreshRuns.Done()
			defer func() { <-c.refreshSlots }()
			c.refresh(r, e.key, version, gen, next)
		}()
	default:
		c.mu.Lock()
		e.refreshing = false
		c.mu.Unlock()
	}
}

// refresh recomputes an expired entry, detached from the request that noticed it (which has
// been answered), within refreshTimeout.
func (c *responseCache) refresh(r *http.Request, key string, version, gen int64, next http.HandlerFunc) {
	c.refreshes()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), refreshTimeout)
	defer cancel()
	if e, _ := c.compute(r.WithContext(ctx), key, version, gen, next); e == nil {
		c.mu.Lock()
		if old, ok := c.entries[key]; ok {
			c.remove(old) // the recomputation failed: the next request computes afresh
		}
		c.mu.Unlock()
	}
}

// get returns the entry for key at this data version and generation of the Rewriter's set,
// and whether the caller should start its background refresh (the entry has expired and no
// refresh runs yet); stale says there was an entry that a change of data made wrong.
func (c *responseCache) get(key string, version, gen int64) (e *cacheEntry, refresh, stale bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false, false
	}
	if e.images && e.imageGen != gen {
		c.remove(e)
		return nil, false, false
	}
	if e.version != version {
		if !c.stillRight(e, version) {
			c.remove(e)
			return nil, false, true
		}
		e.version = version
	}
	if !e.expires.IsZero() {
		now := c.now()
		if !now.Before(e.expires.Add(c.stale)) {
			c.remove(e) // too old to serve while refreshing
			return nil, false, false
		}
		if !now.Before(e.expires) && !e.refreshing {
			e.refreshing, refresh = true, true
		}
	}
	c.listOf(e).MoveToFront(e.elem)
	return e, refresh, false
}

// put keeps an entry. A large answer stays in memory until it is asked again: most answers
// of a wide working set are asked once, and writing one of those to the file is pure cost
// (when each had a file of its own, creating it took more CPU than computing the answer).
// One that left memory before it was asked again, and one too large for the memory budget,
// go to the file at once.
//
// Large answers share the memory budget with the small ones. Given a share of their own, so
// that a run of them could not push the small answers out, they left the budget to many
// more small answers, whose entries the collector marks, and the collector then cost a wide
// working set much of its rate (docs/PERFORMANCE.md).
func (c *responseCache) put(e *cacheEntry) {
	large := c.spill != nil && e.size >= spillMinBytes && int64(e.size) <= c.spill.budget/8
	if large && (e.size+len(e.key)+256 > c.budget/8 || c.askedAgain(e.key)) {
		if slot, ok := c.spillBody(e.body); ok {
			e.slot, e.body = slot, nil
		}
	} else {
		e.spillable = large
	}
	e.byteLen = len(e.body) + len(e.key) + 256
	if e.byteLen > c.budget/8 {
		return // one answer may not crowd out the rest
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[e.key]; ok {
		c.remove(old)
	}
	c.insert(e)
}

// askedAgain says whether key is that of a large answer evicted from memory, and forgets it.
func (c *responseCache) askedAgain(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.evicted.take(xxhash.Sum64String(key))
}

// insert adds an entry to the cache, its LRU and its budgets; c.mu is held.
func (c *responseCache) insert(e *cacheEntry) {
	e.elem = c.listOf(e).PushFront(e)
	c.entries[e.key] = e
	c.used += e.byteLen
	c.evict()
}

// spillBody writes body to the spill file, making room by dropping the least recently used
// answers kept there; false when it could not (warned of once when the file failed, not
// when every extent it could free is still being sent).
func (c *responseCache) spillBody(body []byte) (*spillSlot, bool) {
	for {
		slot, err := c.spill.write(body)
		if err == nil {
			return slot, true
		}
		if !errors.Is(err, errSpillFull) {
			c.warnOnce.Do(func() { c.warn("large answers are kept in memory only", err) })
			return nil, false
		}
		c.mu.Lock()
		back := c.spilled.Back()
		if back != nil {
			c.remove(back.Value.(*cacheEntry))
		}
		c.mu.Unlock()
		if back == nil {
			return nil, false
		}
	}
}

// toFile moves a large answer asked again from memory to the spill file and returns the
// entry to send: a new one in place of e, which requests sending e meanwhile still hold
// unchanged, or e itself when another request moves it, it has left the cache, or the file
// could not take it (it then stays in memory).
func (c *responseCache) toFile(e *cacheEntry) *cacheEntry {
	c.mu.Lock()
	if c.entries[e.key] != e || e.moving {
		c.mu.Unlock()
		return e
	}
	e.moving = true
	c.mu.Unlock()
	slot, ok := c.spillBody(e.body)
	if !ok {
		return e
	}
	f := &cacheEntry{key: e.key, slot: slot, size: e.size, etag: e.etag, status: e.status, form: e.form,
		byteLen: len(e.key) + 256, reads: e.reads, deps: e.deps, tracked: e.tracked}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[e.key] != e {
		slot.release()
		return e
	}
	// What get moves, under the lock: the version and the cursor the entry is right at.
	f.version, f.cursor, f.expires, f.refreshing = e.version, e.cursor, e.expires, e.refreshing
	c.remove(e)
	c.insert(f)
	return f
}

// evict removes least recently used entries until the memory budget holds, those in memory
// first. The keys of large answers it removes from memory are remembered, so that one asked
// again goes to the file.
func (c *responseCache) evict() {
	for c.used > c.budget {
		back := c.lru.Back()
		if back == nil {
			back = c.spilled.Back()
		}
		e := back.Value.(*cacheEntry)
		if e.spillable {
			c.evicted.add(xxhash.Sum64String(e.key))
		}
		c.remove(e)
	}
}

func (c *responseCache) listOf(e *cacheEntry) *list.List {
	if e.slot != nil {
		return c.spilled
	}
	return c.lru
}

func (c *responseCache) remove(e *cacheEntry) {
	c.listOf(e).Remove(e.elem)
	delete(c.entries, e.key)
	c.used -= e.byteLen
	if e.slot != nil {
		// A request sending the body holds its extent; the last one done frees it.
		e.slot.release()
	}
	if e.gzSlot != nil {
		e.gzSlot.release()
	}
}

// grow counts n more bytes of memory for an entry still in the cache.
func (c *responseCache) grow(e *cacheEntry, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[e.key] != e {
		return
	}
	e.byteLen += n
	c.used += n
	c.evict()
}

// WaitRefreshes returns once the background refreshes started so far have ended, so that a
// caller just served an expired answer can ask for the refreshed one (tests). Call it while
// no request is being served.
func (c *responseCache) WaitRefreshes() { c.refreshRuns.Wait() }

// Close closes the spill file.
func (c *responseCache) Close() error {
	if c.spill == nil {
		return nil
	}
	return c.spill.Close()
}

// write sends an entry with its ETag, answering 304 to a matching If-None-Match and gzip to
// clients that accept it. body is the entry's body when the caller has it in memory. It
// returns false, having written nothing, when the entry's body has left the file.
func (c *responseCache) write(w http.ResponseWriter, r *http.Request, e *cacheEntry, body []byte) bool {
	h := w.Header()
	// Canonical keys assigned directly: Header.Set canonicalises on every call.
	h["Content-Type"], h["Cache-Control"] = jsonType, noCache
	if e.form != nil {
		h["Content-Type"], h["Cache-Control"] = e.form.contentType, e.form.cacheControl
	}
	h["Etag"] = []string{e.etag}
	if len(h["Vary"]) == 0 {
		h["Vary"] = varyEncoding
	} else {
		h["Vary"] = varyOriginEncoding // set by the CORS policy of a list of origins
	}
	if etagMatches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	if body == nil {
		body = e.body
	}
	// What goes: out from memory, or file (the body's or its gzip's extent); n bytes of it.
	out, n, gzipped := body, e.size, false
	var file *io.SectionReader
	if e.size >= minGzipBytes && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		e.gzOnce.Do(func() { c.compress(e, body) })
		switch {
		case e.gz != nil:
			out, n, gzipped = e.gz, len(e.gz), true
		case e.gzSlot != nil && e.gzSlot.acquire():
			defer e.gzSlot.release()
			file, n, gzipped = e.gzSlot.reader(), int(e.gzSlot.size), true
		}
	}
	if out == nil && file == nil && e.slot != nil && r.Method != http.MethodHead {
		if !e.slot.acquire() {
			delete(h, "Etag") // the caller computes the answer afresh
			return false
		}
		defer e.slot.release()
		file = e.slot.reader()
	}
	if gzipped {
		h["Content-Encoding"] = gzipEncoding
	}
	h["Content-Length"] = []string{strconv.Itoa(n)}
	if file == nil && r.Method != http.MethodHead && n > holdMinBytes {
		c.hold(r.Context(), n)
	}
	w.WriteHeader(e.status)
	switch {
	case r.Method == http.MethodHead:
	case file != nil:
		sendFile(w, file)
	default:
		_, _ = w.Write(out)
	}
	return true
}

// compress makes the gzip form of an entry, from body or the file. The gzip of a body kept
// in the file goes to the file too (e.gzSlot), that of one in memory to memory, counted in
// its budget. (Held in memory, the gzip forms of the file's answers, whose entries leave only
// once no answer is left in memory, pushed the small answers out of the budget.) A body gone
// from the file meanwhile leaves both unset: the answer is then sent as it is.
func (c *responseCache) compress(e *cacheEntry, body []byte) {
	inFile := e.slot != nil
	if body == nil && inFile {
		b, ok := e.slot.bytes()
		if !ok {
			return
		}
		body = b
	}
	gz := gzipBytes(body)
	if inFile {
		if slot, ok := c.spillBody(gz); ok {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.entries[e.key] == e {
				e.gzSlot = slot // released with the entry (remove)
			} else {
				slot.release() // the entry left the cache meanwhile
			}
			return
		}
	}
	e.gz = gz
	c.grow(e, len(e.gz))
}

// sendFile copies a body from the spill file to the client through a pooled buffer. Not
// with sendfile(2): for TCP it queues references to the file's cached pages, not their bytes,
// and an extent freed and written with another answer before the client had all of the first
// one (retransmissions included) changed what the client got. A write copies the bytes into
// the socket, so the extent is free to reuse as soon as it returns.
func sendFile(w http.ResponseWriter, f *io.SectionReader) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	_, _ = io.CopyBuffer(struct{ io.Writer }{w}, f, *buf)
}

// copyBuffers are sendFile's buffers.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

var (
	jsonType     = []string{"application/json"}
	noCache      = []string{"no-cache"}
	varyEncoding = []string{"Accept-Encoding"}
	// varyOriginEncoding: the answer depends on the request's Origin too (cors.go).
	varyOriginEncoding = []string{"Origin, Accept-Encoding"}
	gzipEncoding       = []string{"gzip"}
)

// answerForm is how an answer other than an API's (a calendar) is sent.
type answerForm struct{ contentType, cacheControl []string }

// formOf is the form an answer's computation set, nil for an API answer's.
func formOf(h http.Header) *answerForm {
	ct, cc := h["Content-Type"], h["Cache-Control"]
	if (len(ct) == 0 || ct[0] == jsonType[0]) && len(cc) == 0 {
		return nil
	}
	f := &answerForm{contentType: jsonType, cacheControl: noCache}
	if len(ct) > 0 {
		f.contentType = ct
	}
	if len(cc) > 0 {
		f.cacheControl = cc
	}
	return f
}

// etagOf is the entity tag of an answer: a 64-bit hash of its bytes, the same in every
// replica and after a restart, so a client's If-None-Match is answered by any of them. The
// tag only tells versions of one URL's answer apart, and needs no cryptographic strength:
// xxHash64 is several times faster than SHA-256 over large answers, and hashing was a
// visible share of the CPU of computing them (docs/PERFORMANCE.md).
func etagOf(body []byte) string {
	var b [2 + 16]byte
	b[0] = '"'
	hex.Encode(b[1:17], binary.BigEndian.AppendUint64(nil, xxhash.Sum64(body)))
	b[17] = '"'
	return string(b[:])
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
