package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// pushes keeps one push's lease in memory as the stores do, and counts the takes.
type pushes struct {
	holder string
	until  time.Time
	takes  int
	err    error
}

func (p *pushes) TakePushLease(_ context.Context, _, holder string, now time.Time, ttl time.Duration) (bool, error) {
	p.takes++
	if p.err != nil {
		return false, p.err
	}
	if holder != p.holder && now.Before(p.until) {
		return false, nil
	}
	p.holder, p.until = holder, now.Add(ttl)
	return true, nil
}

func (p *pushes) ReleasePushLease(_ context.Context, _, holder string) error {
	if holder == p.holder {
		p.until = time.Time{}
	}
	return nil
}

func (*pushes) PushCursor(context.Context, string) (int64, error)           { return NoCursor, nil }
func (*pushes) SavePushCursor(context.Context, string, string, int64) error { return nil }

func TestLease(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	p := &pushes{}
	a := NewLease(p, "push", "a", 30*time.Second)
	if ok, err := a.Take(ctx, t0); !ok || err != nil || !a.Held() {
		t.Fatalf("a free lease: %v, %v", ok, err)
	}
	if err := a.Keep(ctx, at(9*time.Second)); err != nil || p.takes != 1 {
		t.Fatalf("kept before a third of its time: %v, %d takes; want no renewal", err, p.takes)
	}
	if err := a.Keep(ctx, at(10*time.Second)); err != nil || p.takes != 2 {
		t.Fatalf("kept at a third of its time: %v, %d takes; want one renewal", err, p.takes)
	}

	// A renewal that fails leaves the lease held while it has time left.
	p.err = errors.New("database down")
	if err := a.Keep(ctx, at(25*time.Second)); err == nil || errors.Is(err, ErrLeaseLost) || !a.Held() {
		t.Fatalf("a failed renewal with time left: %v, held %v", err, a.Held())
	}
	p.err = nil

	// Lapsed: another holder may have taken it, pushed and released it meanwhile; the store
	// would renew it now, but the holder must start again.
	b := NewLease(p, "push", "b", 30*time.Second)
	if ok, _ := b.Take(ctx, at(40*time.Second)); !ok {
		t.Fatal("b could not take the lapsed lease")
	}
	if err := b.Release(ctx); err != nil || b.Held() {
		t.Fatalf("release: %v, held %v", err, b.Held())
	}
	takes := p.takes
	if err := a.Keep(ctx, at(41*time.Second)); !errors.Is(err, ErrLeaseLost) || p.takes != takes {
		t.Fatalf("a lapsed lease kept: %v, %d takes; want ErrLeaseLost without asking the store", err, p.takes-takes)
	}

	// Taken by another while held.
	if ok, _ := a.Take(ctx, at(50*time.Second)); !ok {
		t.Fatal("a could not take the lease again")
	}
	p.holder, p.until = "b", at(200*time.Second)
	if err := a.Renew(ctx, at(60*time.Second)); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a lease another holder took renewed: %v", err)
	}
}
