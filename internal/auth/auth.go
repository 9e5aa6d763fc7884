// Package auth resolves API keys to their stored tier. Keys are secrets: only their SHA-256
// is stored, compared, cached or handed on (as the rate limiter's id), never the key itself.
//
// The server's order for each request:
//
//	key, err := authenticator.Resolve(ctx, apiKey)
//	ErrUnknownKey: if guard.Blocked(addr, now): 429 with the wait; else guard.Fail(addr, now)
//	               and 400 Invalid API key
//	store.ErrUnavailable: 503
//
// Only failed checks are limited per address: a valid key is served from an address that
// others behind the same NAT have made blocked. Keys are 32 random symbols (NewKey), so the
// guard's use is to slow clients stuck in a loop of wrong keys and bound the lookups they
// cost, not to keep a key from being guessed.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/store"
)

// ErrUnknownKey: no such key, or it was revoked. Clients get HTTP 400 "Invalid API key".
var ErrUnknownKey = errors.New("unknown or revoked API key")

// PublishedKeys are the free keys the public service documents for development; clients
// hard-code them, so a new database accepts them until an operator revokes them.
var PublishedKeys = []string{"123", "3"}

// Hash returns the hex SHA-256 of a key, the only form in which a key is stored.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// keyAlphabet holds letters and digits only, so a key needs no escaping in a URL path.
const keyAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// KeyLength is the length of keys NewKey makes: 32 of 62 symbols, about 190 bits.
const KeyLength = 32

// NewKey returns a new random key.
func NewKey() string {
	out := make([]byte, 0, KeyLength)
	buf := make([]byte, 64)
	for len(out) < KeyLength {
		// crypto/rand.Read never fails on supported platforms; it crashes the program rather
		// than return weak bytes.
		_, _ = rand.Read(buf)
		for _, b := range buf {
			// 248 = 4*62: bytes above it would favour the first symbols, so they are skipped.
			if b < 248 && len(out) < KeyLength {
				out = append(out, keyAlphabet[b%62])
			}
		}
	}
	return string(out)
}

// EnsurePublished stores the published free keys on a database that has never had them. A
// revoked published key keeps its row, so it is found here and does not come back.
func EnsurePublished(ctx context.Context, keys store.Keys) error {
	now := time.Now().UTC()
	for _, k := range PublishedKeys {
		h := Hash(k)
		_, err := keys.KeyByHash(ctx, h)
		if err == nil {
			continue
		}
		if !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("auth: look up published key: %w", err)
		}
		err = keys.AddKey(ctx, store.Key{Hash: h, Tier: store.Free, Label: "published free key", Created: now})
		// Another replica starting at the same time may have stored it first.
		if err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("auth: store published key: %w", err)
		}
	}
	return nil
}
