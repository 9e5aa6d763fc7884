package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// ChangeTime is how a change's time is stored.
const ChangeTime = store.ChangeTimeLayout

// ChangeSet collects the changes of one transaction: one per record whose stored value
// changed, however often the transaction wrote it, in the order of first change. A record
// that DeleteAll removed and the transaction wrote back unchanged (gen regenerating the same
// dataset) is no change. With each change it keeps the record's index values before and
// after (store.Change.Keys) when the write knew them; past maxKeyed changes it keeps none, as
// so large a write touches most queries of its kinds anyway. An import notes every record it
// writes, so the changes are found per kind, by id: a map of strings hashes several times
// faster than one of structs.
//
// A kind whose table was empty when the transaction first wrote to it (FoundEmpty) holds, at
// the commit, only records the transaction wrote, each of them a change. Once the set is past
// maxKeyed, such a kind goes "bulk": the set forgets its changes and the commit reads them
// from the table instead (Bulk), one per record in the order the records were first stored.
// An import into an empty database then keeps nothing per record until the commit.
type ChangeSet struct {
	seed    maphash.Seed
	list    []PendingChange // in the order of first change; Op "" is no change
	at      map[*record.Kind]map[string]int
	deleted map[*record.Kind]map[string]uint64 // hash of the doc DeleteAll removed
	keys    map[changeKey]*keySet
	blind   bool // past maxKeyed: no change is bounded
	empty   map[*record.Kind]bool
	bulk    []*record.Kind // in the order they went bulk
}

// maxKeyed is how many changes of one transaction keep their index values.
const maxKeyed = 10_000

type changeKey struct {
	kind *record.Kind
	id   string
}

// keySet is what a change's keys are so far: unknown once any write of the record did not
// know its earlier values.
type keySet struct {
	unknown bool
	vals    []store.IndexKey
}

func (ks *keySet) add(col, v string) {
	k := store.IndexKey{Column: col, Value: v}
	if !slices.Contains(ks.vals, k) {
		ks.vals = append(ks.vals, k)
	}
}

// PendingChange is a change before its cursor is known. Keys is its store.Change.Keys as
// EncodeKeys writes them, or "" when the change is not bounded.
type PendingChange struct {
	Kind *record.Kind
	ID   string
	Op   string
	Keys string
}

// NewChangeSet returns an empty set.
func NewChangeSet() *ChangeSet {
	return &ChangeSet{seed: maphash.MakeSeed(), at: map[*record.Kind]map[string]int{},
		deleted: map[*record.Kind]map[string]uint64{}, keys: map[changeKey]*keySet{},
		empty: map[*record.Kind]bool{}}
}

// FoundEmpty notes a kind whose table held no record when the transaction first wrote to it.
// A table the transaction emptied itself (DeleteAll noted its records) does not count: the
// records it held before are changes too.
func (c *ChangeSet) FoundEmpty(k *record.Kind) {
	if _, emptied := c.deleted[k]; !emptied {
		c.empty[k] = true
	}
}

// Bulk returns the kinds whose changes the commit reads from their tables: one upsert per
// record the table holds, in the order of its seq, after the changes of List.
func (c *ChangeSet) Bulk() []*record.Kind { return c.bulk }

func (c *ChangeSet) isBulk(k *record.Kind) bool { return slices.Contains(c.bulk, k) }

// goBulk makes k bulk (see ChangeSet) and forgets what the set kept of its changes.
func (c *ChangeSet) goBulk(k *record.Kind) {
	for i := range c.list {
		if c.list[i].Kind == k {
			c.list[i].Op = ""
		}
	}
	delete(c.at, k)
	delete(c.deleted, k)
	c.bulk = append(c.bulk, k)
}

// Deleted notes a stored record that DeleteAll removes, with its doc.
func (c *ChangeSet) Deleted(k *record.Kind, id, doc string) {
	if ks := c.keySet(changeKey{k, c.noteDelete(k, id, doc)}); ks != nil {
		ks.unknown, ks.vals = true, nil
	}
}

// DeletedOne notes a stored record that Delete removes, with its doc. Its change keeps the
// record's index values: the queries that selected it are the ones that meet them. In a
// bulk kind the record was one the transaction wrote, which the commit no longer finds.
func (c *ChangeSet) DeletedOne(k *record.Kind, id, doc string) {
	if c.isBulk(k) {
		return
	}
	ks := c.keySet(changeKey{k, c.noteDelete(k, id, doc)})
	if ks == nil || ks.unknown {
		return
	}
	vals := IndexValues(record.FromDoc(k, doc))
	for i, ix := range k.Indexed {
		ks.add(ix.Column(), vals[i])
	}
}

