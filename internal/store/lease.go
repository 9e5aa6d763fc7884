package store

import (
	"context"
	"fmt"
	"time"
)

// Lease is one holder's lease of a push (Pushes): taken, renewed every third of its time,
// and counted lost once it went a whole TTL unrenewed, even if the store would renew it
// then. Between that lapse and a renewal another holder may have taken the push, moved its
// cursor and let it go, so what this holder kept of the push (its cursor, its state) is no
// longer the store's: it starts again from what the store holds. Every push keeps its lease
// through one; a Lease is not safe for concurrent use.
type Lease struct {
	p            Pushes
	name, holder string
	ttl          time.Duration
	held         bool
	renewed      time.Time
}

// NewLease returns holder's lease of push name, not yet taken; it lasts ttl unrenewed.
func NewLease(p Pushes, name, holder string, ttl time.Duration) *Lease {
	return &Lease{p: p, name: name, holder: holder, ttl: ttl}
}

// Take takes the lease, if no other holder's runs past now, and says whether it did.
func (l *Lease) Take(ctx context.Context, now time.Time) (bool, error) {
	ok, err := l.p.TakePushLease(ctx, l.name, l.holder, now, l.ttl)
	if err != nil {
		return false, fmt.Errorf("take the lease of %s: %w", l.name, err)
	}
	l.held, l.renewed = ok, now
	return ok, nil
}

// Held says whether the lease was taken and not released since. A held lease may have
// been lost meanwhile: Keep and Renew say so.
func (l *Lease) Held() bool { return l.held }

// Keep renews the lease once a third of its time has passed since it was last renewed (a
// caller that comes often); Renew renews it now (a caller on a ticker of a third).
func (l *Lease) Keep(ctx context.Context, now time.Time) error {
	if l.held && now.Sub(l.renewed) < l.ttl/3 {
		return nil
	}
	return l.Renew(ctx, now)
}

// Renew renews the lease: ErrLeaseLost when it was not held, lapsed unrenewed or was taken
// by another holder. Any other error leaves it held until it lapses, for the caller to try
// again.
func (l *Lease) Renew(ctx context.Context, now time.Time) error {
	if !l.held {
		return fmt.Errorf("%s: %w: not held", l.name, ErrLeaseLost)
	}
	if now.Sub(l.renewed) >= l.ttl {
		return fmt.Errorf("%s: %w: not renewed within %s", l.name, ErrLeaseLost, l.ttl)
	}
	ok, err := l.p.TakePushLease(ctx, l.name, l.holder, now, l.ttl)
	if err != nil {
		return fmt.Errorf("renew the lease of %s: %w", l.name, err)
	}
	if !ok {
		return fmt.Errorf("%s: %w: another holder took it", l.name, ErrLeaseLost)
	}
	l.renewed = now
	return nil
}

// Release gives the lease back at once, if this holder still has it in the store.
func (l *Lease) Release(ctx context.Context) error {
	l.held = false
	if err := l.p.ReleasePushLease(ctx, l.name, l.holder); err != nil {
		return fmt.Errorf("release the lease of %s: %w", l.name, err)
	}
	return nil
}
