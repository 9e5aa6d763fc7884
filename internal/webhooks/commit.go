package webhooks

import (
	"context"

	"sportsdb/internal/store"
)

// The deliveries' writes are committed in groups. Each delivery stores the webhook's state
// and cursor before its worker sends the next, so that a server killed at any moment sends
// again only what was in flight; when every delivery had a transaction of its own, an
// import's thousands of deliveries queued for SQLite's one writer, and most workers' time
// went to waiting there. One committer takes whatever deliveries are waiting and writes
// them in one transaction; while it does, the next group gathers.

// maxGroup bounds the deliveries written in one transaction.
const maxGroup = 256

// commitReq is one delivery waiting for its write; done gets the outcome.
type commitReq struct {
	d    store.Delivery
	done chan error
}

// commits writes the deliveries sent on d.commit until ctx ends.
func (d *Deliverer) commits(ctx context.Context) {
	group := make([]*commitReq, 0, maxGroup)
	ds := make([]store.Delivery, 0, maxGroup)
	for {
		group, ds = group[:0], ds[:0]
		select {
		case <-ctx.Done():
			return
		case r := <-d.commit:
			group = append(group, r)
		}
	gather:
		for len(group) < maxGroup {
			select {
			case r := <-d.commit:
				group = append(group, r)
			default:
				break gather
			}
		}
		for _, r := range group {
			ds = append(ds, r.d)
		}
		errs, err := d.src.DeliveredWebhooks(ctx, d.o.Holder, ds)
		for i, r := range group {
			if err == nil {
				r.done <- errs[i]
			} else {
				r.done <- err
			}
		}
	}
}

// delivered stores a delivery through the committer and waits for its outcome.
func (k *worker) delivered(ctx context.Context, dl store.Delivery) error {
	r := &commitReq{d: dl, done: make(chan error, 1)}
	select {
	case k.d.commit <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		// The write may still land: the next worker starts from whichever cursor did.
		return ctx.Err()
	}
}