// noteDelete notes the delete of a stored record with its doc and returns the id as kept.
func (c *ChangeSet) noteDelete(k *record.Kind, id, doc string) string {
	d := c.deleted[k]
	if d == nil {
		d = map[string]uint64{}
		c.deleted[k] = d
	}
	id = c.set(c.kindAt(k), k, id, store.OpDelete)
	d[id] = maphash.String(c.seed, doc)
	return id
}

// Wrote notes rows written: Batch.Rows returns only records that are new or changed. It
// takes the rows' earlier records (Row.Was), leaving them empty, so that the rows on their
// way to the database do not keep them alive.
func (c *ChangeSet) Wrote(k *record.Kind, rows []Row) {
	if c.blind && c.empty[k] && !c.isBulk(k) {
		c.goBulk(k)
	}
	if c.isBulk(k) {
		for i := range rows {
			rows[i].Was = record.Record{}
		}
		return
	}
	at, deleted := c.kindAt(k), c.deleted[k]
	for i := range rows {
		row := rows[i]
		rows[i].Was = record.Record{}
		if h, ok := deleted[row.ID]; ok {
			delete(deleted, row.ID)
			if h == maphash.String(c.seed, row.Doc) {
				c.set(at, k, row.ID, "") // back as it was: no change
				continue
			}
		}
		id := c.set(at, k, row.ID, store.OpUpsert)
		if !c.blind {
			c.noteKeys(changeKey{k, id}, row)
		}
	}
}

func (c *ChangeSet) kindAt(k *record.Kind) map[string]int {
	at := c.at[k]
	if at == nil {
		at = map[string]int{}
		c.at[k] = at
	}
	return at
}

// set notes a change of op to the record id, and returns the id as the set keeps it: a copy
// of its own, kept until the commit, since a record's values can be slices of a much larger
// buffer (an import's input, a record's text) that would stay alive with it.
func (c *ChangeSet) set(at map[string]int, k *record.Kind, id, op string) string {
	if i, ok := at[id]; ok {
		c.list[i].Op = op
		return c.list[i].ID
	}
	id = strings.Clone(id)
	at[id] = len(c.list)
	c.list = append(c.list, PendingChange{Kind: k, ID: id, Op: op})
	return id
}

// noteKeys adds the row's index values, before and after, to its change's keys: list
// indexes too, which the searches of an item read (the response cache judges a search by
// them).
func (c *ChangeSet) noteKeys(key changeKey, row Row) {
	ks := c.keySet(key)
	if ks == nil || ks.unknown {
		return
	}
	if !row.WasKnown {
		ks.unknown, ks.vals = true, nil
		return
	}
	var was []string
	if row.Was.Kind != nil {
		was = IndexValues(row.Was)
	}
	for i, ix := range key.kind.Indexed {
		ks.add(ix.Column(), strings.Clone(row.Index[i]))
		if was != nil {
			ks.add(ix.Column(), strings.Clone(was[i]))
		}
	}
}

// keySet returns the keys of a change, nil once the set keeps none.
func (c *ChangeSet) keySet(key changeKey) *keySet {
	if c.blind {
		return nil
	}
	ks := c.keys[key]
	if ks == nil {
		if len(c.keys) >= maxKeyed {
			c.blind, c.keys = true, nil
			return nil
		}
		ks = &keySet{}
		c.keys[key] = ks
	}
	return ks
}

// List returns the changes in the order of first change.
func (c *ChangeSet) List() []PendingChange {
	out := make([]PendingChange, 0, len(c.list))
	for _, pc := range c.list {
		if pc.Op == "" {
			continue
		}
		if !c.blind {
			if ks := c.keys[changeKey{pc.Kind, pc.ID}]; ks != nil && !ks.unknown {
				pc.Keys = EncodeKeys(ks.vals)
			}
		}
		out = append(out, pc)
	}
	return out
}

// EncodeKeys writes a change's keys as a JSON array of column and value, alternately; no
// keys is "[]", never "", which stands for a change that is not bounded.
func EncodeKeys(keys []store.IndexKey) string {
	flat := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		flat = append(flat, k.Column, k.Value)
	}
	b, _ := json.Marshal(flat) // strings always encode
	return string(b)
}

// DecodeKeys reads what EncodeKeys wrote; "" is a change that is not bounded.
func DecodeKeys(s string) ([]store.IndexKey, bool, error) {
	if s == "" {
		return nil, false, nil
	}
	var flat []string
	if err := json.Unmarshal([]byte(s), &flat); err != nil || len(flat)%2 != 0 {
		return nil, false, fmt.Errorf("keys %q: not pairs of strings", s)
	}
	keys := make([]store.IndexKey, len(flat)/2)
	for i := range keys {
		keys[i] = store.IndexKey{Column: flat[2*i], Value: flat[2*i+1]}
	}
	return keys, true, nil
}

