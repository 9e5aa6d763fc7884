package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Limits of a delivery request: a 2xx within Timeout is a delivery; the answer's body is
// read (and dropped) up to maxAnswer bytes so the connection can be kept.
const (
	Timeout     = 10 * time.Second
	dialTimeout = 5 * time.Second
	maxAnswer   = 64 << 10
	maxURL      = 2048
	// maxIdleConns bounds the connections kept open to receivers between deliveries.
	maxIdleConns = 4096
)

// errNotPublic: an address a webhook may not be sent to without --webhook-allow-private.
var errNotPublic = errors.New("not a public address")

// notPublic are the ranges outside loopback, private, link-local, multicast and
// unspecified (which netip names) that are no public host either.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // shared address space (carrier NAT)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use IPv4/IPv6 translation
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("fec0::/10"),      // site-local (deprecated)
	netip.MustParsePrefix("100::/64"),       // discard-only
	netip.MustParsePrefix("2002::/16"),      // 6to4, which can tunnel to any IPv4 address
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64, which can reach any IPv4 address
	netip.MustParsePrefix("2001::/32"),      // Teredo, the same
	netip.MustParsePrefix("192.88.99.0/24"), // 6to4 relay anycast
	netip.MustParsePrefix("255.255.255.255/32"),
}

// Public says whether ip is an address a webhook may be sent to: not loopback, private,
// link-local, multicast, unspecified or another range no public host has.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// Guard checks where webhooks may be sent. AllowPrivate (--webhook-allow-private) lifts the
// check of addresses, for tests and receivers on the same network.
type Guard struct {
	AllowPrivate bool
	// Resolver looks host names up (net.DefaultResolver when nil).
	Resolver *net.Resolver
}

// CheckURL says why a webhook's URL is refused at registration, or nil: an absolute http or
// https URL with a host, no user or fragment, whose every resolved address is public.
func (g Guard) CheckURL(ctx context.Context, raw string) error {
	if len(raw) > maxURL {
		return fmt.Errorf("longer than %d bytes", maxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return errors.New("want an absolute http:// or https:// URL")
	}
	if u.User != nil || u.Fragment != "" {
		return errors.New("want a URL without user, password or fragment")
	}
	if g.AllowPrivate {
		return nil
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if !Public(ip) {
			return fmt.Errorf("%s is %w", ip, errNotPublic)
		}
		return nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	lctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	addrs, err := r.LookupNetIP(lctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("%s does not resolve", host)
	}
	for _, ip := range addrs {
		if !Public(ip) {
			return fmt.Errorf("%s resolves to %s, %w", host, ip.Unmap(), errNotPublic)
		}
	}
	return nil
}

// Client is the HTTP client deliveries are sent with: the address a connection is made to
// is checked after resolving, as the dialer is about to connect to it (so a name that
// resolved to a public address at registration and to a private one now is refused), no
// proxy from the environment (it would connect for us, unchecked), no redirect followed,
// and every request bounded by timeout.
func (g Guard) Client(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: dialTimeout, Resolver: g.Resolver, Control: func(_, address string, _ syscall.RawConn) error {
		if g.AllowPrivate {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("dial %s: %w", address, errNotPublic)
		}
		if !Public(ap.Addr()) {
			return fmt.Errorf("%s is %w", ap.Addr().Unmap(), errNotPublic)
		}
		return nil
	}}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: Timeout,
		// A webhook sends one request at a time, so one idle connection a receiver keeps
		// it warm. Across receivers the bound is wide: at 100, two hundred webhooks each
		// dialed again at every delivery (a tenth of the deliverer's CPU).
		MaxIdleConns:           maxIdleConns,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}
