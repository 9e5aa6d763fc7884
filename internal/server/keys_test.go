package server_test

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/server"
)

// Failed key checks are limited per address, but only the failed ones: after the limit an
// unknown key from the address gets 429, while a valid key from it (another user behind the
// same NAT) is still served.
func TestFailedKeyChecksBlockOnlyFailures(t *testing.T) {
	c := newConfigured(t, nil)
	const addr = "192.0.2.7:4000"
	for i := range 20 {
		if w := c.get("/api/v1/json/wrong"+strconv.Itoa(i)+"/all_sports.php", addr); w.Code != 400 {
			t.Fatalf("wrong key %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	cases := []struct {
		name, path string
		headers    []string
		status     int
	}{
		{"unknown v1 key", "/api/v1/json/wrong-again/all_sports.php", nil, 429},
		{"unknown v2 key", "/api/v2/json/all/sports", []string{"X-API-KEY", "nope"}, 429},
		{"free key", "/api/v1/json/123/all_sports.php", nil, 200},
		{"premium key v2", "/api/v2/json/all/sports", []string{"X-API-KEY", c.premiumKey}, 200},
		{"premium key v1", "/api/v1/json/" + c.premiumKey + "/all_sports.php", nil, 200},
	}
	for _, tc := range cases {
		w := c.get(tc.path, addr, tc.headers...)
		if w.Code != tc.status {
			t.Errorf("%s from a blocked address: %d %s, want %d", tc.name, w.Code, w.Body, tc.status)
		}
		if tc.status == 429 && (w.Header().Get("Retry-After") == "" ||
			w.Body.String() != `{"Message":"Too many invalid API keys from this address"}`) {
			t.Errorf("%s: 429 without Retry-After or with body %s", tc.name, w.Body)
		}
	}
	if w := c.get("/api/v1/json/wrong/all_sports.php", "192.0.2.8:4000"); w.Code != 400 {
		t.Errorf("another address: %d, want 400", w.Code)
	}
}

// A free key's calls to v2, refused with 400, cost it no quota: its v1 calls still get the
// whole limit.
func TestRefusedPremiumCallsCostNoQuota(t *testing.T) {
	c := newConfigured(t, nil)
	for i := range 40 {
		w := c.get("/api/v2/json/all/sports", "192.0.2.1:1", "X-API-KEY", "123")
		if w.Code != 400 || w.Body.String() != `{"Message":"Premium API key required"}` {
			t.Fatalf("v2 call %d: %d %s", i+1, w.Code, w.Body)
		}
		if w := c.get("/api/v2/json/123/livescore.php", "192.0.2.1:1"); w.Code != 400 {
			t.Fatalf("older live feed %d: %d", i+1, w.Code)
		}
	}
	w := c.get("/api/v1/json/123/all_sports.php", "192.0.2.1:1")
	if w.Code != 200 || w.Header().Get("X-RateLimit-Remaining") != "29" {
		t.Fatalf("v1 after refused v2 calls: %d remaining %q, want 200 and 29", w.Code, w.Header().Get("X-RateLimit-Remaining"))
	}
}

// Behind --trust-proxy the address counted is the one the trusted proxy saw: entries a client
// writes into X-Forwarded-For itself (on the left) never rotate it or name someone else.
func TestTrustedProxyTakesTheAddressTheProxySaw(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	cases := []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string
		blocked string // the address that must end up blocked
	}{
		{"no list: the peer's own entry", nil, "10.1.1.1:80", []string{"forged-%d, 198.51.100.9"}, "198.51.100.9"},
		{"list: rightmost untrusted", proxies, "10.1.1.1:80", []string{"forged-%d, 198.51.100.9, 10.2.2.2"}, "198.51.100.9"},
		{"list: over two header lines", proxies, "10.1.1.1:80", []string{"203.0.113.%d, 198.51.100.9", "10.2.2.2"}, "198.51.100.9"},
		{"list: with a port", proxies, "10.1.1.1:80", []string{"1.1.1.%d, 198.51.100.9:5555"}, "198.51.100.9:5555"},
		{"peer not a proxy", proxies, "198.51.100.9:80", []string{"forged-%d, 10.2.2.2"}, "198.51.100.9"},
		{"garbage from the client", proxies, "10.1.1.1:80", []string{"x-%d, not-an-ip"}, "10.1.1.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newConfigured(t, func(cfg *server.Config) {
				cfg.TrustProxy, cfg.TrustedProxies = true, tc.trusted
			})
			var last int
			for i := range 25 {
				var h []string
				for _, x := range tc.xff {
					h = append(h, "X-Forwarded-For", strings.ReplaceAll(x, "%d", strconv.Itoa(i)))
				}
				last = c.get("/api/v1/json/wrong/all_sports.php", tc.peer, h...).Code
			}
			if last != 429 {
				t.Fatalf("25 wrong keys with rotating forged entries: last answer %d, want 429", last)
			}
			// The address blocked is the one the proxy saw: a request naming it, and only it,
			// is refused.
			h := []string{"X-Forwarded-For", "192.0.2.200, " + tc.blocked}
			if tc.name == "peer not a proxy" || tc.name == "garbage from the client" {
				h = nil
			}
			peer := tc.peer
			if w := c.get("/api/v1/json/wrong/all_sports.php", peer, h...); w.Code != 429 {
				t.Errorf("%s: %d, want it blocked", tc.blocked, w.Code)
			}
		})
	}
}