// BulkChangesSQL appends one upsert per record of a bulk kind's table (see ChangeSet.Bulk),
// in seq order; the table follows, and the arguments are the kind's name, the op and the time.
// With docs, each change keeps the record's doc (see store.DocsTx).
func BulkChangesSQL(d Dialect, k *record.Kind, docs bool) string {
	if docs {
		return `INSERT INTO changes (kind, id, op, time, writer, doc) SELECT ` + d.Param(1) + `, id, ` + Params(d, 2, 3) + `, doc FROM ` + Table(k) + ` ORDER BY seq`
	}
	return `INSERT INTO changes (kind, id, op, time, writer) SELECT ` + d.Param(1) + `, id, ` + Params(d, 2, 3) + ` FROM ` + Table(k) + ` ORDER BY seq`
}

// ChangeDocsSQL gives the upsert changes of n records of one kind that a transaction
// appended after the cursor of the first argument the doc their record has at the commit
// (the kind's name is the second argument, the records' ids the n after it): a record's
// history shows it as each change left it. Changes that already have their doc are those of
// transactions that committed before this one drew its cursors. Each record's changes are
// found through changes_record (kind, id, seq), so a write pays for its own records: with
// the kind and the cursor alone, the planners walked every change of the kind the feed
// keeps (SQLite always; PostgreSQL in a generic plan), some 28,000 rows a score update on
// the small dataset.
func ChangeDocsSQL(d Dialect, k *record.Kind, n int) string {
	return `UPDATE changes SET doc = (SELECT r.doc FROM ` + Table(k) + ` r WHERE r.id = changes.id) WHERE seq > ` + d.Param(1) +
		` AND kind = ` + d.Param(2) + ` AND id IN (` + Params(d, 3, n) + `) AND op = '` + store.OpUpsert + `' AND doc IS NULL`
}

// NullIfEmpty is a text column's argument: NULL for "" (a change without keys, or whose
// writer named none).
func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Feed SQL shared by both backends. seq is the cursor; meta's changes_pruned is the highest
// cursor retention removed, so that a cursor below it is known to be expired even once
// nothing older is kept.
const (
	PrunedSQL     = `SELECT value FROM meta WHERE name = 'changes_pruned'`
	MaxCursorSQL  = `SELECT coalesce(max(seq), 0) FROM changes`
	DeleteDocsSQL = `SELECT id, doc FROM `
)

// PruneCutoffSQL is the highest cursor of the changes older than its argument, or 0: that of
// the newest of them in the time index (changes_time), one step into it. The feed's times
// follow its cursors, so this is the highest cursor among them; where they do not (two
// replicas' clocks), it is a lower one, and the feed keeps a little more. max(seq) under the
// time condition walked the feed backwards by seq down to the newest expired change (SQLite
// always; PostgreSQL in the generic plan a prepared statement comes to). Once a week of
// changes is kept and the oldest expire at every commit, that is the whole feed at every
// commit; guarded by the oldest change's time, it cost nothing only until then.
func PruneCutoffSQL(d Dialect) string {
	return `SELECT coalesce((SELECT seq FROM changes WHERE time < ` + d.Param(1) + ` ORDER BY time DESC, seq DESC LIMIT 1), 0)`
}

// ChangesSQL reads the changes in (since, upto] of some kinds (none: every kind), oldest
// first: since, upto, then the kind names, then the limit are the arguments. The kinds
// filter the rows read in cursor order (the kind joined to an empty string, which no index
// serves), and the read stops at the limit. Through changes_record (kind, id, seq) the
// planners read every change of the kinds the feed keeps, and sorted them, at each read
// however near its cursor was to the latest (SQLite always; PostgreSQL in a generic plan).
func ChangesSQL(d Dialect, kinds int) string {
	var b strings.Builder
	b.WriteString(`SELECT seq, kind, id, op, time, coalesce(keys, ''), coalesce(writer, '') FROM changes WHERE seq > ` + d.Param(1) + ` AND seq <= ` + d.Param(2))
	if kinds > 0 {
		b.WriteString(` AND kind || '' IN (` + Params(d, 3, kinds) + `)`)
	}
	b.WriteString(` ORDER BY seq LIMIT ` + d.Param(3+kinds))
	return b.String()
}

// ChangesArgs are the arguments of ChangesSQL.
func ChangesArgs(since, upto int64, kinds []*record.Kind, limit int) []any {
	args := []any{since, upto}
	for _, k := range kinds {
		args = append(args, k.Name)
	}
	return append(args, limit)
}

// CheckSince says whether a since cursor can be read from, given the highest cursor pruned
// and the latest cursor; FromOldest reads from just after the pruned ones.
func CheckSince(since, pruned, latest int64) (int64, error) {
	switch {
	case since == store.FromOldest:
		return pruned, nil
	case since < 0:
		return 0, fmt.Errorf("cursor %d: %w", since, store.ErrCursorExpired)
	case since < pruned:
		return 0, fmt.Errorf("cursor %d older than the changes kept: %w", since, store.ErrCursorExpired)
	case since > latest:
		return 0, fmt.Errorf("cursor %d was never issued: %w", since, store.ErrCursorExpired)
	}
	return since, nil
}

