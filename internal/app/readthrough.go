package app

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/config"
	"sportsdb/internal/mirror"
	"sportsdb/internal/store"
)

// ReadThrough is a mirror.Fetcher as the server's Upstream.
type ReadThrough struct{ *mirror.Fetcher }

// EmptyAnswer says whether an answer holds no records.
func (ReadThrough) EmptyAnswer(body []byte) bool { return mirror.EmptyAnswer(body) }

// TimeDependent says whether an answer depends on the time.
func (ReadThrough) TimeDependent(version, pathAndQuery string) bool {
	return mirror.TimeDependent(version, pathAndQuery)
}

// Upstream builds the read-through of a configuration with --upstream on st: its budget is
// the mirror's of the same key (in Redis with --redis, so a mirror and every replica share
// it). It returns nil when no upstream is configured; the collectors are its metrics.
func (p *Prepared) Upstream(st store.Store, logger *slog.Logger) (*ReadThrough, []prometheus.Collector, error) {
	c := p.cfg
	if c.Upstream == "" {
		return nil, nil, nil
	}
	m := mirror.NewMetrics()
	f, err := mirror.NewFetcher(mirror.FetcherOptions{From: c.Upstream, Key: c.UpstreamKey, Store: st,
		Rate: c.UpstreamRate, Redis: c.Redis, Logger: logger, Metrics: m})
	if err != nil {
		return nil, nil, fmt.Errorf("upstream: %w", err)
	}
	return &ReadThrough{f}, m.Collectors(), nil
}

// upstreamKeyNeeded refuses an upstream without its key before anything is opened: every
// read-through would be refused, and the server would look like it had no upstream.
func upstreamKeyNeeded(cfg *config.Config) error {
	if cfg.Upstream != "" && cfg.UpstreamKey == "" {
		return errors.New("--upstream needs --upstream-key (or SPORTSDB_UPSTREAM_KEY, or a file named by SPORTSDB_UPSTREAM_KEY_FILE)")
	}
	return nil
}
