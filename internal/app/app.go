// Package app builds the server from a checked configuration: the one wiring that the serve
// command and the API tests share, so a setting reaches the server the same way in both.
package app

import (
	"errors"
	"log/slog"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/nameindex"
)

// Prepared is a configuration checked against what only the APIs know (the endpoint names
// of a caps file), before anything is opened or created.
type Prepared struct {
	cfg  *config.Config
	caps *caps.Table
}

// Prepare checks the parts of cfg that need the APIs: the caps file names endpoints, so it is
// read against a table that holds every endpoint's default cap. An upstream needs its key.
func Prepare(cfg *config.Config) (*Prepared, error) {
	if err := upstreamKeyNeeded(cfg); err != nil {
		return nil, err
	}
	table := caps.New()
	// The APIs register their default caps when built; built here on no store, they only
	// fill the table (server.New keeps the overrides: a default never replaces a cap).
	v1.New(api.Deps{Caps: table})
	v2.New(api.Deps{Caps: table})
	if cfg.Caps != "" {
		if err := table.LoadFile(cfg.Caps); err != nil {
			return nil, err
		}
	}
	return &Prepared{cfg: cfg, caps: table}, nil
}

// Deps are what a running server uses besides its settings.
type Deps struct {
	Store     store.Store
	Clock     clock.Clock // the data clock; nil is the configuration's
	Limiter   server.Limiter
	Logger    *slog.Logger
	AccessLog *server.AccessLog
	// Upstream, if set, reads through to another API (serve --upstream: a mirror.Fetcher).
	Upstream server.Upstream
}

// Server builds the HTTP handler. Keys and failed-key limits run on the wall clock even
// when the data clock is pinned: a pinned minute would never end, and a revoked key would
// never expire from the key cache.
func (p *Prepared) Server(d Deps) *server.Server {
	c := p.cfg
	if d.Clock == nil {
		d.Clock = c.Clock()
	}
	diskBytes := c.CacheDiskMB << 20
	if c.CacheDiskMB == 0 {
		diskBytes = -1 // server.Config: negative means no files
	}
	return server.New(server.Config{
		// Name searches are answered from memory once the index is built (through the
		// database until then, and whenever the data moved past the index's version). The
		// first build starts now, and /readyz waits for it.
		Store: nameindex.Wrap(d.Store, nameindex.Options{Warm: true}), Clock: d.Clock, Caps: p.caps, Logger: d.Logger, AccessLog: d.AccessLog, Limiter: d.Limiter,
		Auth:       auth.New(d.Store, clock.System{}, auth.Options{}),
		Guard:      auth.NewFailGuard(auth.FailGuardOptions{Limit: c.KeyFails, Window: time.Minute}),
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies,
		CORSOrigins: c.CORSOrigins,
		Limits:      c.Limits,
		OpenStreams: c.OpenStreams,
		CacheBytes:  c.CacheMB << 20,
		CacheDir:    c.CacheDir, CacheDiskBytes: diskBytes,
		Upstream: d.Upstream,
		Lenient:  c.Compat == "lenient",
	})
}

// upstreamKeyNeeded refuses an upstream without its key before anything is opened: every
// read-through would be refused, and the server would look like it had no upstream.
func upstreamKeyNeeded(cfg *config.Config) error {
	if cfg.Upstream != "" && cfg.UpstreamKey == "" {
		return errors.New("--upstream needs --upstream-key (or SPORTSDB_UPSTREAM_KEY, or a file named by SPORTSDB_UPSTREAM_KEY_FILE)")
	}
	return nil
}
