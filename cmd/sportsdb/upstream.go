package main

import (
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/config"
	"sportsdb/internal/mirror"
	"sportsdb/internal/store"
)

// newUpstream builds serve's read-through of --upstream on st, or nil without one. Its
// budget is the mirror's of the same key (in Redis with --redis, so a mirror and every
// replica share it); the collectors are its metrics, for /metrics.
func newUpstream(c *config.Config, st store.Store, logger *slog.Logger) (*mirror.Fetcher, []prometheus.Collector, error) {
	if c.Upstream == "" {
		return nil, nil, nil
	}
	m := mirror.NewMetrics()
	f, err := mirror.NewFetcher(mirror.FetcherOptions{From: c.Upstream, Key: c.UpstreamKey, Store: st,
		Rate: c.UpstreamRate, MediaRate: c.MediaRate, Redis: c.Redis, Logger: logger, Metrics: m})
	if err != nil {
		return nil, nil, fmt.Errorf("upstream: %w", err)
	}
	return f, m.Collectors(), nil
}
