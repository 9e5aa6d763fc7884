package auth

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/clock"

	"sportsdb/internal/store"
)

// newFakeClock is a manual clock at a fixed start, shared by goroutines.
func newFakeClock() *clock.Manual {
	return clock.NewManual(time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC))
}

func addKey(t *testing.T, keys *memKeys, key string, tier store.Tier) {
	t.Helper()
	if err := keys.AddKey(context.Background(), store.Key{Hash: Hash(key), Tier: tier}); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	addKey(t, keys, "premium-key", store.Premium)
	a := New(keys, newFakeClock(), Options{})
	k, err := a.Resolve(ctx, "premium-key")
	if err != nil || k.Tier != store.Premium || k.Hash != Hash("premium-key") {
		t.Fatalf("Resolve = %+v, %v", k, err)
	}
	for _, bad := range []string{"nope", "", strings.Repeat("x", MaxKeyLength+1), "premium-key "} {
		if _, err := a.Resolve(ctx, bad); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("Resolve(%.20q): %v, want ErrUnknownKey", bad, err)
		}
	}
	before := keys.lookups.Load()
	_, _ = a.Resolve(ctx, "")
	_, _ = a.Resolve(ctx, strings.Repeat("x", 10000))
	if keys.lookups.Load() != before {
		t.Fatal("an empty or oversized key reached the store")
	}
}

func TestResolveCachesAndSeesRevocationWithinTTL(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	addKey(t, keys, "k", store.Business)
	clk := newFakeClock()
	// Asked for more than MaxTTL, it still keeps to MaxTTL.
	a := New(keys, clk, Options{TTL: time.Minute})
	for range 10 {
		if _, err := a.Resolve(ctx, "k"); err != nil {
			t.Fatal(err)
		}
	}
	if n := keys.lookups.Load(); n != 1 {
		t.Fatalf("%d store lookups for 10 resolves within the TTL, want 1", n)
	}
	// Revoked through another replica's database: the cached answer holds at most MaxTTL.
	_ = keys.RevokeKey(ctx, Hash("k"), clk.Now())
	clk.Advance(MaxTTL - time.Millisecond)
	if _, err := a.Resolve(ctx, "k"); err != nil {
		t.Fatalf("inside the TTL: %v", err)
	}
	clk.Advance(time.Millisecond)
	if _, err := a.Resolve(ctx, "k"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("revoked key after the TTL: %v, want ErrUnknownKey", err)
	}
	if _, ok := a.Known("k"); ok {
		t.Fatal("Known says yes to a revoked key")
	}
}

func TestResolveNegativeCache(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	clk := newFakeClock()
	a := New(keys, clk, Options{TTL: 2 * time.Second})
	for range 5 {
		if _, err := a.Resolve(ctx, "later"); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("unknown key: %v", err)
		}
	}
	if n := keys.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups of one unknown key within the TTL, want 1", n)
	}
	addKey(t, keys, "later", store.Free)
	clk.Advance(2 * time.Second)
	if k, err := a.Resolve(ctx, "later"); err != nil || k.Tier != store.Free {
		t.Fatalf("key added later, after the TTL: %+v, %v", k, err)
	}
}

func TestResolveStoreDownIsNotCached(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	addKey(t, keys, "k", store.Premium)
	a := New(keys, newFakeClock(), Options{})
	keys.down.Store(true)
	for range 2 {
		_, err := a.Resolve(ctx, "k")
		if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, ErrUnknownKey) {
			t.Fatalf("store down: %v, want ErrUnavailable", err)
		}
	}
	if n := keys.lookups.Load(); n != 2 {
		t.Fatalf("%d lookups, want 2: a failure must not be cached", n)
	}
	keys.down.Store(false)
	if _, err := a.Resolve(ctx, "k"); err != nil {
		t.Fatalf("store back: %v", err)
	}
}

