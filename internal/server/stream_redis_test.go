package server_test

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/testsupport"
)

// redisLimiter is a limiter on SPORTSDB_TEST_REDIS under a prefix of its own (its keys
// expire by themselves); without the variable the test is skipped, or fails under CI.
func redisLimiter(t *testing.T, prefix string) *ratelimit.Redis {
	t.Helper()
	url := testsupport.Env(t, "SPORTSDB_TEST_REDIS")
	if !strings.Contains(url, "://") {
		url = "redis://" + url
	}
	l, err := ratelimit.NewRedis(url, clock.System{}, ratelimit.RedisOptions{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// Two replicas on one database and one Redis share a key's stream limit: the sixth stream of
// a premium key is refused on either, and closing one on a replica frees a slot on the other.
func TestStreamLimitAcrossRedisReplicas(t *testing.T) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	prefix := "sportsdb-test:" + hex.EncodeToString(b) + ":"
	first := newLiveEnvWith(t, apitest.Options{Limiter: redisLimiter(t, prefix)})
	// The second replica serves the same database, with its own limiter on the same Redis.
	second := server2(t, first, redisLimiter(t, prefix))

	ended := streamEnds(first.srv)
	var open []*sseClient
	for i := range 5 {
		base := first.base
		if i%2 == 1 {
			base = second
		}
		open = append(open, openStream(t, base, "/api/v2/json/stream/livescore", first.premium))
	}
	for name, base := range map[string]string{"first": first.base, "second": second} {
		resp := streamRequest(t, base, "/api/v2/json/stream/livescore", first.premium)
		var body []byte
		if resp.StatusCode != http.StatusOK { // an open stream's body has no end
			body, _ = io.ReadAll(resp.Body)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || string(body) != `{"Message":"Too many open streams for this key"}` {
			t.Fatalf("sixth stream on the %s replica: %d %s, want 429", name, resp.StatusCode, body)
		}
	}

	open[0].close() // on the first replica; the slot comes free on the second
	awaitStreamEnd(t, ended)
	resp := streamRequest(t, second, "/api/v2/json/stream/livescore", first.premium)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("on the second replica once a stream closed on the first: %d, want the freed slot", resp.StatusCode)
	}
}

// server2 serves e's database through a second server with limiter, as another replica,
// and returns its base URL.
func server2(t *testing.T, e *liveEnv, limiter *ratelimit.Redis) string {
	t.Helper()
	srv, _, _ := serveStoreWith(t, e.env.Reopen(t), nil, limiter)
	srv.SetStreamPing(time.Hour)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL
}
