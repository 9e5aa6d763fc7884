package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"sportsdb/internal/store"
)

// MapErr puts the store's sentinel on a driver error, keeping the driver error inside.
// The cases every driver shares are here; classify names the sentinel of the driver's own
// errors (codes, network errors), or returns nil.
func MapErr(err error, classify func(error) error) error {
	if err == nil {
		return nil
	}
	s := sentinel(err)
	if s == nil && classify != nil {
		s = classify(err)
	}
	if s != nil && !errors.Is(err, s) {
		return fmt.Errorf("%w: %w", s, err)
	}
	return err
}

func sentinel(err error) error {
	switch {
	case errors.Is(err, sql.ErrNoRows): // pgx.ErrNoRows is one too
		return store.ErrNotFound
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, sql.ErrConnDone):
		return store.ErrUnavailable
	}
	return nil
}
