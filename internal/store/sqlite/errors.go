package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"sportsdb/internal/store"
)

// mapErr puts the store's sentinel on a driver error, keeping the driver error inside.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if s := sentinel(err); s != nil && !errors.Is(err, s) {
		return fmt.Errorf("%w: %w", s, err)
	}
	return err
}

func sentinel(err error) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.ErrNotFound
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, sql.ErrConnDone):
		return store.ErrUnavailable
	}
	var se *msqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return store.ErrConflict
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
		return store.ErrUnavailable
	}
	return nil
}