// NextCursor is what Changes answers as next: the last change of a full page, else upto.
func NextCursor(got []store.Change, limit int, since, upto int64) int64 {
	if len(got) > 0 && len(got) >= limit {
		return got[len(got)-1].Cursor
	}
	return max(upto, since)
}

// ScanChange builds a change from its columns; a kind this build does not know is an error.
func ScanChange(seq int64, kind, id, op, at, keys, by string) (store.Change, error) {
	k, ok := record.ByName(kind)
	if !ok {
		return store.Change{}, fmt.Errorf("change %d: unknown kind %q", seq, kind)
	}
	t, err := time.Parse(ChangeTime, at)
	if err != nil {
		return store.Change{}, fmt.Errorf("change %d: time %q: %w", seq, at, err)
	}
	c := store.Change{Cursor: seq, Kind: k, ID: id, Op: op, Time: t.UTC(), By: by}
	if c.Keys, c.Bounded, err = DecodeKeys(keys); err != nil {
		return store.Change{}, fmt.Errorf("change %d: %w", seq, err)
	}
	return c, nil
}

// CollectChanges reads the rows of ChangesSQL.
func CollectChanges(rows ResultRows) ([]store.Change, error) {
	var out []store.Change
	for rows.Next() {
		var seq int64
		var kind, id, op, at, keys, by string
		if err := rows.Scan(&seq, &kind, &id, &op, &at, &keys, &by); err != nil {
			return nil, err
		}
		c, err := ScanChange(seq, kind, id, op, at, keys, by)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// NoteDeletes reads the rows of DeleteDocsSQL into the change set.
func (c *ChangeSet) NoteDeletes(k *record.Kind, rows ResultRows) error {
	return eachDoc(rows, func(id, doc string) { c.Deleted(k, id, doc) })
}

// ReadChanges reads the change feed (see store.Feed) in q, a read transaction of either
// backend, so that the bounds and the rows are of the same commit.
func ReadChanges(ctx context.Context, q Querier, d Dialect, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	latest, pruned, err := FeedBounds(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	from, err := CheckSince(since, pruned, latest)
	if err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, ChangesSQL(d, len(kinds)), ChangesArgs(from, latest, kinds, limit)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out, err := CollectChanges(rows)
	if err != nil {
		return nil, 0, err
	}
	return out, NextCursor(out, limit, from, latest), nil
}

// FeedBounds reads the latest cursor and the highest pruned one, in one statement.
func FeedBounds(ctx context.Context, q Querier) (latest, pruned int64, err error) {
	rows, err := q.Query(ctx, `SELECT (`+MaxCursorSQL+`), (`+PrunedSQL+`)`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, 0, err
		}
		return 0, 0, fmt.Errorf("change feed bounds: no row")
	}
	if err := rows.Scan(&latest, &pruned); err != nil {
		return 0, 0, err
	}
	return max(latest, pruned), pruned, rows.Err()
}

// NoteDeletesIn tells c which records of kind k DeleteAll is about to remove, read through q,
// the write transaction.
func (c *ChangeSet) NoteDeletesIn(ctx context.Context, q Querier, k *record.Kind) error {
	if c.isBulk(k) {
		return nil // the table holds only records the transaction wrote: no change
	}
	rows, err := q.Query(ctx, DeleteDocsSQL+Table(k))
	if err != nil {
		return err
	}
	defer rows.Close()
	return c.NoteDeletes(k, rows)
}

// HistorySQL reads one record's changes with their docs, newest first: the kind's name and
// the id are the arguments.
func HistorySQL(d Dialect) string {
	return `SELECT seq, kind, id, op, time, coalesce(keys, ''), coalesce(writer, ''), coalesce(doc, '') FROM changes WHERE kind = ` +
		d.Param(1) + ` AND id = ` + d.Param(2) + ` ORDER BY seq DESC`
}

// ReadHistory reads a record's history (see store.History) through q.
func ReadHistory(ctx context.Context, q Querier, d Dialect, k *record.Kind, id string) ([]store.Version, error) {
	rows, err := q.Query(ctx, HistorySQL(d), k.Name, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Version
	for rows.Next() {
		var seq int64
		var kind, cid, op, at, keys, by, doc string
		if err := rows.Scan(&seq, &kind, &cid, &op, &at, &keys, &by, &doc); err != nil {
			return nil, err
		}
		c, err := ScanChange(seq, kind, cid, op, at, keys, by)
		if err != nil {
			return nil, err
		}
		v := store.Version{Change: c, Kept: doc != ""}
		if v.Kept {
			v.Record = record.FromDoc(k, doc)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
