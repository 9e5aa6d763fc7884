package store

import (
	"context"
	"errors"
	"time"

	"sportsdb/internal/record"
)

// ErrCursorExpired: the changes after the cursor are no longer all kept (retention pruned
// some), or the cursor was never issued by this database. The client starts over.
var ErrCursorExpired = errors.New("cursor expired")

// FromOldest, as the since of Changes, starts from the oldest change kept.
const FromOldest int64 = -1

// DefaultRetention is how long changes are kept unless the store is told otherwise.
const DefaultRetention = 7 * 24 * time.Hour

// ChangeTimeLayout is how a change's time is stored and sent: UTC, like record timestamps.
const ChangeTimeLayout = "2006-01-02 15:04:05"

// Change operations.
const (
	OpUpsert = "upsert"
	OpDelete = "delete"
)

// Change is one entry of the change feed: a record whose stored value changed. Cursor is
// strictly increasing in commit order, never reused, and the same on every replica.
type Change struct {
	Cursor int64
	Kind   *record.Kind
	ID     string
	Op     string
	Time   time.Time
	// Keys are the values of the record's indexes (exact, name and list) before and after the
	// change (each distinct value once), when Bounded: a query whose equality conditions
	// none of them meets selected the record neither before nor after. A change that is not
	// Bounded (the write did not know the record's earlier values) may touch any query of
	// its kind.
	Keys    []IndexKey
	Bounded bool
	// By names who wrote the change (ByTx): a key's label, import, mirror; "" when the
	// writer named none.
	By string
}

// ByTx names who writes in a transaction: each change it records carries the name (By).
// Both stores' Tx are one; writers set it through SetBy.
type ByTx interface {
	SetBy(by string)
}

// SetBy names the writer of tx's changes, when its store records who wrote (ByTx).
func SetBy(tx Tx, by string) {
	if b, ok := tx.(ByTx); ok {
		b.SetBy(by)
	}
}

// IndexKey is the value of a record in one index column (record.Index.Column and
// IndexValue).
type IndexKey struct {
	Column string
	Value  string
}

// Feed reads the change feed every Write appends to.
type Feed interface {
	// Changes returns up to limit changes with a cursor above since (FromOldest: from the
	// oldest kept), oldest first, of the given kinds (none: every kind), and the cursor to
	// ask from next: the last change returned, or, when fewer than limit came, the latest
	// cursor the read covered. ErrCursorExpired when since is older than the oldest change
	// kept, or newer than any issued.
	Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]Change, int64, error)
	// LatestCursor is the cursor of the last committed change (0 before the first).
	LatestCursor(ctx context.Context) (int64, error)
}

// DocsTx is a transaction that keeps, with each change it records, the record as the
// change left it, for History. Both stores' Tx are one. The records API's writes keep them;
// imports, the mirror and gen do not: a copy of each record they load would make the
// database half as large again while the feed keeps it.
type DocsTx interface {
	KeepDocs()
}

// KeepDocs makes tx keep the records with its changes, when its store can (DocsTx).
func KeepDocs(tx Tx) {
	if d, ok := tx.(DocsTx); ok {
		d.KeepDocs()
	}
}

// Version is one change of a record's history: the change, and the record as it left it
// (Kept false for a delete, and for a change made before the store kept records with its
// changes).
type Version struct {
	Change
	Record record.Record
	Kept   bool
}

// History reads a record's changes, with the record as each left it, for as long as the
// feed keeps them (part of Store).
type History interface {
	// History returns the kept changes of the record of kind k with that id, newest first;
	// none is not an error.
	History(ctx context.Context, k *record.Kind, id string) ([]Version, error)
}

// FeedOptions say how a store keeps its change feed.
type FeedOptions struct {
	// Retention is how long changes are kept (DefaultRetention when 0). Older ones are
	// pruned by the next Write that records changes.
	Retention time.Duration
	// Now dates the changes (time.Now in UTC when nil); SPORTSDB_NOW pins it.
	Now func() time.Time
}

// WithDefaults fills in the zero fields.
func (o FeedOptions) WithDefaults() FeedOptions {
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.Now == nil {
		o.Now = func() time.Time { return time.Now().UTC() }
	}
	return o
}
