package clock

import (
	"context"
	"testing"
	"time"
)

func TestWatch(t *testing.T) {
	at := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	c := Fixed(at)

	_, w := Watching(context.Background())
	if _, bound, _ := w.Expiry(); bound {
		t.Fatal("no reading: bound")
	}

	ctx, w := Watching(context.Background())
	if got := Read(ctx, c); !got.Equal(at) {
		t.Fatalf("Read = %v", got)
	}
	if _, bound, known := w.Expiry(); !bound || known {
		t.Fatalf("a reading with no declaration: bound %v known %v", bound, known)
	}
	Until(ctx, at.Add(2*time.Hour))
	Read(ctx, c)
	Until(ctx, at.Add(time.Hour)) // the earliest declaration wins
	Read(ctx, c)
	Until(ctx, time.Time{}) // steady: does not move it
	if until, bound, known := w.Expiry(); !bound || !known || !until.Equal(at.Add(time.Hour)) {
		t.Fatalf("declared: %v %v %v", until, bound, known)
	}

	ctx, w = Watching(context.Background())
	Read(ctx, c)
	Until(ctx, time.Time{})
	if until, bound, known := w.Expiry(); !bound || !known || !until.IsZero() {
		t.Fatalf("steady: %v %v %v", until, bound, known)
	}

	// Without a Watch, reading and declaring still work.
	if got := Read(context.Background(), c); !got.Equal(at) {
		t.Fatalf("Read without a watch = %v", got)
	}
	Until(context.Background(), at)

	if got := NextMidnight(time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)); !got.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("NextMidnight = %v", got)
	}
}
