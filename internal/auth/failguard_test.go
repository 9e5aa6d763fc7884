package auth

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestFailGuardBlocksAfterLimit(t *testing.T) {
	g := NewFailGuard(FailGuardOptions{Limit: 20, Window: time.Minute})
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	now := t0
	for i := range 20 {
		if _, blocked := g.Blocked("203.0.113.7:5000", now); blocked {
			t.Fatalf("blocked after %d failures", i)
		}
		g.Fail("203.0.113.7:5000", now)
		now = now.Add(time.Second)
	}
	// 20 failures at t0..t0+19s; now t0+20s. Another port of the same host is the same client.
	wait, blocked := g.Blocked("203.0.113.7:6000", now)
	if !blocked || wait != 40*time.Second {
		t.Fatalf("after 20 failures: blocked %v for %v, want 40s", blocked, wait)
	}
	if _, blocked := g.Blocked("203.0.113.8", now); blocked {
		t.Fatal("another address is blocked too")
	}
	// Rolling: when the first failure leaves the window, one more try is allowed.
	now = t0.Add(time.Minute)
	if _, blocked := g.Blocked("203.0.113.7", now); blocked {
		t.Fatal("still blocked once the oldest failure left the window")
	}
	g.Fail("203.0.113.7", now)
	if wait, blocked := g.Blocked("203.0.113.7", now); !blocked || wait != time.Second {
		t.Fatalf("after one more failure: blocked %v for %v, want 1s", blocked, wait)
	}
}

func TestFailGuardIPv6CountsPerSlash64(t *testing.T) {
	g := NewFailGuard(FailGuardOptions{Limit: 3})
	now := time.Now()
	g.Fail("[2001:db8:1:2::1]:443", now)
	g.Fail("2001:db8:1:2::ffff", now)
	g.Fail("[2001:db8:1:2:aaaa::9%eth0]:80", now)
	if _, blocked := g.Blocked("2001:db8:1:2::77", now); !blocked {
		t.Fatal("addresses of one /64 not counted together")
	}
	if _, blocked := g.Blocked("2001:db8:1:3::1", now); blocked {
		t.Fatal("another /64 is blocked")
	}
	g.Fail("::ffff:192.0.2.1", now)
	g.Fail("192.0.2.1:1", now)
	g.Fail("192.0.2.1", now)
	if _, blocked := g.Blocked("192.0.2.1:9", now); !blocked {
		t.Fatal("an IPv4-mapped address is not the same client as its IPv4 form")
	}
}

func TestFailGuardBounded(t *testing.T) {
	g := NewFailGuard(FailGuardOptions{MaxAddrs: 160})
	now := time.Now()
	for i := range 10000 {
		g.Fail(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255), now)
	}
	if n := g.Len(); n > 160 {
		t.Fatalf("remembers %d addresses, bound 160", n)
	}
}

func TestFailGuardOddAddresses(t *testing.T) {
	g := NewFailGuard(FailGuardOptions{Limit: 1})
	now := time.Now()
	for _, addr := range []string{"", "[::1", "not an address", strings.Repeat("z", 100000), "@:"} {
		g.Fail(addr, now)
		if _, blocked := g.Blocked(addr, now); !blocked {
			t.Fatalf("%.20q: not blocked after its one failure", addr)
		}
	}
}
