package respcache

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

// A data version that moved does not make every cached answer stale: only those a change
// could touch. While an answer is computed, the store it reads through (readTracking) notes
// what it reads: a record by id depends on that record; a Find with equality conditions
// (idLeague=4328, dateEvent=D, idHomeTeam=X or idAwayTeam=X) depends on the records that meet
// them (a dep); any other read (a search, a range, a scan, a count) on its whole kind. The
// answer is kept with those and with the feed cursor the cache had reached before computing.
// When the data version moves, the cache reads the change feed once (feedTracker.sync) and
// notes, per kind, the cursor of its last change, and per record id and per index value
// (store.Change.Keys: the record's values before and after the change) the cursor of the
// last change that named it. An entry of an older version is still right when no kind it
// depends on as a whole changed since its cursor, and no dep of it was met: a dep is met when
// each of its conditions names a value some later change had before or after, or when a
// change of its kind did not say its values (a replace, a very large write). A live score
// changing leaves the answers about other leagues, teams, days and past events in the cache;
// an event moved from league A to league B refreshes the answers about both. A feed that
// cannot be read (or has expired under the cache) makes every kind changed, the old rule.

// kindMask is a set of record kinds, one bit per position in record.Kinds.
type kindMask uint64

var kindBits = func() map[*record.Kind]kindMask {
	m := map[*record.Kind]kindMask{}
	for i, k := range record.Kinds {
		m[k] = 1 << i
	}
	return m
}()

// dep is an answer's dependence on the records of a kind that meet every clause; a clause is
// met by a record holding any of its keys. byID: the one clause is the record's id, which
// every change names, so a change that does not say its values does not meet it.
type dep struct {
	kind    *record.Kind
	clauses [][]store.IndexKey
	byID    bool
}

// idColumn is the key a change names its record's id with; index columns have a prefix.
const idColumn = "id"

// readSet collects the kinds one computation reads as a whole, and its deps.
type readSet struct {
	mask atomic.Uint64
	mu   sync.Mutex
	deps []dep // nil once there were more than maxDeps: their kinds are in mask
}

// maxDeps deps are kept per answer; past that, the answer depends on their whole kinds.
const maxDeps = 16

// noteDep notes a read that depends on the records meeting d only.
func noteDep(ctx context.Context, d dep) {
	rs, _ := ctx.Value(readSetKey{}).(*readSet)
	if rs == nil {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.deps != nil && len(rs.deps) < maxDeps {
		rs.deps = append(rs.deps, d)
		return
	}
	for _, old := range rs.deps {
		noteRead(ctx, old.kind)
	}
	rs.deps = nil
	noteRead(ctx, d.kind)
}

// noteGet notes a record read by id.
func noteGet(ctx context.Context, k *record.Kind, id string) {
	noteDep(ctx, dep{kind: k, clauses: [][]store.IndexKey{{{Column: idColumn, Value: id}}}, byID: true})
}

// noteFind notes a query: a dep when its equality conditions bound the records it can
// select, else its whole kind.
func noteFind(ctx context.Context, q store.Query) {
	var clauses [][]store.IndexKey
	for _, c := range q.Where {
		// A condition that is not an equality narrows nothing here and is left out: the
		// records the others select still include every record the query can select.
		if keys, ok := clauseOf(q.Kind, c); ok {
			clauses = append(clauses, keys)
		}
	}
	if len(clauses) == 0 {
		noteRead(ctx, q.Kind)
		return
	}
	noteDep(ctx, dep{kind: q.Kind, clauses: clauses})
}

// clauseOf is the keys of which a record that meets c holds one: its equality, or the
// equalities of all its alternatives; false when c is not made of equalities alone.
func clauseOf(k *record.Kind, c store.Cond) ([]store.IndexKey, bool) {
	if !c.ByEqualities() {
		return nil, false
	}
	return equalityKeys(k, c)
}

// equalityKeys is clauseOf for a condition of equalities alone; false when one of them is
// on a column without an index.
func equalityKeys(k *record.Kind, c store.Cond) ([]store.IndexKey, bool) {
	if len(c.Or) > 0 {
		var keys []store.IndexKey
		for _, sub := range c.Or {
			more, ok := equalityKeys(k, sub)
			if !ok {
				return nil, false
			}
			keys = append(keys, more...)
		}
		return keys, true
	}
	ix, ok := k.IndexOf(c.Field, c.Norm)
	if !ok {
		return nil, false
	}
	v := c.Value
	if c.Norm != record.Exact {
		v = record.Fold(v) // as the store compares it (sqlstore.Builder.cond)
	}
	return []store.IndexKey{{Column: ix.Column(), Value: v}}, true
}

// done returns the kinds read as a whole and the deps.
func (rs *readSet) done() (kindMask, []dep) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return kindMask(rs.mask.Load()), rs.deps
}

type readSetKey struct{}

func withReadSet(ctx context.Context) (context.Context, *readSet) {
	rs := &readSet{deps: make([]dep, 0, 2)}
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

// readTracking is the store the APIs read through: it notes each read in the computation's
// readSet.
type readTracking struct{ store.Records }

// Tracking is st as the answers a cache keeps must read it: each read is noted in the
// computation's read set, so that a change of data the answer did not read leaves it cached.
func Tracking(st store.Records) store.Records { return readTracking{st} }

func (s readTracking) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	noteFind(ctx, q)
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

// FindNames passes a name search on to a store that answers it with the folded names alone
// (store.NameFinder), noted as the Find it stands for; ok is false for any other store.
// Without it the player search could never reach the name index through the server, and
// read and decoded its whole window of records to keep a few.
func (s readTracking) FindNames(ctx context.Context, q store.Query, field string) (store.Names, bool, error) {
	nf, ok := s.Records.(store.NameFinder)
	if !ok {
		return store.Names{}, false, nil
	}
	n, ok, err := nf.FindNames(ctx, q, field)
	if ok {
		// Noted only when answered: otherwise the caller runs the query through Find, which
		// notes it, and the same dependency would count twice against maxDeps.
		noteFind(ctx, q)
	}
	return n, ok, err
}

// RecordsBySeqs reads records FindNames selected, which its note covers.
func (s readTracking) RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) ([]record.Record, bool, error) {
	nf, ok := s.Records.(store.NameFinder)
	if !ok {
		return nil, false, nil
	}
	return nf.RecordsBySeqs(ctx, k, seqs, version)
}

