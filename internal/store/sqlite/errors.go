package sqlite

import (
	"errors"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// mapErr puts the store's sentinel on a driver error, keeping the driver error inside.
func mapErr(err error) error { return sqlstore.MapErr(err, classify) }

// classify names the sentinel of an SQLite result code (sqlstore.MapErr does the rest).
func classify(err error) error {
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
