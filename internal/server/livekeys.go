package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"sportsdb/internal/auth"
)

// KeyCheckInterval is how often the keys of open streams are resolved again. A lookup is
// trusted for at most auth.MaxTTL, so a revoked key's streams end within MaxTTL plus one
// interval of the revocation, on every replica: the promised 5 s in which new requests with
// the key are refused.
const KeyCheckInterval = time.Second

// errKeyRevoked is why a stream of a revoked key ends.
var errKeyRevoked = errors.New("stream ended: its key was revoked")

// keyStreams holds the open streams by the hash of their key, and checks their keys through
// the authenticator every KeyCheckInterval while any is open. Each replica reads its keys
// from the database, so a revocation written through any one of them reaches every replica's
// streams the way it reaches their requests.
type keyStreams struct {
	auth     *auth.Authenticator
	interval time.Duration

	mu      sync.Mutex
	streams map[string]map[*streamStop]struct{}
	ticking chan struct{} // closed to stop the checks; nil while no stream is open
}

// streamStop ends one stream.
type streamStop struct {
	cancel context.CancelCauseFunc
}

func newKeyStreams(a *auth.Authenticator) *keyStreams {
	return &keyStreams{auth: a, interval: KeyCheckInterval, streams: map[string]map[*streamStop]struct{}{}}
}

// add registers a stream of the key hash: stop ends when the key is found revoked; forget
// takes the stream out once it has ended.
func (k *keyStreams) add(hash string) (stop context.Context, forget func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	st := &streamStop{cancel: cancel}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.streams[hash] == nil {
		k.streams[hash] = map[*streamStop]struct{}{}
	}
	k.streams[hash][st] = struct{}{}
	if k.ticking == nil && k.auth != nil {
		k.ticking = make(chan struct{})
		go k.loop(k.ticking)
	}
	return ctx, func() {
		cancel(nil)
		k.mu.Lock()
		defer k.mu.Unlock()
		delete(k.streams[hash], st)
		if len(k.streams[hash]) == 0 {
			delete(k.streams, hash)
		}
		if len(k.streams) == 0 && k.ticking != nil {
			close(k.ticking)
			k.ticking = nil
		}
	}
}

func (k *keyStreams) loop(stop chan struct{}) {
	tick := time.NewTicker(k.interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		k.check(context.Background())
	}
}

// check resolves the key of every open stream and ends the streams of keys that are gone or
// revoked. A store that cannot say ends nothing: requests are answered 503 then, not refused.
func (k *keyStreams) check(ctx context.Context) (ended int) {
	k.mu.Lock()
	hashes := make([]string, 0, len(k.streams))
	for h := range k.streams {
		hashes = append(hashes, h)
	}
	k.mu.Unlock()
	for _, h := range hashes {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := k.auth.ResolveHash(lctx, h)
		cancel()
		if !errors.Is(err, auth.ErrUnknownKey) {
			continue
		}
		k.mu.Lock()
		for st := range k.streams[h] {
			st.cancel(errKeyRevoked)
			ended++
		}
		k.mu.Unlock()
	}
	return ended
}
