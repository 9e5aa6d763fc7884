package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/gen/pictures"
	"sportsdb/internal/store"
)

// drawDemoPictures draws, behind a serving server, the pictures the demo records of st name
// that st does not hold yet, and keeps them. A new demo database answers at once: drawing
// takes seconds of both cores (docs/PICTURES.md), and until a picture is kept answers name
// it as the records store it. On a database serve created earlier it draws what an earlier
// start left undrawn (one stopped while it drew), and nothing when all are there. It does
// nothing on a database serve did not create. The returned stop ends the drawing and waits
// for it, before the store is closed.
func drawDemoPictures(ctx context.Context, st store.Store, clk clock.Clock, log *slog.Logger) (stop func()) {
	im, ok := st.(store.Images)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sum, err := drawMissing(ctx, st, im, clk.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("demo pictures: not all drawn; the next start draws the rest", "err", err)
		case err == nil && sum.Pictures > 0:
			log.Info("demo pictures drawn", "pictures", sum.Pictures, "distinct", sum.Distinct,
				"mb", fmt.Sprintf("%.1f", float64(sum.Bytes)/(1<<20)), "took", sum.Elapsed.Round(100*time.Millisecond).String())
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}

// drawMissing draws and keeps the pictures the records of a demo database name that im
// does not hold.
func drawMissing(ctx context.Context, st store.Store, im store.Images, now time.Time) (pictures.Summary, error) {
	demo, err := isDemo(ctx, st)
	if err != nil || !demo {
		return pictures.Summary{}, err
	}
	start := time.Now()
	c, err := pictures.Collect(ctx, st)
	if err != nil {
		return pictures.Summary{}, err
	}
	held := map[string]bool{}
	if err := im.ImagePaths(ctx, func(p string) error { held[p] = true; return nil }); err != nil {
		return pictures.Summary{}, fmt.Errorf("pictures held: %w", err)
	}
	c.Keep(func(p string) bool { return !held[p] })
	sum, err := c.Put(ctx, im, now)
	sum.Elapsed = time.Since(start)
	return sum, err
}

// isDemo says whether serve created the database with the demo dataset: it holds the demo
// premium key.
func isDemo(ctx context.Context, st store.Keys) (bool, error) {
	keys, err := st.ListKeys(ctx)
	if err != nil {
		return false, fmt.Errorf("keys: %w", err)
	}
	for _, k := range keys {
		if k.Label == demoKeyLabel {
			return true, nil
		}
	}
	return false, nil
}
