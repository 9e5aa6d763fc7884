package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"sportsdb/internal/clock"
	"sportsdb/internal/testsupport"
)

// testRedisURL returns SPORTSDB_TEST_REDIS; without it the test is skipped, or fails under CI.
func testRedisURL(t testing.TB) string {
	t.Helper()
	return testsupport.Env(t, "SPORTSDB_TEST_REDIS")
}

// testPrefix returns a key prefix of this run alone and deletes its keys when the test ends.
func testPrefix(t testing.TB, redisURL string) string {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	prefix := "sportsdb-test:" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		opt, err := rueidis.ParseURL(redisURL)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		opt.DisableCache = true
		c, err := rueidis.NewClient(opt)
		if err != nil {
			t.Errorf("cleanup: %v", err)
			return
		}
		defer c.Close()
		ctx := context.Background()
		var cursor uint64
		for {
			e, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match(prefix+"*").Count(1000).Build()).AsScanEntry()
			if err != nil {
				t.Errorf("cleanup scan: %v", err)
				return
			}
			if len(e.Elements) > 0 {
				if err := c.Do(ctx, c.B().Del().Key(e.Elements...).Build()).Error(); err != nil {
					t.Errorf("cleanup del: %v", err)
				}
			}
			if cursor = e.Cursor; cursor == 0 {
				return
			}
		}
	})
	return prefix
}

// proxy is a TCP relay to Redis that a test can cut (closing every connection and refusing
// new ones) and restore on the same address.
type proxy struct {
	t        testing.TB
	addr     string
	upstream string
	mu       sync.Mutex
	ln       net.Listener
	conns    map[net.Conn]struct{}
}

func newProxy(t testing.TB, redisURL string) *proxy {
	t.Helper()
	u, err := url.Parse(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, upstream: u.Host, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

// url is redisURL with the host replaced by the proxy's address.
func (p *proxy) url(redisURL string) string {
	u, _ := url.Parse(redisURL)
	u.Host = p.addr
	return u.String()
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.upstream)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go relay(c, up)
			go relay(up, c)
		}
	}()
}

func relay(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *proxy) restore() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("restore proxy on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

// ageScript moves every time of a limiter log (script.go) d microseconds into the past,
// leaving a header (a negative first slot) and the key's expiry as they are.
var ageScript = rueidis.NewLuaScript(`
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local d = tonumber(ARGV[1])
local parts = {}
for j = 0, #v / 8 - 1 do
  local at = struct.unpack('>d', v, 8 * j + 1)
  if at >= 0 then at = at - d end
  parts[#parts + 1] = struct.pack('>d', at)
end
redis.call('SET', KEYS[1], table.concat(parts), 'KEEPTTL')
return #parts
`)

// pass lets d go by for the requests logged under key: it makes them d older, as if d had
// passed on Redis's clock, which the script's decisions run on and a test cannot move, and
// advances the limiter's own clock, on which it remembers refusals. The window then rolls at
// exact points rather than after sleeps with margins.
func pass(t testing.TB, clk *clock.Manual, url, key string, d time.Duration) {
	t.Helper()
	clk.Advance(d)
	c := testClient(t, url)
	if err := ageScript.Exec(context.Background(), c, []string{key}, []string{strconv.FormatInt(d.Microseconds(), 10)}).Error(); err != nil {
		t.Fatalf("age %s: %v", key, err)
	}
}

// testClient is a plain client of the test Redis, closed when the test ends.
func testClient(t testing.TB, url string) rueidis.Client {
	t.Helper()
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opt.DisableCache = true
	c, err := rueidis.NewClient(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
