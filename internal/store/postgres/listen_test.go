package postgres

import (
	"context"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// A write that records changes notifies a listener; one that changes nothing does not.
func TestListenHearsChangingWrites(t *testing.T) {
	s := openFresh(t)
	ctx, cancel := context.WithCancel(context.Background())
	heard := make(chan struct{}, 10)
	ended := make(chan error, 1)
	go func() { ended <- s.Listen(ctx, func() { heard <- struct{}{} }) }()
	team := record.Team.NewRecord()
	team.Set("idTeam", record.Str("1"))
	write := func() {
		err := s.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, team) })
		if err != nil {
			t.Fatal(err)
		}
	}
	// The listener may not be listening yet: write until it hears, changing the record.
	deadline := time.After(15 * time.Second)
	for i := 0; ; i++ {
		team.Set("strTeam", record.Str(time.Now().String()))
		write()
		select {
		case <-heard:
		case <-time.After(200 * time.Millisecond):
			continue
		case <-deadline:
			t.Fatal("no notification")
		}
		break
	}
	// Late notifications of the writes before the one heard come first.
	for quiet := false; !quiet; {
		select {
		case <-heard:
		case <-time.After(300 * time.Millisecond):
			quiet = true
		}
	}
	write() // identical: no change, no notification
	select {
	case <-heard:
		t.Error("notified of a write that changed nothing")
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	if err := <-ended; err != context.Canceled {
		t.Errorf("Listen ended with %v, want context.Canceled", err)
	}
}
