package auth

import (
	"net"
	"net/netip"
	"time"

	"sportsdb/internal/ratelimit/window"
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

// FailGuard limits failed key checks per client address, so keys cannot be guessed at speed.
// Like the request limit it is an exact rolling window: an address is blocked while its last
// Limit failures all lie within the last Window. IPv6 clients count per /64, the block a
// single host usually holds.
type FailGuard struct {
	limit  int
	window time.Duration
	log    *window.Log
}

// NewFailGuard returns an empty FailGuard.
func NewFailGuard(o FailGuardOptions) *FailGuard {
	g := &FailGuard{limit: o.Limit, window: o.Window}
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
	g.log = window.New(window.Options{Window: g.window, MaxIDs: maxAddrs})
	return g
}

// Blocked says whether addr has used up its failed checks, and how long until it may try
// again. addr is a client address, with or without a port.
func (g *FailGuard) Blocked(addr string, now time.Time) (retryAfter time.Duration, blocked bool) {
	c := g.log.Peek(clientID(addr), now.UnixNano())
	if c.N < g.limit {
		return 0, false
	}
	return time.Duration(c.Oldest + int64(g.window) - now.UnixNano()), true
}

// Fail counts one failed key check of addr. A failure while blocked still counts: the
// oldest one drops out for it.
func (g *FailGuard) Fail(addr string, now time.Time) {
	g.log.Add(clientID(addr), g.limit, now.UnixNano(), true)
}

// Len returns how many addresses are remembered.
func (g *FailGuard) Len() int { return g.log.Len() }

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
