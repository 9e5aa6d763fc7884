// Package store defines what sportsdb keeps and how it asks for it. The SQLite and PostgreSQL
// implementations live below it; storetest is the suite both must pass.
package store

import (
	"context"
	"errors"
	"time"

	"sportsdb/internal/record"
)

// Sentinel errors; implementations map driver errors onto them.
var (
	// ErrNotFound: no such record or key.
	ErrNotFound = errors.New("not found")
	// ErrUnavailable: the database cannot be reached or answered too late. The API answers 503.
	ErrUnavailable = errors.New("database unavailable")
	// ErrConflict: the thing to create exists already.
	ErrConflict = errors.New("already exists")
	// ErrBadQuery: the query names a field that is not indexed, or an operator that does not
	// apply. A programming error, reported rather than run.
	ErrBadQuery = errors.New("bad query")
)

// Op is a comparison of a query condition.
type Op int

const (
	// Eq: the indexed column equals Value. On a record.Name index, Value is folded first.
	Eq Op = iota
	// Contains: the folded column contains the folded Value (record.Name indexes only).
	Contains
	// Prefix: the folded column starts with the folded Value (record.Name indexes only).
	Prefix
	// ListHas: the comma list holds the folded Value as one item (record.List indexes only).
	ListHas
	// ListContains: one item of the comma list contains the folded Value (record.List only).
	ListContains
	// Gt, Ge, Lt, Le compare text (dates and timestamps compare correctly as text).
	Gt
	Ge
	Lt
	Le
	// NotEmpty: the column is neither null nor "".
	NotEmpty
)

// Cond is one condition. With Or set, the condition holds when any of Or holds, and Field,
// Norm, Op and Value are ignored. A Value holding NUL matches nothing (PostgreSQL text cannot
// hold one), on every backend.
type Cond struct {
	Field string
	Norm  record.Norm
	Op    Op
	Value string
	Or    []Cond
}

// ByEqualities says whether c is met by equalities alone: an Eq (not on a list, whose Eq
// compares the whole list) or alternatives that all are. A query of such conditions selects
// exactly the records holding those index values.
func (c Cond) ByEqualities() bool {
	if len(c.Or) > 0 {
		for _, alt := range c.Or {
			if !alt.ByEqualities() {
				return false
			}
		}
		return true
	}
	return c.Op == Eq && c.Norm != record.List
}

// Order is one sort key. Numeric sorts the column as an integer.
type Order struct {
	Field   string
	Norm    record.Norm
	Desc    bool
	Numeric bool
}

// Query asks for records of one kind. Every field in Where and OrderBy must be indexed on
// the kind with the given Norm; OrderBy may also name the kind's one key field (its id). Records come in OrderBy order, then in insertion order.
// Limit 0 means no limit.
type Query struct {
	Kind    *record.Kind
	Where   []Cond
	OrderBy []Order
	Limit   int
}

// Names is a NameFinder's answer to a query: the seqs of the records it selects, in the
// query's order, each with its folded value of one name field (none when none was asked
// for), at data version Version.
type Names struct {
	Version int64
	Seqs    []int64
	Values  []string
}

// NameFinder is a store that can answer some name searches with the records' folded names
// instead of the records, so that a caller ranking many matches reads only those it keeps.
// It is optional: a caller falls back to Find when the store has none or it says !ok.
type NameFinder interface {
	// FindNames answers q as Find would, giving each record's seq and its folded value of
	// field (indexed with the Name norm; "": the seq alone) in place of the record; ok is
	// false when it cannot.
	FindNames(ctx context.Context, q Query, field string) (n Names, ok bool, err error)
	// RecordsBySeqs reads the records of k with those seqs, in that order, when the data is
	// still at version; ok is false when it is not, or when a record is missing.
	RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) (recs []record.Record, ok bool, err error)
}

// Records reads and writes sports records.
type Records interface {
	// Find returns the records the query selects; none is not an error.
	Find(ctx context.Context, q Query) ([]record.Record, error)
	// Get returns one record by id, or ErrNotFound.
	Get(ctx context.Context, k *record.Kind, id string) (record.Record, error)
	// Scan calls fn for every record of a kind in insertion order (export).
	Scan(ctx context.Context, k *record.Kind, fn func(record.Record) error) error
	// Count returns how many records of a kind there are.
	Count(ctx context.Context, k *record.Kind) (int64, error)
	// Write runs fn in one transaction: all of it is kept, or nothing when fn or the commit
	// fails. Each successful Write advances DataVersion.
	Write(ctx context.Context, fn func(Tx) error) error
	// DataVersion changes whenever the records change; caches key on it.
	DataVersion(ctx context.Context) (int64, error)
}

