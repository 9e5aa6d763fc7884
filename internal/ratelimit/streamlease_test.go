package ratelimit

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/rueidis"
)

// Leases of open streams: the limit holds over every lease of an id, a released one frees
// its slot, renewed ones stay, and those of a replica that stopped renewing expire.
func TestStreamLeases(t *testing.T) {
	url := testRedisURL(t)
	prefix := testPrefix(t, url)
	r := newTestRedis(t, url, RedisOptions{Prefix: prefix})
	ctx := context.Background()
	take := func(id, lease string) bool {
		t.Helper()
		ok, err := r.AcquireStream(ctx, id, lease, 2)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !take("k", "a-1") || !take("k", "b-1") {
		t.Fatal("the first two leases of a limit of 2 were refused")
	}
	if take("k", "a-2") {
		t.Fatal("a third lease was granted over the limit of 2")
	}
	if !take("other", "a-3") {
		t.Fatal("another id's lease was refused")
	}
	if err := r.ReleaseStream(ctx, "k", "b-1"); err != nil {
		t.Fatal(err)
	}
	if !take("k", "a-4") {
		t.Fatal("a released slot did not come free")
	}
	// a-1 and a-4 are renewed past their first lifetime: still counted.
	for range 6 {
		ageLeases(t, url, r.leaseKey("k"), StreamLeaseTTL/5)
		if err := r.RefreshStreams(ctx, map[string][]string{"k": {"a-1", "a-4"}}); err != nil {
			t.Fatal(err)
		}
	}
	if take("k", "b-2") {
		t.Fatal("renewed leases expired")
	}
	// Nobody renews them any more (their replica stopped): they expire.
	ageLeases(t, url, r.leaseKey("k"), StreamLeaseTTL)
	if !take("k", "b-3") || !take("k", "b-4") {
		t.Fatal("the leases of a stopped replica did not expire")
	}
}

// ageLeasesScript moves the expiry of every lease in the set KEYS[1] ARGV[1] milliseconds
// earlier, keeping the key's own expiry.
var ageLeasesScript = rueidis.NewLuaScript(`
local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #all, 2 do
  redis.call('ZADD', KEYS[1], tonumber(all[i + 1]) - tonumber(ARGV[1]), all[i])
end
return #all / 2
`)

// ageLeases lets d go by for the leases of key on Redis's clock, which the lease scripts run
// on and a test cannot move.
func ageLeases(t *testing.T, url, key string, d time.Duration) {
	t.Helper()
	c := testClient(t, url)
	if err := ageLeasesScript.Exec(context.Background(), c, []string{key}, []string{strconv.FormatInt(d.Milliseconds(), 10)}).Error(); err != nil {
		t.Fatalf("age leases: %v", err)
	}
}