// feedTracker follows the change feed as far as the data version the cache has seen.
type feedTracker struct {
	src store.Feed

	mu      sync.Mutex
	synced  bool
	version int64
	cursor  int64
	changed [64]int64 // per kind bit: the cursor of its last change seen
	blind   [64]int64 // per kind bit: the cursor of its last change that did not say its keys
	// keys are the cursors of the last changes that named a record id or index value, for
	// every change after keysFrom; at maxKeys it starts over, and answers older than
	// keysFrom that have deps are stale.
	keys     map[trackedKey]int64
	keysFrom int64
}

type trackedKey struct {
	kind *record.Kind
	key  store.IndexKey
}

// maxKeys bounds the ids and index values whose last change the tracker remembers.
const maxKeys = 100_000

// note takes one change in.
func (f *feedTracker) note(c store.Change) {
	bit := bitIndex(kindBits[c.Kind])
	f.changed[bit] = c.Cursor
	if !c.Bounded {
		f.blind[bit] = c.Cursor
	}
	if f.keys == nil || len(f.keys)+len(c.Keys)+1 > maxKeys {
		f.forget(c.Cursor - 1)
	}
	f.keys[trackedKey{c.Kind, store.IndexKey{Column: idColumn, Value: c.ID}}] = c.Cursor
	for _, k := range c.Keys {
		f.keys[trackedKey{c.Kind, k}] = c.Cursor
	}
}

// forget drops the keys remembered: answers with deps from before cursor are stale.
func (f *feedTracker) forget(cursor int64) {
	f.keys, f.keysFrom = map[trackedKey]int64{}, cursor
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
			break
		}
		if err != nil {
			return 0, fmt.Errorf("read the change feed: %w", err)
		}
		for _, c := range cs {
			f.note(c)
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
		f.changed[i], f.blind[i] = cursor, cursor
	}
	f.forget(cursor)
}

// unchangedAt says whether, as far as the feed is read for version, no kind of reads
// changed after cursor and no dep was met by a change after it.
func (f *feedTracker) unchangedAt(reads kindMask, deps []dep, cursor, version int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.synced || f.version < version || (len(deps) > 0 && cursor < f.keysFrom) {
		return false
	}
	for i := range f.changed {
		if reads&(1<<i) != 0 && f.changed[i] > cursor {
			return false
		}
	}
	for _, d := range deps {
		if f.met(d, cursor) {
			return false
		}
	}
	return true
}

// met says whether a change after cursor may have touched the records of d.
func (f *feedTracker) met(d dep, cursor int64) bool {
	if !d.byID && f.blind[bitIndex(kindBits[d.kind])] > cursor {
		return true
	}
	for _, clause := range d.clauses {
		hit := false
		for _, k := range clause {
			if f.keys[trackedKey{d.kind, k}] > cursor {
				hit = true
				break
			}
		}
		if !hit {
			return false // no change after cursor meets this condition
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

// feedStamp brings the feed tracker up to version, reading within ctx, and gives the
// request the cursor its answer will reflect. A feed that cannot be read leaves the request
// unstamped: its answer is kept for its version only.
func (c *responseCache) feedStamp(ctx context.Context, r *http.Request, version int64) *http.Request {
	if c.feed == nil {
		return r
	}
	cursor, err := c.feed.sync(ctx, version)
	if err != nil {
		c.warnOnce.Do(func() { c.warn("cached answers are kept for one data version only", err) })
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), stampKey{}, cursor))
}

type stampKey struct{}

// stampEntry keeps with e what it read and the cursor its request was stamped with.
func stampEntry(e *cacheEntry, ctx context.Context, reads *readSet) {
	if cursor, ok := ctx.Value(stampKey{}).(int64); ok {
		e.reads, e.deps = reads.done()
		e.cursor, e.tracked = cursor, true
	}
}

// stillRight says whether an entry of another data version is still the answer at version:
// the tracker has read the feed up to version, and nothing the entry read changed after it.
func (c *responseCache) stillRight(e *cacheEntry, version int64) bool {
	return c.feed != nil && e.tracked && c.feed.unchangedAt(e.reads, e.deps, e.cursor, version)
}

// feedTracking is a change feed read by an answer the cache keeps.
type feedTracking struct{ store.Feed }

// TrackingFeed is f as the answers a cache keeps must read it: reading the changes of some
// kinds depends on those kinds as a whole (every kind when none is named, and the latest
// cursor on every kind), so that a later change of them computes the answer again.
func TrackingFeed(f store.Feed) store.Feed { return feedTracking{f} }

func (f feedTracking) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	if len(kinds) == 0 {
		noteRead(ctx, nil)
	}
	for _, k := range kinds {
		noteRead(ctx, k)
	}
	return f.Feed.Changes(ctx, since, kinds, limit)
}

func (f feedTracking) LatestCursor(ctx context.Context) (int64, error) {
	noteRead(ctx, nil)
	return f.Feed.LatestCursor(ctx)
}
