package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"sync/atomic"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// A data version that moved does not make every cached answer stale: only those that read
// a kind of record that changed. While an answer is computed, the store it reads through
// (readTracking) notes the kinds it reads; the answer is kept with that set and with the
// feed cursor the cache had reached before computing. When the data version moves, the
// cache reads the change feed once (feedTracker.sync) and notes, per kind, the cursor of its
// last change; an entry of an older version whose kinds have not changed since its cursor
// is still right, and is served. Live scores changing every few seconds then leave the
// answers about teams, players and past events in the cache. A feed that cannot be read
// (or has expired under the cache) makes every kind changed, which is the old rule.

// kindMask is a set of record kinds, one bit per position in record.Kinds.
type kindMask uint64

var kindBits = func() map[*record.Kind]kindMask {
	m := map[*record.Kind]kindMask{}
	for i, k := range record.Kinds {
		m[k] = 1 << i
	}
	return m
}()

// readSet collects the kinds one computation reads, and the records it read by id: an
// answer that only looked up event 5 depends on event 5, not on every event.
type readSet struct {
	mask atomic.Uint64
	mu   sync.Mutex
	gets []recordKey // nil once there were more than maxGets: their kinds are in mask
}

// maxGets records read by id are kept per answer; more depend on their whole kinds.
const maxGets = 8

type recordKey struct {
	kind *record.Kind
	id   string
}

// noteGet notes a record read by id.
func noteGet(ctx context.Context, k *record.Kind, id string) {
	rs, _ := ctx.Value(readSetKey{}).(*readSet)
	if rs == nil {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.gets != nil && len(rs.gets) < maxGets {
		rs.gets = append(rs.gets, recordKey{k, id})
		return
	}
	for _, g := range rs.gets {
		noteRead(ctx, g.kind)
	}
	rs.gets = nil
	noteRead(ctx, k)
}

// done returns the kinds and records read.
func (rs *readSet) done() (kindMask, []recordKey) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return kindMask(rs.mask.Load()), rs.gets
}

type readSetKey struct{}

func withReadSet(ctx context.Context) (context.Context, *readSet) {
	rs := &readSet{gets: make([]recordKey, 0, 2)}
	return context.WithValue(ctx, readSetKey{}, rs), rs
}

func noteRead(ctx context.Context, k *record.Kind) {
	rs, _ := ctx.Value(readSetKey{}).(*readSet)
	if rs == nil {
		return
	}
	bit := uint64(kindBits[k])
	if bit == 0 {
		bit = math.MaxUint64 // a kind without a bit: depend on everything
	}
	for {
		old := rs.mask.Load()
		if old&bit == bit || rs.mask.CompareAndSwap(old, old|bit) {
			return
		}
	}
}

// readTracking is the store the APIs read through: it notes each kind read in the
// computation's readSet.
type readTracking struct{ store.Records }

func (s readTracking) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	noteRead(ctx, q.Kind)
	return s.Records.Find(ctx, q)
}

func (s readTracking) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	noteGet(ctx, k, id)
	return s.Records.Get(ctx, k, id)
}

func (s readTracking) Scan(ctx context.Context, k *record.Kind, fn func(record.Record) error) error {
	noteRead(ctx, k)
	return s.Records.Scan(ctx, k, fn)
}

func (s readTracking) Count(ctx context.Context, k *record.Kind) (int64, error) {
	noteRead(ctx, k)
	return s.Records.Count(ctx, k)
}

// feedTracker follows the change feed as far as the data version the cache has seen.
type feedTracker struct {
	src store.Feed

	mu      sync.Mutex
	synced  bool
	version int64
	cursor  int64
	changed [64]int64 // per kind bit: the cursor of its last change seen
	// ids are the cursors of the last changes of records, for every change after idsFrom;
	// at maxIDs it starts over, and answers older than idsFrom that read by id are stale.
	ids     map[recordKey]int64
	idsFrom int64
}

