// Package app builds the server from a checked configuration: the one wiring that the serve
// command and the API tests share, so a setting reaches the server the same way in both.
package app

import (
	"errors"
	"log/slog"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/media"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/nameindex"
	"sportsdb/internal/webhooks"
)

// Prepared is a configuration checked against what only the APIs know (the endpoint names
// of a caps file), before anything is opened or created.
type Prepared struct {
	cfg    *config.Config
	caps   *caps.Table
	mounts server.Mounts
	// records and clock are what the mounts read, bound by Server.
	records *boundRecords
	clock   *boundClock
	hooks   *webhooks.API
	images  *media.Handler
	library *media.Library
	built   bool
}

// Prepare checks the parts of cfg that need the APIs: the caps file names endpoints, so it is
// read against a table that holds every endpoint's default cap. An upstream needs its key.
func Prepare(cfg *config.Config) (*Prepared, error) {
	if err := upstreamKeyNeeded(cfg); err != nil {
		return nil, err
	}
	p := &Prepared{cfg: cfg, caps: caps.New(), records: &boundRecords{}, clock: &boundClock{}}
	// The APIs register their default caps when built, here, once: over the store and the
	// clock that Server binds.
	p.mounts = Mounts(api.Deps{Store: p.records, Clock: p.clock, Caps: p.caps, Lenient: cfg.Compat == "lenient"})
	p.hooks = webhooks.NewAPI(webhooks.Guard{AllowPrivate: cfg.WebhookAllowPrivate}, p.clock)
	p.mounts.Writes = writesChain{p.mounts.Writes, p.hooks}
	p.images = media.NewHandler(p.clock, server.HoldAnswer)
	p.mounts.Images = p.images
	if cfg.Caps != "" {
		if err := p.caps.LoadFile(cfg.Caps); err != nil {
			return nil, err
		}
	}
	return p, nil
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
	// WarmUp: /readyz waits for a warm-up of the server's answers (serve).
	WarmUp bool
	// Media tunes the image tree (its clock is the data clock): Missing reads through.
	Media media.Options
}

// Server builds the HTTP handler, once per Prepared: the mounts read the store it is given.
// Keys and failed-key limits run on the wall clock even when the data clock is pinned: a
// pinned minute would never end, and a revoked key would never expire from the key cache.
func (p *Prepared) Server(d Deps) *server.Server {
	if p.built {
		panic("app: Prepared.Server called twice")
	}
	p.built = true
	c := p.cfg
	if d.Clock == nil {
		d.Clock = c.Clock()
	}
	// Name searches are answered from memory once the index is built (through the database
	// until then, and whenever the data moved past the index's version). The first build
	// starts now, and /readyz waits for it.
	st := nameindex.Wrap(d.Store, nameindex.Options{Warm: true})
	p.records.Records, p.clock.Clock = st, d.Clock
	p.hooks.Bind(d.Store)
	p.library = p.images.Bind(d.Store, imageOptions(d))
	diskBytes := c.CacheDiskMB << 20
	if c.CacheDiskMB == 0 {
		diskBytes = -1 // server.Config: negative means no files
	}
	cfg := server.Config{
		Mounts: p.mounts,
		Store:  st, Clock: d.Clock, Logger: d.Logger, AccessLog: d.AccessLog, Limiter: d.Limiter,
		Auth:       auth.New(d.Store, clock.System{}, auth.Options{}),
		Guard:      auth.NewFailGuard(auth.FailGuardOptions{Limit: c.KeyFails, Window: time.Minute}),
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies,
		CORSOrigins: c.CORSOrigins,
		Limits:      c.Limits,
		OpenStreams: c.OpenStreams,
		CacheBytes:  c.CacheMB << 20,
		CacheDir:    c.CacheDir, CacheDiskBytes: diskBytes,
		Upstream: d.Upstream,
		WarmUp:   d.WarmUp,
	}
	if rw := imageRewriter(c, d); rw != nil {
		cfg.Images = rw
	}
	return server.New(cfg)
}

// Images is the library the image tree serves, once Server has bound a store that keeps
// images; nil before, or when the store keeps none.
func (p *Prepared) Images() *media.Library { return p.library }

// upstreamKeyNeeded refuses an upstream without its key before anything is opened: every
// read-through would be refused, and the server would look like it had no upstream.
func upstreamKeyNeeded(cfg *config.Config) error {
	if cfg.Upstream != "" && cfg.UpstreamKey == "" {
		return errors.New("--upstream needs --upstream-key (or SPORTSDB_UPSTREAM_KEY, or a file named by SPORTSDB_UPSTREAM_KEY_FILE)")
	}
	return nil
}