func TestResolveConcurrentMissesShareOneLookup(t *testing.T) {
	keys := newMemKeys()
	addKey(t, keys, "k", store.Premium)
	keys.gate = make(chan struct{})
	a := New(keys, newFakeClock(), Options{})
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if k, err := a.Resolve(context.Background(), "k"); err != nil || k.Tier != store.Premium {
				failed.Add(1)
			}
		}()
	}
	awaitWaiters(a, "k", 63)
	close(keys.gate)
	wg.Wait()
	if failed.Load() != 0 || keys.lookups.Load() != 1 {
		t.Fatalf("%d failed, %d lookups; want 0 and 1", failed.Load(), keys.lookups.Load())
	}
}

// A waiter whose own request is alive is not failed by the request it waited on.
func TestResolveWaiterOutlivesCancelledLeader(t *testing.T) {
	keys := newMemKeys()
	addKey(t, keys, "k", store.Premium)
	keys.gate = make(chan struct{})
	a := New(keys, newFakeClock(), Options{})
	leaderCtx, cancel := context.WithCancel(context.Background())
	leaderErr := make(chan error)
	go func() {
		_, err := a.Resolve(leaderCtx, "k")
		leaderErr <- err
	}()
	for keys.lookups.Load() == 0 {
		runtime.Gosched()
	}
	waiter := make(chan error)
	go func() {
		_, err := a.Resolve(context.Background(), "k")
		waiter <- err
	}()
	awaitWaiters(a, "k", 1)
	cancel()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader: %v, want its cancellation", err)
	}
	close(keys.gate)
	if err := <-waiter; err != nil {
		t.Fatalf("waiter: %v", err)
	}
}

// awaitWaiters returns once n requests wait on the lookup of key under way.
func awaitWaiters(a *Authenticator, key string, n int) {
	h := Hash(key)
	for {
		a.flightMu.Lock()
		l := a.flight[h]
		got := 0
		if l != nil {
			got = l.waiters
		}
		a.flightMu.Unlock()
		if got >= n {
			return
		}
		runtime.Gosched()
	}
}

func TestResolveCacheBounded(t *testing.T) {
	keys := newMemKeys()
	a := New(keys, newFakeClock(), Options{MaxEntries: 100})
	for i := range 1000 {
		_, _ = a.Resolve(context.Background(), fmt.Sprint("guess", i))
	}
	if n := a.Len(); n > 100 {
		t.Fatalf("cache holds %d entries, bound 100", n)
	}
}

func TestKnown(t *testing.T) {
	keys := newMemKeys()
	addKey(t, keys, "k", store.Premium)
	clk := newFakeClock()
	a := New(keys, clk, Options{})
	if _, ok := a.Known("k"); ok {
		t.Fatal("known before any lookup")
	}
	_, _ = a.Resolve(context.Background(), "k")
	_, _ = a.Resolve(context.Background(), "unknown")
	if k, ok := a.Known("k"); !ok || k.Tier != store.Premium {
		t.Fatalf("Known after a lookup: %+v, %v", k, ok)
	}
	if _, ok := a.Known("unknown"); ok {
		t.Fatal("an unknown key is Known")
	}
	n := keys.lookups.Load()
	clk.Advance(MaxTTL)
	if _, ok := a.Known("k"); ok {
		t.Fatal("still known after the TTL")
	}
	if keys.lookups.Load() != n {
		t.Fatal("Known asked the store")
	}
}

// The role of a key reaches what Resolve answers, from the store and from the cache.
func TestResolveKeepsRole(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	_ = keys.AddKey(ctx, store.Key{Hash: Hash("ed"), Tier: store.Business, Role: store.Editor})
	a := New(keys, newFakeClock(), Options{})
	for range 2 {
		if k, err := a.Resolve(ctx, "ed"); err != nil || k.Role != store.Editor {
			t.Fatalf("resolve an editor key: %+v, %v", k, err)
		}
	}
}
