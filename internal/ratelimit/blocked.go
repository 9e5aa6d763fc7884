package ratelimit

import (
	"hash/maphash"
	"sync"
	"time"
)

const (
	blockedShards = 16
	// blockedMax bounds each shard; past it a refusal is simply not remembered, which costs a
	// Redis round trip and nothing else.
	blockedMax = 1 << 14
)

// blockedSet remembers, per id, until when its window is full, so a key hammering past its
// limit is refused locally instead of costing Redis a call per request.
type blockedSet struct {
	seed   maphash.Seed
	shards [blockedShards]blockedShard
}

type blockedShard struct {
	mu sync.Mutex
	m  map[string]blockedUntil
}

type blockedUntil struct {
	until time.Time
	limit int
}

func (b *blockedSet) init() {
	b.seed = maphash.MakeSeed()
	for i := range b.shards {
		b.shards[i].m = make(map[string]blockedUntil)
	}
}

func (b *blockedSet) shard(id string) *blockedShard {
	return &b.shards[maphash.String(b.seed, id)%blockedShards]
}

// check answers a refusal when id is known to be full at now for this limit. A different
// limit (the key changed tier) is not covered: its window must be asked for again.
func (b *blockedSet) check(id string, limit int, now time.Time) (Decision, bool) {
	sh := b.shard(id)
	sh.mu.Lock()
	e, ok := sh.m[id]
	if ok && !now.Before(e.until) {
		delete(sh.m, id)
		ok = false
	}
	sh.mu.Unlock()
	if !ok || e.limit != limit {
		return Decision{}, false
	}
	wait := e.until.Sub(now)
	return Decision{Limit: limit, Reset: wait, RetryAfter: wait}, true
}

func (b *blockedSet) set(id string, limit int, now, until time.Time) {
	sh := b.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.m) >= blockedMax {
		for k, e := range sh.m {
			if !now.Before(e.until) {
				delete(sh.m, k)
			}
		}
		if len(sh.m) >= blockedMax {
			return
		}
	}
	sh.m[id] = blockedUntil{until: until, limit: limit}
}
