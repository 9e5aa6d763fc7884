package respcache

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
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
	clauses [][]depKey
	byID    bool
}

// depKey is a value a record meets a clause with: in Column, the value itself, or, with
// contains, a value that holds it (a substring search's needle: Contains, Prefix, ListHas and
// ListContains select only records whose folded value holds the folded needle).
type depKey struct {
	store.IndexKey
	contains bool
}

func (k depKey) String() string {
	if k.contains {
		return "{" + k.Column + " ~" + k.Value + "}"
	}
	return "{" + k.Column + " " + k.Value + "}"
}

// in says whether a record whose value in k's column is v meets k.
func (k depKey) in(v store.IndexKey) bool {
	if k.contains {
		return v.Column == k.Column && strings.Contains(v.Value, k.Value)
	}
	return v == k.IndexKey
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
	noteDep(ctx, dep{kind: k, clauses: [][]depKey{{{IndexKey: store.IndexKey{Column: idColumn, Value: id}}}}, byID: true})
}

// noteFind notes a query: a dep when its conditions of values and searches bound the records
// it can select, else its whole kind.
func noteFind(ctx context.Context, q store.Query) {
	clauses := clausesOf(q)
	if len(clauses) == 0 {
		noteRead(ctx, q.Kind)
		return
	}
	noteDep(ctx, dep{kind: q.Kind, clauses: clauses})
}

// clausesOf is the clauses of q's conditions of values and searches. A condition of another
// operator (a range, NotEmpty) narrows nothing here and is left out: the records the others
// select still include every record the query can select.
func clausesOf(q store.Query) [][]depKey {
	var clauses [][]depKey
	for _, c := range q.Where {
		if keys, ok := clauseOf(q.Kind, c); ok {
			clauses = append(clauses, keys)
		}
	}
	return clauses
}

// clauseOf is the keys one of which a record that meets c holds: its value, or its needle,
// or those of all its alternatives; false when c, or an alternative, is of another operator
// or on a column without an index. The values are as the store compares them
// (sqlstore.Builder.cond): folded on name and list columns.
func clauseOf(k *record.Kind, c store.Cond) ([]depKey, bool) {
	if len(c.Or) > 0 {
		var keys []depKey
		for _, sub := range c.Or {
			more, ok := clauseOf(k, sub)
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
		v = record.Fold(v)
	}
	col := ix.Column()
	switch c.Op {
	case store.Eq:
		if c.Norm == record.List {
			v = record.FoldList(c.Value) // the whole list
		}
		return []depKey{{IndexKey: store.IndexKey{Column: col, Value: v}}}, true
	case store.Contains, store.Prefix, store.ListHas, store.ListContains:
		return []depKey{{IndexKey: store.IndexKey{Column: col, Value: v}, contains: true}}, true
	}
	return nil, false
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
	if scope, ok := ctx.Value(findScopeKey{}).(findScope); ok && q.Kind != nil {
		return scope.find(ctx, s.Records, q)
	}
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
	src     store.Feed
	syncing sync.Mutex // held by the one sync that reads the feed

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
	// recent are the changes read after recentFrom, oldest first, which kept Finds are
	// brought up to date with (findcache.go); past maxRecent the older half goes.
	recent     []store.Change
	recentFrom int64
}

// maxRecent bounds the changes the tracker keeps for the kept Finds.
const maxRecent = 16_384

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
	if len(f.recent) >= maxRecent {
		half := len(f.recent) / 2
		f.recentFrom = f.recent[half-1].Cursor
		f.recent = append(f.recent[:0:0], f.recent[half:]...)
	}
	f.recent = append(f.recent, c)
}

// findChanges returns the changes of kind k with a cursor after from, up to to, oldest
// first; false when the tracker has not read as far as to, or no longer keeps every change
// after from.
func (f *feedTracker) findChanges(k *record.Kind, from, to int64) ([]store.Change, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.synced || f.cursor < to || from < f.recentFrom {
		return nil, false
	}
	i, _ := slices.BinarySearchFunc(f.recent, from, func(c store.Change, cursor int64) int { return cmp.Compare(c.Cursor, cursor+1) })
	var out []store.Change
	for _, c := range f.recent[i:] {
		if c.Cursor > to {
			break
		}
		if c.Kind == k {
			out = append(out, c)
		}
	}
	return out, true
}

// forget drops the keys remembered: answers with deps from before cursor are stale.
func (f *feedTracker) forget(cursor int64) {
	f.keys, f.keysFrom = map[trackedKey]int64{}, cursor
}

