package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr is the address failed key checks are counted against. Without TrustProxy it is
// the direct peer. With it, X-Forwarded-For is read from the right: each proxy appends the
// address it received the request from, so the entries a client wrote itself are on the left
// and prove nothing. The client is the rightmost entry that is not a trusted proxy. With no
// TrustedProxies configured only the direct peer is trusted, and its own entry, the rightmost,
// is taken. A peer that is not a configured proxy is the client itself, whatever it sends.
func (s *Server) clientAddr(r *http.Request) string {
	peer := peerHost(r.RemoteAddr)
	if !s.cfg.TrustProxy {
		return peer
	}
	lines := r.Header.Values("X-Forwarded-For")
	if len(lines) == 0 || (len(s.cfg.TrustedProxies) > 0 && !s.trustedProxy(peer)) {
		return peer
	}
	hop := peer // the last address known to be a proxy's word
	for i := len(lines) - 1; i >= 0; i-- {
		rest := lines[i]
		for rest != "" {
			entry := rest
			if j := strings.LastIndexByte(rest, ','); j >= 0 {
				entry, rest = rest[j+1:], rest[:j]
			} else {
				rest = ""
			}
			entry = strings.TrimSpace(entry)
			if entry == "" {
				continue
			}
			ip, ok := parseForwarded(entry)
			if !ok {
				// Not an address: not written by a proxy we trust, so it names no one.
				return hop
			}
			if len(s.cfg.TrustedProxies) == 0 || !s.trusted(ip) {
				return entry
			}
			hop = entry
		}
	}
	return hop // every entry is a trusted proxy: the leftmost is where the request came from
}

func (s *Server) trustedProxy(host string) bool {
	ip, ok := parseForwarded(host)
	return ok && s.trusted(ip)
}

func (s *Server) trusted(ip netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// parseForwarded reads an X-Forwarded-For entry: an IP address, with or without a port.
func parseForwarded(s string) (netip.Addr, bool) {
	ip, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		ip = ap.Addr()
	}
	return ip.Unmap(), true
}

func peerHost(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}
