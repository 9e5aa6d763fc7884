package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"sync"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// MaxTTL bounds how long a lookup is trusted. A key revoked through any replica's database
// stops working on every replica within MaxTTL plus one lookup, inside the promised 5 s.
const MaxTTL = 4 * time.Second

// MaxKeyLength: longer keys are refused without hashing or a lookup.
const MaxKeyLength = 4 * MaxValueLength

// Options tunes an Authenticator; the zero value is ready to use.
type Options struct {
	// TTL of a cached lookup, found or not; default 3 s, at most MaxTTL.
	TTL time.Duration
	// MaxEntries bounds the cache; default 100000.
	MaxEntries int
}

// Authenticator resolves keys through a small cache in front of the store.
type Authenticator struct {
	keys store.Keys
	clk  clock.Clock
	ttl  time.Duration
	max  int

	mu    sync.RWMutex
	cache map[string]cached // by key hash

	flightMu sync.Mutex
	flight   map[string]*lookup
}

type cached struct {
	key     store.Key
	valid   bool
	expires time.Time
}

// lookup is one store read that concurrent misses of the same key wait for.
type lookup struct {
	done    chan struct{}
	waiters int // guarded by flightMu; what a test waits on to know the lookup is shared
	c       cached
	err     error
}

// New returns an Authenticator reading keys from the store.
func New(keys store.Keys, clk clock.Clock, o Options) *Authenticator {
	a := &Authenticator{keys: keys, clk: clk, ttl: o.TTL, max: o.MaxEntries,
		cache: make(map[string]cached), flight: make(map[string]*lookup)}
	if a.ttl <= 0 {
		a.ttl = 3 * time.Second
	}
	a.ttl = min(a.ttl, MaxTTL)
	if a.max <= 0 {
		a.max = 100000
	}
	return a
}

// Resolve returns the stored key for a key a client sent: ErrUnknownKey when there is no such
// key or it was revoked, an error wrapping store.ErrUnavailable when the store cannot say.
func (a *Authenticator) Resolve(ctx context.Context, key string) (store.Key, error) {
	if key == "" || len(key) > MaxKeyLength {
		return store.Key{}, ErrUnknownKey
	}
	return a.ResolveHash(ctx, Hash(key))
}

// ResolveHash is Resolve for a key known by its hash, through the same cache: what holds a
// key's hash only (an open stream) learns of a revocation when new requests with it do.
func (a *Authenticator) ResolveHash(ctx context.Context, h string) (store.Key, error) {
	if c, ok := a.get(h, a.clk.Now()); ok {
		return c.answer(h)
	}
	c, err := a.lookupShared(ctx, h)
	if err != nil {
		return store.Key{}, err
	}
	return c.answer(h)
}

// Known returns a key that a recent lookup found valid, without asking the store.
func (a *Authenticator) Known(key string) (store.Key, bool) {
	if key == "" || len(key) > MaxKeyLength {
		return store.Key{}, false
	}
	h := Hash(key)
	c, ok := a.get(h, a.clk.Now())
	if !ok {
		return store.Key{}, false
	}
	k, err := c.answer(h)
	return k, err == nil
}

func (c cached) answer(hash string) (store.Key, error) {
	if !c.valid || subtle.ConstantTimeCompare([]byte(c.key.Hash), []byte(hash)) != 1 {
		return store.Key{}, ErrUnknownKey
	}
	return c.key, nil
}

func (a *Authenticator) get(hash string, now time.Time) (cached, bool) {
	a.mu.RLock()
	c, ok := a.cache[hash]
	a.mu.RUnlock()
	if !ok || !now.Before(c.expires) {
		return cached{}, false
	}
	return c, true
}

// lookupShared reads the store once for all concurrent misses of one key.
func (a *Authenticator) lookupShared(ctx context.Context, hash string) (cached, error) {
	a.flightMu.Lock()
	if l, ok := a.flight[hash]; ok {
		l.waiters++
		a.flightMu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return cached{}, fmt.Errorf("auth: wait for key lookup: %w", ctx.Err())
		}
		// The leader's request may have been cancelled while this one still waits for an answer.
		if l.err != nil && isContextErr(l.err) && ctx.Err() == nil {
			return a.read(ctx, hash)
		}
		return l.c, l.err
	}
	l := &lookup{done: make(chan struct{})}
	a.flight[hash] = l
	a.flightMu.Unlock()

	l.c, l.err = a.read(ctx, hash)
	a.flightMu.Lock()
	delete(a.flight, hash)
	a.flightMu.Unlock()
	close(l.done)
	return l.c, l.err
}

// read asks the store and caches the answer when there is one; failures are not cached.
func (a *Authenticator) read(ctx context.Context, hash string) (cached, error) {
	k, err := a.keys.KeyByHash(ctx, hash)
	var c cached
	switch {
	case err == nil:
		// A revoked key keeps its row; any revocation time counts, so replicas whose clocks
		// differ agree.
		c = cached{key: k, valid: k.Revoked == nil}
	case errors.Is(err, store.ErrNotFound):
	default:
		return cached{}, fmt.Errorf("auth: look up key: %w", err)
	}
	c.expires = a.clk.Now().Add(a.ttl)
	a.put(hash, c)
	return c, nil
}

func (a *Authenticator) put(hash string, c cached) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.cache) >= a.max {
		a.evict(c.expires.Add(-a.ttl))
	}
	a.cache[hash] = c
}

// evict drops expired entries, then arbitrary ones down to 7/8 of the bound, so a flood of
// made-up keys costs one sweep per max/8 inserts, not one per insert.
func (a *Authenticator) evict(now time.Time) {
	for h, c := range a.cache {
		if !now.Before(c.expires) {
			delete(a.cache, h)
		}
	}
	for h := range a.cache {
		if len(a.cache) < a.max-a.max/8 {
			return
		}
		delete(a.cache, h)
	}
}

// Len returns how many lookups are cached.
func (a *Authenticator) Len() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.cache)
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
