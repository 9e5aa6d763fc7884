package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"sportsdb/internal/store"
)

func TestMapErr(t *testing.T) {
	driverBusy := errors.New("driver: busy")
	classify := func(err error) error {
		if errors.Is(err, driverBusy) {
			return store.ErrUnavailable
		}
		return nil
	}
	other := errors.New("driver: syntax error")
	for _, c := range []struct {
		name string
		err  error
		want error // nil: returned as it is
	}{
		{"no rows", sql.ErrNoRows, store.ErrNotFound},
		{"wrapped no rows", fmt.Errorf("scan: %w", sql.ErrNoRows), store.ErrNotFound},
		{"deadline", context.DeadlineExceeded, store.ErrUnavailable},
		{"connection done", sql.ErrConnDone, store.ErrUnavailable},
		{"driver's own", driverBusy, store.ErrUnavailable},
		{"unknown", other, nil},
		{"already mapped", fmt.Errorf("%w: %w", store.ErrNotFound, sql.ErrNoRows), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := MapErr(c.err, classify)
			if !errors.Is(got, c.err) {
				t.Errorf("%v: the driver error is lost", got)
			}
			if c.want == nil {
				if got != c.err {
					t.Errorf("got %v, want it unchanged", got)
				}
				return
			}
			if !errors.Is(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	if MapErr(nil, classify) != nil {
		t.Error("nil mapped to an error")
	}
}
