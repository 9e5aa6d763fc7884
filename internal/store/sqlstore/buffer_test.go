package sqlstore

import (
	"context"
	"strings"
	"testing"
)

func TestBufferFlushesWhenFullAndRefusesAfterClose(t *testing.T) {
	var flushed []int
	var b *Buffer
	b = NewBuffer("test", 2, func(context.Context) error {
		flushed = append(flushed, b.Len())
		b.Take()
		return nil
	})
	ctx := context.Background()
	for _, id := range []string{"1", "2", "3"} {
		if err := b.Upsert(ctx, team("idTeam", id)); err != nil {
			t.Fatal(err)
		}
	}
	if len(flushed) != 1 || flushed[0] != 2 || b.Len() != 1 {
		t.Fatalf("flushes %v with %d left, want one flush of 2 and 1 left", flushed, b.Len())
	}
	b.Close()
	err := b.Replace(ctx, team("idTeam", "4"))
	if err == nil || !strings.Contains(err.Error(), "test: replace: transaction has ended") {
		t.Fatalf("after Close: %v", err)
	}
}
