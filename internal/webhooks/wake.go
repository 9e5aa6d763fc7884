package webhooks

import (
	"context"
	"time"
)

// next waits for the next round: the Poll tick or, sooner, a commit after latest, the
// cursor the last round saw (the data version moved, and the latest cursor with it: the
// webhooks' own writes move the version too on some stores). commits is nil while no
// webhook is active. It says false when ctx ends.
func (d *Deliverer) next(ctx context.Context, tick, commits <-chan time.Time, latest int64, version *int64) bool {
	for {
		select {
		case <-ctx.Done():
			return false
		case <-tick:
			return true
		case <-commits:
			v, err := d.src.DataVersion(ctx)
			if err != nil || v == *version {
				continue
			}
			*version = v
			if l, err := d.src.LatestCursor(ctx); err == nil && l > latest {
				return true
			}
		}
	}
}
