// Package window counts events per id over an exact rolling window: for each id a ring of
// the times of its last events, up to a limit. It is the one counter behind the request
// limiter kept in memory and the guard against key guessing.
package window

import (
	"hash/maphash"
	"sync"
	"time"
)

const shards = 64

// minRing is the size a ring starts at: a ring grows with the events in its window, up to
// the limit, so memory follows use rather than the limit.
const minRing = 16

// Options configure a Log.
type Options struct {
	// Window is how long an event counts.
	Window time.Duration
	// MaxIDs bounds how many ids are remembered; 0 leaves only the forgetting of ids idle for
	// a whole window.
	MaxIDs int
}

// Log is a set of rolling windows, one per id. Expired events are dropped from the front of
// a ring, each once, so counting an event costs amortised O(1); ids idle for a whole window
// are forgotten.
type Log struct {
	window   int64
	perShard int
	seed     maphash.Seed
	shards   [shards]shard
}

type shard struct {
	mu        sync.Mutex
	rings     map[string]*ring
	lastSweep int64
}

// ring holds event times (Unix nanoseconds), oldest at head; up to limit of them.
type ring struct {
	times []int64
	head  int
	n     int
	limit int
}

// Count is what a window holds after an event was counted or looked at.
type Count struct {
	// Added says whether the event was counted.
	Added bool
	// N is how many events lie in the window.
	N int
	// Oldest is when the oldest of them happened (Unix nanoseconds); 0 when N is 0.
	Oldest int64
}

// New returns an empty Log.
func New(o Options) *Log {
	l := &Log{window: int64(o.Window), seed: maphash.MakeSeed()}
	if o.MaxIDs > 0 {
		l.perShard = max(o.MaxIDs/shards, 1)
	}
	for i := range l.shards {
		l.shards[i].rings = make(map[string]*ring)
	}
	return l
}

// Add counts an event of id at now (Unix nanoseconds) if fewer than limit events lie in the
// window. With force a full window counts it anyway, its oldest event dropping out.
func (l *Log) Add(id string, limit int, now int64, force bool) Count {
	sh := l.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	l.sweep(sh, now)
	r := sh.rings[id]
	if r == nil {
		if l.perShard > 0 && len(sh.rings) >= l.perShard {
			l.evict(sh, now)
		}
		r = &ring{times: make([]int64, min(limit, minRing)), limit: limit}
		sh.rings[id] = r
	} else if r.limit != limit {
		r.resize(limit)
	}
	r.expire(now, l.window)
	added := r.n < r.limit
	if !added && force {
		r.head = (r.head + 1) % len(r.times)
		r.n--
	}
	if added || force {
		r.push(now)
	}
	return Count{Added: added || force, N: r.n, Oldest: r.times[r.head]}
}

// Peek returns what id's window holds at now, counting nothing.
func (l *Log) Peek(id string, now int64) Count {
	sh := l.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	r := sh.rings[id]
	if r == nil {
		return Count{}
	}
	r.expire(now, l.window)
	if r.n == 0 {
		return Count{}
	}
	return Count{N: r.n, Oldest: r.times[r.head]}
}

// Each calls fn, for every id with events in the window at now, with their times, oldest
// first. fn runs with a part of the Log locked: it must not call the Log, nor keep times.
func (l *Log) Each(now int64, fn func(id string, times []int64)) {
	var times []int64
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		for id, r := range sh.rings {
			times = times[:0]
			for j := range r.n {
				if at := r.times[(r.head+j)%len(r.times)]; now-at < l.window {
					times = append(times, at)
				}
			}
			if len(times) > 0 {
				fn(id, times)
			}
		}
		sh.mu.Unlock()
	}
}

// Len returns how many ids are remembered.
func (l *Log) Len() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.rings)
		sh.mu.Unlock()
	}
	return n
}

func (l *Log) shard(id string) *shard {
	return &l.shards[maphash.String(l.seed, id)%shards]
}

// sweep drops, at most once per window, every ring whose newest event has left the window.
func (l *Log) sweep(sh *shard, now int64) {
	if now-sh.lastSweep < l.window {
		return
	}
	sh.lastSweep = now
	l.dropIdle(sh, now)
}

func (l *Log) dropIdle(sh *shard, now int64) {
	for id, r := range sh.rings {
		if now-r.newest() >= l.window {
			delete(sh.rings, id)
		}
	}
}

// evict forgets idle ids, then arbitrary ones down to 7/8 of the bound, so a flood of ids
// costs one pass per perShard/8 new ones.
func (l *Log) evict(sh *shard, now int64) {
	l.dropIdle(sh, now)
	for id := range sh.rings {
		if len(sh.rings) < l.perShard-l.perShard/8 {
			return
		}
		delete(sh.rings, id)
	}
}

func (r *ring) expire(now, window int64) {
	for r.n > 0 && now-r.times[r.head] >= window {
		r.head = (r.head + 1) % len(r.times)
		r.n--
	}
}

func (r *ring) push(t int64) {
	if r.n == len(r.times) {
		r.setSize(min(r.limit, 2*len(r.times)))
	}
	r.times[(r.head+r.n)%len(r.times)] = t
	r.n++
}

// resize keeps the newest entries when an id's limit changes (a key moved to another tier).
func (r *ring) resize(limit int) {
	r.limit = limit
	r.setSize(max(min(r.n, limit), min(limit, minRing)))
}

// setSize moves the newest entries, at most size of them, into a ring of size slots.
func (r *ring) setSize(size int) {
	keep := min(r.n, size)
	times := make([]int64, size)
	for i := range keep {
		times[i] = r.times[(r.head+r.n-keep+i)%len(r.times)]
	}
	r.times, r.head, r.n = times, 0, keep
}

// newest returns the latest event's time, or 0 for an empty ring.
func (r *ring) newest() int64 {
	if r.n == 0 {
		return 0
	}
	return r.times[(r.head+r.n-1)%len(r.times)]
}
