package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// memKeys is store.Keys in memory, counting lookups, with a switchable outage.
type memKeys struct {
	mu      sync.Mutex
	keys    map[string]store.Key
	lookups atomic.Int64
	down    atomic.Bool
	// gate, when set, holds every lookup until it is closed or the lookup's context ends.
	gate chan struct{}
}

func newMemKeys() *memKeys { return &memKeys{keys: map[string]store.Key{}} }

func (m *memKeys) AddKey(_ context.Context, k store.Key) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.keys[k.Hash]; ok {
		return fmt.Errorf("add key: %w", store.ErrConflict)
	}
	m.keys[k.Hash] = k
	return nil
}

func (m *memKeys) KeyByHash(ctx context.Context, hash string) (store.Key, error) {
	m.lookups.Add(1)
	if m.gate != nil {
		select {
		case <-m.gate:
		case <-ctx.Done():
			return store.Key{}, ctx.Err()
		}
	}
	if m.down.Load() {
		return store.Key{}, fmt.Errorf("query key: %w", store.ErrUnavailable)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[hash]
	if !ok {
		return store.Key{}, store.ErrNotFound
	}
	return k, nil
}

func (m *memKeys) ListKeys(context.Context) ([]store.Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []store.Key
	for _, k := range m.keys {
		out = append(out, k)
	}
	return out, nil
}

func (m *memKeys) RevokeKey(_ context.Context, hash string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[hash]
	if !ok {
		return store.ErrNotFound
	}
	k.Revoked = &at
	m.keys[hash] = k
	return nil
}

func TestHash(t *testing.T) {
	if got := Hash("123"); got != "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3" {
		t.Fatalf("Hash(123) = %s", got)
	}
}

func TestNewKey(t *testing.T) {
	seen := map[string]bool{}
	counts := map[rune]int{}
	for range 2000 {
		k := NewKey()
		if len(k) != KeyLength || seen[k] {
			t.Fatalf("key %q: wrong length or repeated", k)
		}
		seen[k] = true
		for _, r := range k {
			if !strings.ContainsRune(keyAlphabet, r) {
				t.Fatalf("key %q holds %q, not URL-safe", k, r)
			}
			counts[r]++
		}
	}
	// 64000 symbols over 62: each about 1032; a biased generator would leave some far off.
	for _, r := range keyAlphabet {
		if counts[r] < 800 || counts[r] > 1300 {
			t.Fatalf("symbol %q drawn %d times of 64000", r, counts[r])
		}
	}
}

func TestEnsurePublished(t *testing.T) {
	ctx := context.Background()
	keys := newMemKeys()
	if err := EnsurePublished(ctx, keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"123", "3"} {
		got, err := keys.KeyByHash(ctx, Hash(k))
		if err != nil || got.Tier != store.Free || got.Revoked != nil {
			t.Fatalf("published key %q: %+v, %v", k, got, err)
		}
	}
	if err := keys.RevokeKey(ctx, Hash("3"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := EnsurePublished(ctx, keys); err != nil {
		t.Fatalf("second run: %v", err)
	}
	if all, _ := keys.ListKeys(ctx); len(all) != 2 {
		t.Fatalf("%d keys after a second run, want 2", len(all))
	}
	a := New(keys, newFakeClock(), Options{})
	if _, err := a.Resolve(ctx, "3"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("revoked published key came back: %v", err)
	}
	if k, err := a.Resolve(ctx, "123"); err != nil || k.Tier != store.Free {
		t.Fatalf("published key 123: %+v, %v", k, err)
	}

	keys.down.Store(true)
	if err := EnsurePublished(ctx, keys); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("store down: %v, want ErrUnavailable", err)
	}
}

// racingKeys says a key is missing, then finds it stored: another replica added it between.
type racingKeys struct{ *memKeys }

func (r racingKeys) KeyByHash(context.Context, string) (store.Key, error) {
	return store.Key{}, store.ErrNotFound
}

func TestEnsurePublishedRace(t *testing.T) {
	keys := newMemKeys()
	_ = EnsurePublished(context.Background(), keys)
	if err := EnsurePublished(context.Background(), racingKeys{keys}); err != nil {
		t.Fatalf("a key stored by another replica meanwhile: %v", err)
	}
}
