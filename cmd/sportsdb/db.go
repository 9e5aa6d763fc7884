package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"sportsdb/internal/auth"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
)

// runWithDB runs a command under the rules of its database use: a command that needs a
// database refuses a missing one instead of creating it empty, and a command that may create
// one removes the SQLite file it created when it fails, so that no run leaves an empty
// database behind (which a later serve would take for real data).
func runWithDB(ctx context.Context, cmd *command, inv *invocation) error {
	if cmd.db == noDB {
		return cmd.run(ctx, inv)
	}
	dsn := inv.cfg.DB
	existed, err := backend.Exists(dsn)
	if err != nil {
		return err
	}
	if !existed && cmd.db == needsDB {
		return fmt.Errorf("database %s does not exist (serve, gen or import create one)", dsn)
	}
	inv.dbExisted = existed
	err = cmd.run(ctx, inv)
	if err != nil && !existed && !inv.keep {
		removeSQLite(dsn)
	}
	return err
}

// removeSQLite removes a SQLite database and the files SQLite keeps beside it.
func removeSQLite(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(os.Stderr, "sportsdb: could not remove %s: %v\n", path+suffix, err)
		}
	}
}

// openDB opens the store and makes sure a new database accepts the published free keys.
func openDB(ctx context.Context, dsn string) (store.Store, error) {
	st, err := backend.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := auth.EnsurePublished(ctx, st); err != nil {
		st.Close()
		return nil, fmt.Errorf("published keys: %w", err)
	}
	return st, nil
}

// hasRecords says whether the database holds any record.
func hasRecords(ctx context.Context, st store.Records) (bool, error) {
	for _, k := range record.Kinds {
		n, err := st.Count(ctx, k)
		if err != nil {
			return false, fmt.Errorf("count %s records: %w", k.Name, err)
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}

// openAs opens the database for a command that needs more of it than store.Store (the
// webhooks, the images), or says why not with missing; the caller closes st.
func openAs[T any](ctx context.Context, inv *invocation, missing string) (st store.Store, v T, err error) {
	if st, err = openDB(ctx, inv.cfg.DB); err != nil {
		return nil, v, err
	}
	v, ok := st.(T)
	if !ok {
		st.Close()
		return nil, v, errors.New(missing)
	}
	return st, v, nil
}
