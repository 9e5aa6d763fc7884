package store

import (
	"context"
	"errors"
	"time"
)

// ErrLeaseLost: another holder took the lease of a push, so this one must stop.
var ErrLeaseLost = errors.New("lease lost")

// NoCursor is the cursor of a push that has stored none yet.
const NoCursor int64 = -1

// Pushes is a store that keeps the progress of pushing the change feed out (the MQTT
// publisher): per push, the cursor it delivered up to and a lease, so that of several
// replicas one pushes at a time, another takes over when the holder stops renewing, and a
// restart resumes where the last holder stopped. It is optional: serve type-asserts it.
type Pushes interface {
	// TakePushLease takes or renews the lease of push name for holder until now+ttl, and
	// says true, unless another holder's lease runs past now.
	TakePushLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error)
	// ReleasePushLease ends holder's lease of push name at once (a stopping holder).
	ReleasePushLease(ctx context.Context, name, holder string) error
	// PushCursor is the cursor stored for push name, NoCursor before any.
	PushCursor(ctx context.Context, name string) (int64, error)
	// SavePushCursor stores the cursor of push name while holder holds its lease;
	// ErrLeaseLost when another holder took it.
	SavePushCursor(ctx context.Context, name, holder string, cursor int64) error
}
