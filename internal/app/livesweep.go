package app

import (
	"context"
	"log/slog"
	"time"

	"sportsdb/internal/api/records"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// liveSweepInterval is how often serve deletes the live score entries whose event ended
// records.LiveKept ago: an entry stays at most this much longer.
const liveSweepInterval = time.Minute

// SweepLiveScores deletes, every minute on the data clock clk, the live score entries the
// records API kept of events that ended two hours ago (records.Sweep), until stop is
// called. Every replica sweeps; each entry is deleted once.
func SweepLiveScores(st store.Records, clk clock.Clock, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(liveSweepInterval)
		defer t.Stop()
		records.SweepEvery(ctx, st, clk.Now, t.C, func(err error) {
			logger.Warn("live score sweep failed", "err", err)
		})
	}()
	return func() { cancel(); <-done }
}
