// Package backend opens the store a DSN names: a postgres:// URL opens PostgreSQL, anything
// else without a scheme is a SQLite file path.
package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sportsdb/internal/store"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
)

// IsPostgres says whether the DSN names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Check refuses a DSN no backend opens: an empty one, or a URL of another scheme
// ("mysql://..."), which would otherwise be taken for a file name.
func Check(dsn string) error {
	if dsn == "" {
		return errors.New("want a SQLite file path or a postgres:// URL")
	}
	if IsPostgres(dsn) {
		return nil
	}
	if scheme, _, ok := strings.Cut(dsn, "://"); ok && !strings.ContainsAny(scheme, `/\`) {
		return fmt.Errorf("unknown database scheme %q: want a SQLite file path or a postgres:// URL", scheme)
	}
	return nil
}

// Exists says whether the database is there already. A PostgreSQL database is taken to
// exist: its server creates databases, this program only its tables.
func Exists(dsn string) (bool, error) {
	if IsPostgres(dsn) {
		return true, nil
	}
	_, err := os.Stat(dsn)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, pathError(dsn, err)
	}
	return true, nil
}

// Open opens (creating and migrating when needed) the store the DSN names.
func Open(ctx context.Context, dsn string) (store.Store, error) {
	if err := Check(dsn); err != nil {
		return nil, err
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, dsn)
	}
	st, err := sqlite.Open(ctx, dsn)
	if err != nil {
		if cause := whyNotWritable(dsn); cause != nil {
			return nil, cause
		}
		return nil, err
	}
	return st, nil
}

// whyNotWritable finds, after SQLite failed, the causes it reports only as "unable to open
// database file": a missing directory, and a file or directory the user may not write
// (SQLite keeps its journal beside the file). nil when it finds none of them.
func whyNotWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return pathError(path, err)
	}
	f.Close()
	probe, err := os.CreateTemp(filepath.Dir(path), ".sportsdb-probe-*")
	if err != nil {
		return fmt.Errorf("%s: %w (SQLite writes its journal beside the database)", filepath.Dir(path), cause(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

func pathError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such directory", filepath.Dir(path))
	}
	return fmt.Errorf("%s: %w", path, cause(err))
}

// cause is the system's reason ("permission denied") without the path it was given.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
