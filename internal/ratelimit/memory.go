package ratelimit

import (
	"context"
	"hash/maphash"
	"sync"
	"time"

	"sportsdb/internal/clock"
)

const memoryShards = 64

// Memory is the in-process limiter: for each id a ring of the timestamps of its last N
// admitted requests. The admit decision looks at one slot (the oldest); expired slots are
// dropped from the front, each once, so a request costs amortised O(1). A ring grows with the
// requests in the window, up to the limit, so memory follows use rather than the limit; ids
// idle for a whole Window are forgotten, so it follows the ids active in the last minute.
type Memory struct {
	clk    clock.Clock
	seed   maphash.Seed
	shards [memoryShards]memShard
}

type memShard struct {
	mu        sync.Mutex
	logs      map[string]*ring
	lastSweep int64
}

// ring holds admitted request times (Unix nanoseconds), oldest at head; up to limit of them.
type ring struct {
	times []int64
	head  int
	n     int
	limit int
}

// minRing is the size a ring starts at.
const minRing = 16

// NewMemory returns an empty in-memory limiter reading time from clk.
func NewMemory(clk clock.Clock) *Memory {
	m := &Memory{clk: clk, seed: maphash.MakeSeed()}
	for i := range m.shards {
		m.shards[i].logs = make(map[string]*ring)
	}
	return m
}

// Allow counts one request of id against limit.
func (m *Memory) Allow(_ context.Context, id string, limit int) (Decision, error) {
	if err := checkLimit(limit); err != nil {
		return Decision{}, err
	}
	now := m.clk.Now().UnixNano()
	sh := m.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.ring(id, limit, now).allow(now), nil
}

func (m *Memory) shard(id string) *memShard {
	return &m.shards[maphash.String(m.seed, id)%memoryShards]
}

// ring returns id's ring for limit, made or resized as needed; the shard is locked.
func (sh *memShard) ring(id string, limit int, now int64) *ring {
	sh.sweep(now)
	r := sh.logs[id]
	if r == nil {
		r = &ring{times: make([]int64, min(limit, minRing)), limit: limit}
		sh.logs[id] = r
	} else if r.limit != limit {
		r.resize(limit)
	}
	return r
}

// Healthy reports the in-memory limiter's state for health details; it is always up.
func (m *Memory) Healthy() (bool, string) { return true, "in memory (this replica only)" }

// Len returns how many ids are remembered.
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.logs)
		sh.mu.Unlock()
	}
	return n
}

func (r *ring) allow(now int64) Decision {
	window := int64(Window)
	for r.n > 0 && now-r.times[r.head] >= window {
		r.head = (r.head + 1) % len(r.times)
		r.n--
	}
	d := Decision{Limit: r.limit}
	if r.n < r.limit {
		if r.n == len(r.times) {
			r.setSize(min(r.limit, 2*len(r.times)))
		}
		r.times[(r.head+r.n)%len(r.times)] = now
		r.n++
		d.Allowed = true
	}
	d.Remaining = r.limit - r.n
	d.Reset = durationNanos(r.times[r.head] + window - now)
	if !d.Allowed {
		d.RetryAfter = d.Reset
	}
	return d
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

// newest returns the latest admitted time, or 0 for an empty ring.
func (r *ring) newest() int64 {
	if r.n == 0 {
		return 0
	}
	return r.times[(r.head+r.n-1)%len(r.times)]
}

// sweep drops, at most once per Window, every log whose newest request has left the window.
func (sh *memShard) sweep(now int64) {
	if now-sh.lastSweep < int64(Window) {
		return
	}
	sh.lastSweep = now
	for id, r := range sh.logs {
		if now-r.newest() >= int64(Window) {
			delete(sh.logs, id)
		}
	}
}

func durationNanos(ns int64) time.Duration {
	if ns < 0 {
		return 0
	}
	// A wall clock that stepped back must not promise a wait longer than the window.
	return min(time.Duration(ns), Window)
}
