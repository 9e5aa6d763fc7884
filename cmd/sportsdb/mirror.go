package main

import (
	"context"

	"sportsdb/internal/mirror"
)

// mirrorCmd hands a checked configuration over to mirror.Run; everything else lives there.
func mirrorCmd(ctx context.Context, inv *invocation) error {
	c := inv.cfg
	opts := mirror.Options{From: c.Upstream, Key: c.UpstreamKey, Rate: c.UpstreamRate, Redis: c.Redis,
		Leagues: c.MirrorLeagues, Seasons: c.MirrorSeasons, Follow: c.MirrorFollow,
		Media: c.MirrorMedia, MediaRate: c.MediaRate}
	if !c.Now.IsZero() {
		// SPORTSDB_NOW pins what day the mirror starts on; its clock runs on from there.
		opts.Clock = mirror.StartingAt(c.Now)
	}
	logger, _, err := newLogger(inv.stderr, c.LogLevel, c.LogFormat)
	if err != nil {
		return err
	}
	st, err := openDB(ctx, c.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	opts.Store, opts.Logger, opts.Progress = st, logger, inv.stderr
	sum, err := mirror.Run(ctx, opts)
	// A crawl that stored answers is resumable: stopped by Ctrl-C or a failure, its database
	// is what the next run continues from, never removed as an empty one would be.
	if sum.Requests > 0 {
		inv.keep = true
	}
	return err
}
