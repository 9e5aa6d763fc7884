package ratelimit

import (
	"context"
	"testing"
	"time"

	"sportsdb/internal/clock"
)

// Leases of open streams: the limit holds over every lease of an id, a released one frees
// its slot, renewed ones stay, and those of a replica that stopped renewing expire.
func TestStreamLeases(t *testing.T) {
	url := testRedisURL(t)
	r, err := NewRedis(url, clock.System{}, RedisOptions{Prefix: testPrefix(t, url)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	leaseTTL = time.Second
	defer func() { leaseTTL = StreamLeaseTTL }()
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
		time.Sleep(leaseTTL / 5)
		if err := r.RefreshStreams(ctx, map[string][]string{"k": {"a-1", "a-4"}}); err != nil {
			t.Fatal(err)
		}
	}
	if take("k", "b-2") {
		t.Fatal("renewed leases expired")
	}
	// Nobody renews them any more (their replica stopped): they expire.
	time.Sleep(leaseTTL + 200*time.Millisecond)
	if !take("k", "b-3") || !take("k", "b-4") {
		t.Fatal("the leases of a stopped replica did not expire")
	}
}
