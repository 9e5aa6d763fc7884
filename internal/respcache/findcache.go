package respcache

import (
	"container/list"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// A write makes stale every cached answer that lists the record it changed: a score update
// of one event, a dozen (the league's season and its next and past events, the day, both
// teams' schedules, the live scores, in both API versions). Computing them again ran their
// queries again, and those queries were most of what a write cost the readers: a commit on
// SQLite also empties every reader's page cache.
//
// So the computations of answers a change made stale keep the records of their Finds
// (findCache), each with the feed cursor its request was stamped with, and the next such
// computation of the same query brings the kept records up to its own cursor from the
// changes the tracker read, when it can tell that no record came into the selection or left
// it, and none moved in its order (an answer computed for the first time, a search asked
// once, keeps nothing: the cache would only cost it):
//
//   - a change of a record the kept selection holds: the record is read again (by id) and
//     takes its old place when its values of every field the query names (conditions and
//     sort keys) are the old ones, as they then select and order it as before; a deleted
//     record, or one whose values moved, sends the query to the store;
//   - a change of another record: it stayed out when it meets none of the values of one of
//     the query's equality conditions, before or after (the change's keys, as the answers'
//     deps are judged, cachefeed.go); otherwise, or when the change did not say its keys or
//     the query has no equality, the query goes to the store.
//
// Records keep their order by sort keys, then by insertion, which a write of a stored
// record keeps. What goes to the store is kept in turn. A feed the tracker no longer holds
// from the entry's cursor (findChanges) sends the query to the store too.

// findCacheBytes bounds the docs the kept selections hold.
const findCacheBytes = 32 << 20

// findCache is the kept selections of computed answers' Finds, by query, with an LRU bound.
type findCache struct {
	budget int

	mu      sync.Mutex
	used    int
	entries map[string]*list.Element // of *findEntry
	lru     *list.List

	// kept and stored count the Finds answered from kept records and from the store.
	kept, stored func()
}

type findEntry struct {
	key    string
	cursor int64           // the feed cursor the records reflect every change up to
	recs   []record.Record // never changed: a new entry replaces an entry
	bytes  int
}

func newFindCache(budget int) *findCache {
	return &findCache{budget: budget, entries: map[string]*list.Element{}, lru: list.New(), kept: func() {}, stored: func() {}}
}

// findScope is what a computation's Finds need of the cache: the kept selections, the
// tracker's changes and the cursor the request was stamped with.
type findScope struct {
	cache  *findCache
	feed   *feedTracker
	cursor int64
}

type findScopeKey struct{}

// find answers q for a computation stamped at s.cursor: from the kept selection brought up
// to the cursor, else from st, whose answer is kept.
func (s findScope) find(ctx context.Context, st store.Records, q store.Query) ([]record.Record, error) {
	key := findKey(q)
	if recs, ok := s.cache.patch(ctx, st, s.feed, q, key, s.cursor); ok {
		return recs, nil
	}
	recs, err := st.Find(ctx, q)
	if err != nil {
		return nil, err
	}
	s.cache.keep(key, s.cursor, slices.Clone(recs))
	s.cache.stored()
	return recs, nil
}

// patch returns the kept selection of q brought up to cursor, and keeps it; false when there
// is none or it cannot be brought up to cursor.
func (c *findCache) patch(ctx context.Context, st store.Records, feed *feedTracker, q store.Query, key string, cursor int64) ([]record.Record, bool) {
	c.mu.Lock()
	el := c.entries[key]
	if el == nil {
		c.mu.Unlock()
		return nil, false
	}
	c.lru.MoveToFront(el)
	e := el.Value.(*findEntry)
	c.mu.Unlock()
	if e.cursor >= cursor {
		c.kept()
		return slices.Clone(e.recs), true
	}
	changes, ok := feed.findChanges(q.Kind, e.cursor, cursor)
	if !ok {
		return nil, false
	}
	if len(changes) == 0 { // none of q's kind: the same records, at the new cursor
		c.keep(key, cursor, e.recs)
		c.kept()
		return slices.Clone(e.recs), true
	}
	at, ok := places(e.recs) // the kept records' places by id
	if !ok {
		return nil, false
	}
	clauses := clausesOf(q)
	touched := map[string]int{}
	for _, ch := range changes {
		if pos, ok := at[ch.ID]; ok {
			if ch.Op == store.OpDelete {
				return nil, false
			}
			touched[ch.ID] = pos
			continue
		}
		if !ch.Bounded || len(clauses) == 0 || meetsEvery(ch.Keys, clauses) {
			return nil, false
		}
	}
	recs := slices.Clone(e.recs)
	if len(touched) > 0 {
		fields := namedFields(q)
		for id, pos := range touched {
			now, err := st.Get(ctx, q.Kind, id)
			if err != nil {
				return nil, false // gone meanwhile, or unreadable: the store answers
			}
			for _, f := range fields {
				if now.Get(f) != recs[pos].Get(f) {
					return nil, false
				}
			}
			recs[pos] = now
		}
	}
	c.keep(key, cursor, recs)
	c.kept()
	return slices.Clone(recs), true
}

// keep keeps recs as q's selection at cursor, unless a selection of a later cursor is kept.
func (c *findCache) keep(key string, cursor int64, recs []record.Record) {
	e := &findEntry{key: key, cursor: cursor, recs: recs, bytes: len(key) + 64}
	for _, r := range recs {
		e.bytes += r.Footprint()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.bytes > c.budget/8 {
		return // one large selection would push out many small ones
	}
	if el := c.entries[key]; el != nil {
		old := el.Value.(*findEntry)
		if old.cursor > cursor {
			return
		}
		c.used -= old.bytes
		c.lru.Remove(el)
	}
	c.entries[key] = c.lru.PushFront(e)
	c.used += e.bytes
	for c.used > c.budget {
		last := c.lru.Back()
		old := last.Value.(*findEntry)
		c.lru.Remove(last)
		delete(c.entries, old.key)
		c.used -= old.bytes
	}
}

// places is where each record of recs is, by id; false when one has no id.
func places(recs []record.Record) (map[string]int, bool) {
	at := make(map[string]int, len(recs))
	for i, r := range recs {
		id, err := r.ID()
		if err != nil {
			return nil, false
		}
		at[id] = i
	}
	return at, true
}

// meetsEvery says whether values (a change's keys) meet every clause.
func meetsEvery(values []store.IndexKey, clauses [][]depKey) bool {
	for _, clause := range clauses {
		if !slices.ContainsFunc(clause, func(k depKey) bool { return slices.ContainsFunc(values, k.in) }) {
			return false
		}
	}
	return true
}

// namedFields is every field q's conditions and sort keys name.
func namedFields(q store.Query) []string {
	var fields []string
	var walk func(c store.Cond)
	walk = func(c store.Cond) {
		if len(c.Or) > 0 {
			for _, alt := range c.Or {
				walk(alt)
			}
			return
		}
		if !slices.Contains(fields, c.Field) {
			fields = append(fields, c.Field)
		}
	}
	for _, c := range q.Where {
		walk(c)
	}
	for _, o := range q.OrderBy {
		if !slices.Contains(fields, o.Field) {
			fields = append(fields, o.Field)
		}
	}
	return fields
}

// findKey names a query: two queries of one key select the same records in the same order.
func findKey(q store.Query) string {
	var b strings.Builder
	b.WriteString(q.Kind.Name)
	var cond func(c store.Cond)
	cond = func(c store.Cond) {
		if len(c.Or) > 0 {
			b.WriteString("\x00(")
			for _, alt := range c.Or {
				cond(alt)
			}
			b.WriteString("\x00)")
			return
		}
		// The value is any text a request sent: its length keeps it from reading as more.
		b.WriteString("\x00" + c.Field + "\x01" + strconv.Itoa(int(c.Norm)) + "\x01" + strconv.Itoa(int(c.Op)) +
			"\x01" + strconv.Itoa(len(c.Value)) + ":" + c.Value)
	}
	for _, c := range q.Where {
		cond(c)
	}
	b.WriteString("\x00|")
	for _, o := range q.OrderBy {
		b.WriteString("\x00" + o.Field + "\x01" + strconv.Itoa(int(o.Norm)) + "\x01" + strconv.FormatBool(o.Desc) + "\x01" + strconv.FormatBool(o.Numeric))
	}
	b.WriteString("\x00|" + strconv.Itoa(q.Limit))
	return b.String()
}
