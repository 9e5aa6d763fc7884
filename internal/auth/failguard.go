package auth

import (
	"hash/maphash"
	"net"
	"net/netip"
	"sync"
	"time"
)

// FailGuardOptions tunes a FailGuard; the zero value is ready to use.
type FailGuardOptions struct {
	// Limit is how many failed key checks an address may make per Window; default 20.
	Limit int
	// Window is the rolling window the failures count over; default 1 minute.
	Window time.Duration
	// MaxAddrs bounds how many addresses are remembered; default 65536.
	MaxAddrs int
}

const guardShards = 16

// FailGuard limits failed key checks per client address, so keys cannot be guessed at speed.
// Like the request limit it is an exact rolling window: an address is blocked while its last
// Limit failures all lie within the last Window. IPv6 clients count per /64, the block a
// single host usually holds.
type FailGuard struct {
	limit    int
	window   time.Duration
	perShard int
	seed     maphash.Seed
	shards   [guardShards]guardShard
}

type guardShard struct {
	mu    sync.Mutex
	addrs map[string]*failures
}

// failures is a ring of the last Limit failure times (Unix nanoseconds), oldest at head.
type failures struct {
	times []int64
	head  int
	n     int
}

// NewFailGuard returns an empty FailGuard.
func NewFailGuard(o FailGuardOptions) *FailGuard {
	g := &FailGuard{limit: o.Limit, window: o.Window, seed: maphash.MakeSeed()}
	if g.limit <= 0 {
		g.limit = 20
	}
	if g.window <= 0 {
		g.window = time.Minute
	}
	maxAddrs := o.MaxAddrs
	if maxAddrs <= 0 {
		maxAddrs = 1 << 16
	}
	g.perShard = max(maxAddrs/guardShards, 1)
	for i := range g.shards {
		g.shards[i].addrs = make(map[string]*failures)
	}
	return g
}

// Blocked says whether addr has used up its failed checks, and how long until it may try
// again. addr is a client address, with or without a port.
func (g *FailGuard) Blocked(addr string, now time.Time) (retryAfter time.Duration, blocked bool) {
	id := clientID(addr)
	sh := g.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	f := sh.addrs[id]
	if f == nil || f.n < g.limit {
		return 0, false
	}
	left := f.times[f.head] + int64(g.window) - now.UnixNano()
	if left <= 0 {
		return 0, false
	}
	return time.Duration(left), true
}

// Fail counts one failed key check of addr.
func (g *FailGuard) Fail(addr string, now time.Time) {
	id := clientID(addr)
	sh := g.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	f := sh.addrs[id]
	if f == nil {
		if len(sh.addrs) >= g.perShard {
			g.evict(sh, now.UnixNano())
		}
		f = &failures{times: make([]int64, g.limit)}
		sh.addrs[id] = f
	}
	t := now.UnixNano()
	if f.n == g.limit {
		// Full: the oldest failure drops out, as the window has moved past it or the address
		// is failing while blocked, which still counts.
		f.head = (f.head + 1) % g.limit
		f.n--
	}
	f.times[(f.head+f.n)%g.limit] = t
	f.n++
}

// evict forgets addresses with no failure in the window, then arbitrary ones down to 7/8 of
// the bound, so a flood of addresses costs one sweep per perShard/8 new ones.
func (g *FailGuard) evict(sh *guardShard, now int64) {
	for id, f := range sh.addrs {
		if now-f.times[(f.head+f.n-1)%g.limit] >= int64(g.window) {
			delete(sh.addrs, id)
		}
	}
	for id := range sh.addrs {
		if len(sh.addrs) < g.perShard-g.perShard/8 {
			return
		}
		delete(sh.addrs, id)
	}
}

// Len returns how many addresses are remembered.
func (g *FailGuard) Len() int {
	n := 0
	for i := range g.shards {
		sh := &g.shards[i]
		sh.mu.Lock()
		n += len(sh.addrs)
		sh.mu.Unlock()
	}
	return n
}

func (g *FailGuard) shard(id string) *guardShard {
	return &g.shards[maphash.String(g.seed, id)%guardShards]
}

// clientID names the client an address belongs to: the IP without port, an IPv6 address by
// its /64. Anything unparsable is used as given, cut short to bound memory.
func clientID(addr string) string {
	host := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host[:min(len(host), 64)]
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