// sync brings the tracker up to version and returns the cursor that covers it; an answer
// computed after this call reflects every change up to that cursor. One sync runs at a time
// (syncing), and it reads the feed without holding mu: the checks of the cached answers
// (unchangedAt), which every request makes after a write, do not wait for the read.
func (f *feedTracker) sync(ctx context.Context, version int64) (int64, error) {
	if cursor, ok := f.covers(version); ok {
		return cursor, nil
	}
	f.syncing.Lock()
	defer f.syncing.Unlock()
	if cursor, ok := f.covers(version); ok {
		return cursor, nil // another sync read as far meanwhile
	}
	// Only a sync changes synced and cursor, and this is the one.
	f.mu.Lock()
	synced, cursor := f.synced, f.cursor
	f.mu.Unlock()
	if !synced {
		latest, err := f.src.LatestCursor(ctx)
		if err != nil {
			return 0, fmt.Errorf("read the change feed: %w", err)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.cursor, f.version, f.synced = latest, version, true
		f.changeAll(latest)
		return f.cursor, nil
	}
	for {
		cs, next, err := f.src.Changes(ctx, cursor, nil, 1000)
		if errors.Is(err, store.ErrCursorExpired) {
			latest, lerr := f.src.LatestCursor(ctx)
			if lerr != nil {
				return 0, fmt.Errorf("read the change feed: %w", lerr)
			}
			f.mu.Lock()
			f.cursor = latest
			f.changeAll(latest)
			f.mu.Unlock()
			break
		}
		if err != nil {
			return 0, fmt.Errorf("read the change feed: %w", err)
		}
		f.mu.Lock()
		for _, c := range cs {
			f.note(c)
		}
		f.cursor, cursor = next, next
		f.mu.Unlock()
		if len(cs) < 1000 {
			break
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.version = version
	return f.cursor, nil
}

// covers returns the tracker's cursor when it has read the feed as far as version.
func (f *feedTracker) covers(version int64) (int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cursor, f.synced && version <= f.version
}

// changeAll makes every kind changed at cursor: no older entry survives.
func (f *feedTracker) changeAll(cursor int64) {
	for i := range f.changed {
		f.changed[i], f.blind[i] = cursor, cursor
	}
	f.forget(cursor)
	f.recent, f.recentFrom = nil, cursor
}

// unchangedThrough says whether, as far as the feed is read for version, no kind of reads
// changed after cursor and no dep was met by a change after it; and the cursor up to which
// the tracker has found nothing changed: the last it has read.
func (f *feedTracker) unchangedThrough(reads kindMask, deps []dep, cursor, version int64) (bool, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.synced || f.version < version || (len(deps) > 0 && cursor < f.keysFrom) {
		return false, 0
	}
	for i := range f.changed {
		if reads&(1<<i) != 0 && f.changed[i] > cursor {
			return false, 0
		}
	}
	for _, d := range deps {
		if f.met(d, cursor) {
			return false, 0
		}
	}
	return true, f.cursor
}

// met says whether a change after cursor may have touched the records of d. A value is
// looked up among those the tracker remembers; a needle is looked for in the values of the
// changes it keeps (recent), and met when those no longer reach back to cursor.
func (f *feedTracker) met(d dep, cursor int64) bool {
	if !d.byID && f.blind[bitIndex(kindBits[d.kind])] > cursor {
		return true
	}
	for _, clause := range d.clauses {
		hit := false
		for _, k := range clause {
			if k.contains {
				hit = f.holdsAfter(d.kind, k, cursor)
			} else {
				hit = f.keys[trackedKey{d.kind, k.IndexKey}] > cursor
			}
			if hit {
				break
			}
		}
		if !hit {
			return false // no change after cursor meets this condition
		}
	}
	return true
}

// holdsAfter says whether a change of kind after cursor had a value that holds k's needle,
// before or after; true when the changes kept do not reach back to cursor.
func (f *feedTracker) holdsAfter(kind *record.Kind, k depKey, cursor int64) bool {
	if cursor < f.recentFrom {
		return true
	}
	for i := len(f.recent) - 1; i >= 0 && f.recent[i].Cursor > cursor; i-- {
		c := f.recent[i]
		if c.Kind == kind && slices.ContainsFunc(c.Keys, k.in) {
			return true
		}
	}
	return false
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

// keepingFinds is r, stamped, with the kept Finds: its answer's Finds read kept records
// brought up to the same cursor, and keep what they read (findcache.go).
func (c *responseCache) keepingFinds(r *http.Request) *http.Request {
	cursor, ok := r.Context().Value(stampKey{}).(int64)
	if c.finds == nil || !ok {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), findScopeKey{}, findScope{cache: c.finds, feed: c.feed, cursor: cursor}))
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
// Then the entry's cursor moves up to the last change the tracker read, so that the next
// check looks at the changes after that one only (a search's needle is looked for in each).
func (c *responseCache) stillRight(e *cacheEntry, version int64) bool {
	if c.feed == nil || !e.tracked {
		return false
	}
	ok, through := c.feed.unchangedThrough(e.reads, e.deps, e.cursor, version)
	if ok && through > e.cursor {
		e.cursor = through
	}
	return ok
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
