package postgres

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// mapErr puts the store's sentinel on a driver error, keeping the driver error inside.
func mapErr(err error) error { return sqlstore.MapErr(err, classify) }

// classify names the sentinel of a PostgreSQL error code or a network failure (sqlstore.MapErr
// does the rest).
func classify(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505": // unique_violation
			return store.ErrConflict
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			strings.HasPrefix(pgErr.Code, "53"),                                 // insufficient resources
			pgErr.Code == "57014",                                               // query canceled (statement timeout)
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // shutdown, cannot connect now
			return store.ErrUnavailable
		}
		return nil
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case pgconn.Timeout(err),
		errors.As(err, &connectErr), errors.As(err, &netErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		// An idle connection whose server went away, found closed when it is used.
		errors.Is(err, pgconn.ErrConnClosed):
		return store.ErrUnavailable
	}
	return nil
}