// maxIDs bounds the records whose last change the tracker remembers.
const maxIDs = 100_000

func (f *feedTracker) noteID(key recordKey, cursor int64) {
	if f.ids == nil || len(f.ids) >= maxIDs {
		f.ids, f.idsFrom = map[recordKey]int64{}, cursor-1
	}
	f.ids[key] = cursor
}

// sync brings the tracker up to version and returns the cursor that covers it; an answer
// computed after this call reflects every change up to that cursor.
func (f *feedTracker) sync(ctx context.Context, version int64) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.synced && version <= f.version {
		return f.cursor, nil
	}
	if !f.synced {
		latest, err := f.src.LatestCursor(ctx)
		if err != nil {
			return 0, fmt.Errorf("read the change feed: %w", err)
		}
		f.cursor, f.version, f.synced = latest, version, true
		f.changeAll(latest)
		f.ids, f.idsFrom = map[recordKey]int64{}, latest
		return f.cursor, nil
	}
	for {
		cs, next, err := f.src.Changes(ctx, f.cursor, nil, 1000)
		if errors.Is(err, store.ErrCursorExpired) {
			latest, lerr := f.src.LatestCursor(ctx)
			if lerr != nil {
				return 0, fmt.Errorf("read the change feed: %w", lerr)
			}
			f.cursor = latest
			f.changeAll(latest)
			f.ids, f.idsFrom = map[recordKey]int64{}, latest
			break
		}
		if err != nil {
			return 0, fmt.Errorf("read the change feed: %w", err)
		}
		for _, c := range cs {
			f.changed[bitIndex(kindBits[c.Kind])] = c.Cursor
			f.noteID(recordKey{c.Kind, c.ID}, c.Cursor)
		}
		f.cursor = next
		if len(cs) < 1000 {
			break
		}
	}
	f.version = version
	return f.cursor, nil
}

// changeAll makes every kind changed at cursor: no older entry survives.
func (f *feedTracker) changeAll(cursor int64) {
	for i := range f.changed {
		f.changed[i] = cursor
	}
}

// unchangedAt says whether, as far as the feed is read for version, no kind of reads and
// no record of gets changed after cursor.
func (f *feedTracker) unchangedAt(reads kindMask, gets []recordKey, cursor, version int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.synced || f.version < version || (len(gets) > 0 && cursor < f.idsFrom) {
		return false
	}
	for _, g := range gets {
		if f.ids[g] > cursor {
			return false
		}
	}
	for i := range f.changed {
		if reads&(1<<i) != 0 && f.changed[i] > cursor {
			return false
		}
	}
	return true
}

func bitIndex(b kindMask) int {
	for i := range 64 {
		if b == 1<<i {
			return i
		}
	}
	return 63
}

// feedStamp brings the feed tracker up to version and gives the request the cursor its
// answer will reflect. A feed that cannot be read leaves the request unstamped: its answer
// is kept for its version only.
func (c *responseCache) feedStamp(r *http.Request, version int64) *http.Request {
	if c.feed == nil {
		return r
	}
	cursor, err := c.feed.sync(r.Context(), version)
	if err != nil {
		c.warnOnce.Do(func() { c.warn("cached answers are kept for one data version only", err) })
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), stampKey{}, cursor))
}

type stampKey struct{}

// stampEntry keeps with e the kinds it read and the cursor its request was stamped with.
func stampEntry(e *cacheEntry, ctx context.Context, reads *readSet) {
	if cursor, ok := ctx.Value(stampKey{}).(int64); ok {
		e.reads, e.gets = reads.done()
		e.cursor, e.tracked = cursor, true
	}
}

// stillRight says whether an entry of another data version is still the answer at version:
// the tracker has read the feed up to version, and no kind the entry read changed after it.
func (c *responseCache) stillRight(e *cacheEntry, version int64) bool {
	return c.feed != nil && e.tracked && c.feed.unchangedAt(e.reads, e.gets, e.cursor, version)
}
