package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"sportsdb/internal/gen"
	"sportsdb/internal/gen/pictures"
	"sportsdb/internal/ingest"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/postgres"
)

func importCmd(ctx context.Context, inv *invocation) error {
	if inv.cfg.ImportURL != "" && len(inv.args) != 1 {
		return errors.New("import: --url goes with a single file")
	}
	for _, p := range inv.args { // before the database is opened or created
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("import: %w", err)
		}
	}
	// An import keeps little alive (the batches in flight) and allocates a lot: letting the
	// heap grow to five times that, not twice, cuts the collector's share of the CPU to about
	// a third.
	collectLessOften()
	st, err := openDB(ctx, inv.cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetFeedOptions(inv.cfg.FeedOptions())
	// It names the file and record, or what it read when it found no records at all; the
	// summary line said nothing was kept.
	_, err = ingest.Import(ctx, st, inv.args, ingest.Options{SourceURL: inv.cfg.ImportURL, Progress: inv.stderr})
	return err
}

func exportCmd(ctx context.Context, inv *invocation) error {
	st, err := openDB(ctx, inv.cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = ingest.Export(ctx, st, inv.args[0], ingest.Options{Progress: inv.stderr})
	return err // it names the export and the kind
}

func genCmd(ctx context.Context, inv *invocation) error {
	c := inv.cfg
	st, err := openDB(ctx, c.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetFeedOptions(c.FeedOptions())
	if _, err = gen.Generate(ctx, st, gen.Options{Scale: c.Scale, Seed: c.Seed, Now: c.Clock().Now(), Progress: inv.stderr}); err != nil {
		return err
	}
	if c.Scale != "demo" {
		// The larger scales name hundreds of thousands of pictures: drawing them would take
		// far longer than their records (docs/PICTURES.md).
		return nil
	}
	pics, err := demoPictures(ctx, st, c.Clock().Now())
	if pics != nil {
		fmt.Fprintf(inv.stderr, "gen demo seed %d: %s\n", c.Seed, pics)
	}
	return err
}

// demoPictures draws the pictures the demo records in st name and keeps them in st, so a
// client of the demo shows badges, not broken links. It says what it made; nil when st
// keeps no pictures.
func demoPictures(ctx context.Context, st store.Records, now time.Time) (*pictures.Summary, error) {
	im, ok := st.(store.Images)
	if !ok {
		return nil, nil
	}
	sum, err := pictures.Load(ctx, st, im, now)
	if err != nil {
		return nil, fmt.Errorf("demo pictures: %w", err)
	}
	return &sum, nil
}

func migrateCmd(ctx context.Context, inv *invocation) error {
	dsn := inv.cfg.DB
	if backend.IsPostgres(dsn) {
		if err := postgres.Migrate(ctx, dsn); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	} else {
		st, err := openDB(ctx, dsn)
		if err != nil {
			return err
		}
		st.Close()
	}
	fmt.Fprintln(inv.stdout, "database schema is up to date")
	return nil
}