// Tx writes records inside Write.
type Tx interface {
	// Upsert stores a record, merged (record.Merge) into a stored record of the same id.
	Upsert(ctx context.Context, r record.Record) error
	// Replace stores a record as it is, replacing a stored record of the same id.
	Replace(ctx context.Context, r record.Record) error
	// DeleteAll removes every record of a kind (used by gen before it regenerates).
	DeleteAll(ctx context.Context, k *record.Kind) error
}

// DeleteTx deletes single records inside Write. Both stores' Tx are one; the records API
// type-asserts it, as the mirror does FrontierTx.
type DeleteTx interface {
	// Delete removes the record of kind k with that id (a write of it earlier in the same
	// transaction included) and everything the store derives from it, and appends a delete
	// to the change feed. With no such record it returns ErrNotFound and changes nothing;
	// the transaction goes on, and is rolled back only if fn returns the error.
	Delete(ctx context.Context, k *record.Kind, id string) error
}

// HoldTx reads a record to change it inside Write: both stores' Tx are one, and the records
// API type-asserts it. What a writer checks (a version, a lock) and what it writes then form
// one step: no other transaction that holds the same record runs between them.
type HoldTx interface {
	DeleteTx
	// Hold returns the record of kind k with that id as the transaction sees it (its own
	// writes included), or ErrNotFound, and keeps every other transaction that holds the
	// same kind and id, present or not, on this replica or another, waiting until this one
	// ends.
	Hold(ctx context.Context, k *record.Kind, id string) (record.Record, error)
}

// ReadTx reads a record inside Write without holding it: what the transaction's other writes
// derive from (an event's team and league names) is read as the transaction sees it, its own
// writes included, without waiting for another writer of it. Both stores' Tx are one.
type ReadTx interface {
	// Read returns the record of kind k with that id, or ErrNotFound.
	Read(ctx context.Context, k *record.Kind, id string) (record.Record, error)
}

// Tier of an API key.
type Tier string

const (
	Free     Tier = "free"
	Premium  Tier = "premium"
	Business Tier = "business"
)

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, bool) {
	switch t := Tier(s); t {
	case Free, Premium, Business:
		return t, true
	}
	return "", false
}

// Role of an API key: what it may write besides reading. A key without one (NoRole) only reads.
type Role string

const (
	NoRole Role = ""
	// Editor writes records that are not locked.
	Editor Role = "editor"
	// Admin also writes locked records, and locks and unlocks them.
	Admin Role = "admin"
)

// ParseRole reads a role name; "" is NoRole.
func ParseRole(s string) (Role, bool) {
	switch r := Role(s); r {
	case NoRole, Editor, Admin:
		return r, true
	}
	return "", false
}

// CanWrite says whether a key of the role may write records.
func (r Role) CanWrite() bool { return r == Editor || r == Admin }

// Key is a stored API key. The key itself is never stored: Hash is its SHA-256 (auth.Hash).
type Key struct {
	Hash    string
	Tier    Tier
	Role    Role
	Label   string
	Created time.Time
	Revoked *time.Time
}

// Keys stores API keys.
type Keys interface {
	// AddKey stores a key; ErrConflict when the hash is stored already.
	AddKey(ctx context.Context, k Key) error
	// KeyByHash returns the key with that hash, revoked or not, or ErrNotFound.
	KeyByHash(ctx context.Context, hash string) (Key, error)
	// ListKeys returns every key, oldest first.
	ListKeys(ctx context.Context) ([]Key, error)
	// RevokeKey marks a key revoked; ErrNotFound when there is no such key.
	RevokeKey(ctx context.Context, hash string, at time.Time) error
}

// Store is a whole database.
type Store interface {
	Records
	Keys
	Feed
	History
	// SetFeedOptions sets the retention and clock of the change feed; call it before use.
	SetFeedOptions(FeedOptions)
	// Ping says whether the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}

// PoolStats is what one of a database's connection pools holds and has waited for, for
// /metrics. A store that keeps pools says so with Pools.
type PoolStats struct {
	Pool    string // "read", "write" or "version" (SQLite only)
	MaxOpen int
	InUse   int
	Idle    int
	// Waits counts the times a query found every connection in use; WaitTime is their sum.
	Waits    int64
	WaitTime time.Duration
}

// Pools is a store whose connection pools can be read.
type Pools interface {
	PoolStats() []PoolStats
}
