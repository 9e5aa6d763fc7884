package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Tx is the write transaction of both backends (store.Tx, store.FrontierTx): it buffers
// upserts and replaces (Buffer), writes them in batches on a goroutine of their own (Pipe),
// follows what it changed for the change feed (ChangeSet) and removes records. A backend
// begins and commits the database transaction and adds what truly differs (TxBackend).
// Every statement of Tx waits for the queued writes first (Pipe.Sync), so that it runs as
// if in the order the transaction issued it.
type Tx struct {
	*Buffer
	Pipe  Pipe
	Fresh *Fresh
	// Changes are the records this transaction changed, for the change feed.
	Changes *ChangeSet
	// Written counts the rows written per kind (for a backend's Finish).
	Written map[*record.Kind]int
	// by names the writer of the changes (store.ByTx); "" none.
	by string
	// keepDocs keeps with each change the record as it left it (store.DocsTx).
	keepDocs bool

	c TxConfig
}

// TxBackend is what a backend adds to the shared transaction.
type TxBackend interface {
	// StoredDocs reads the stored docs of ids (some) of a kind's table into docs (see
	// ReadDocs), once the queued writes are done.
	StoredDocs(ctx context.Context, k *record.Kind, ids []string, docs map[string]string) error
	// Send queues the writing of rows, which Batch.Rows returned, on Tx.Pipe (a bulk load or
	// an insert), and notes them in Tx.Fresh.
	Send(ctx context.Context, k *record.Kind, rows []Row) error
	// FoundEmpty notes a table that held no rows when the transaction first wrote to it.
	FoundEmpty(k *record.Kind)
	// Finish runs once every row is written, before the changes are recorded: index
	// builds, planner statistics.
	Finish(ctx context.Context) error
	// InsertChanges appends changes to the feed in their order, with cursors drawn in commit
	// order, before the bulk changes of the commit (see ChangeSet.Bulk); list may be empty.
	InsertChanges(ctx context.Context, list []PendingChange, at, by string) error
}

// TxConfig describes a backend's transaction to NewTx.
type TxConfig struct {
	// Name starts the error messages: "sqlite", "postgres".
	Name    string
	Dialect Dialect
	// Q runs statements in the database transaction.
	Q Querier
	// Classify names the store sentinel a driver error stands for (see MapErr).
	Classify func(error) error
	// BatchSize records are buffered before they are written.
	BatchSize int
	Backend   TxBackend
}

// NewTx starts the shared part of a write transaction.
func NewTx(c TxConfig) *Tx {
	t := &Tx{Fresh: NewFresh(), Changes: NewChangeSet(), Written: map[*record.Kind]int{}, c: c}
	t.Buffer = NewBuffer(c.Name, c.BatchSize, t.flush)
	return t
}

// End ends the transaction's use: later writes are errors, queued ones are dropped. The
// backend calls it before its rollback.
func (t *Tx) End() {
	t.Buffer.Close()
	t.Pipe.Stop()
}

// SetBy names the writer of the transaction's changes (store.ByTx).
func (t *Tx) SetBy(by string) { t.by = by }

// KeepDocs keeps with each change the record as it left it (store.DocsTx).
func (t *Tx) KeepDocs() { t.keepDocs = true }

func (t *Tx) mapErr(err error) error { return MapErr(err, t.c.Classify) }

// exec runs a statement after the queued writes.
func (t *Tx) exec(ctx context.Context, query string, args ...any) error {
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	_, err := t.c.Q.Exec(ctx, query, args...)
	return t.mapErr(err)
}

// Commit writes what is buffered, finishes the tables, records the changes and advances
// the data version: all that is left is the backend's commit.
func (t *Tx) Commit(ctx context.Context, feed store.FeedOptions) error {
	err := t.flush(ctx)
	if err == nil {
		err = t.Pipe.Sync()
	}
	if err == nil {
		err = t.c.Backend.Finish(ctx)
	}
	if err == nil {
		err = t.recordChanges(ctx, feed)
	}
	if err == nil {
		if err = t.exec(ctx, `UPDATE meta SET value = value + 1 WHERE name = 'data_version'`); err != nil {
			err = fmt.Errorf("data version: %w", err)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: write: %w", t.c.Name, err)
	}
	return nil
}

// flush writes every buffered record: per kind, one read of the stored docs (none in a
// table the transaction found empty, for ids it did not write), then the rows.
func (t *Tx) flush(ctx context.Context) error {
	for _, kb := range t.Batch.Take() {
		if err := t.look(ctx, kb.Kind); err != nil {
			return err
		}
		stored, err := t.storedDocs(ctx, kb.Kind, t.Fresh.MayExist(kb.Kind, kb.StoredIDs()))
		if err != nil {
			return err
		}
		rows, err := kb.Rows(stored)
		if err != nil {
			return err
		}
		t.Changes.Wrote(kb.Kind, rows)
		if len(rows) == 0 {
			continue
		}
		t.Written[kb.Kind] += len(rows)
		if err := t.c.Backend.Send(ctx, kb.Kind, rows); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) storedDocs(ctx context.Context, k *record.Kind, ids []string) (map[string]string, error) {
	stored := map[string]string{}
	if len(ids) == 0 {
		return stored, nil
	}
	if err := t.Pipe.Sync(); err != nil {
		return nil, err
	}
	if err := t.c.Backend.StoredDocs(ctx, k, ids, stored); err != nil {
		return nil, fmt.Errorf("read stored %s: %w", k.Name, t.mapErr(err))
	}
	return stored, nil
}

// ReadDocs reads rows of id and doc into docs.
func ReadDocs(rows ResultRows, docs map[string]string) error {
	return eachDoc(rows, func(id, doc string) { docs[id] = doc })
}

// eachDoc calls fn with each row's id and doc.
func eachDoc(rows ResultRows, fn func(id, doc string)) error {
	for rows.Next() {
		var id, doc string
		if err := rows.Scan(&id, &doc); err != nil {
			return err
		}
		fn(id, doc)
	}
	return rows.Err()
}

// look looks at the kind's table the first time the transaction writes to it.
func (t *Tx) look(ctx context.Context, k *record.Kind) error {
	if t.Fresh.Known(k) {
		return nil
	}
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	var found int64
	if err := queryRow(ctx, t.c.Q, `SELECT CASE WHEN EXISTS (SELECT 1 FROM `+Table(k)+`) THEN 1 ELSE 0 END`, nil, &found); err != nil {
		return fmt.Errorf("is %s empty: %w", k.Name, t.mapErr(err))
	}
	t.Fresh.Found(k, found != 0)
	if found == 0 {
		t.Changes.FoundEmpty(k)
		t.c.Backend.FoundEmpty(k)
	}
	return nil
}

// DeleteAll removes every record of a kind, buffered ones included; each stored record is a
// delete in the change feed, unless the transaction writes it back as it was.
func (t *Tx) DeleteAll(ctx context.Context, k *record.Kind) error {
	if k == nil {
		return fmt.Errorf("%s: delete all: %w: no kind", t.c.Name, store.ErrBadQuery)
	}
	t.Batch.Drop(k)
	if err := t.deleteAll(ctx, k); err != nil {
		return fmt.Errorf("%s: delete all %s: %w", t.c.Name, k.Name, err)
	}
	t.Fresh.Emptied(k)
	return nil
}

func (t *Tx) deleteAll(ctx context.Context, k *record.Kind) error {
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	if err := t.Changes.NoteDeletesIn(ctx, t.c.Q, k); err != nil {
		return t.mapErr(err)
	}
	return t.exec(ctx, `DELETE FROM `+Table(k))
}

// Delete removes the record of kind k with that id, a write of it earlier in the
// transaction included, and what the store derives from it (index rows, trigram rows; the
// name index follows the data version). The change feed gets a delete, in commit order
// like every change, whose keys are the record's index values. With no such record, Delete
// returns store.ErrNotFound and changes nothing: the transaction goes on, and is rolled back
// only if fn returns the error.
func (t *Tx) Delete(ctx context.Context, k *record.Kind, id string) error {
	if k == nil {
		return fmt.Errorf("%s: delete: %w: no kind", t.c.Name, store.ErrBadQuery)
	}
	if err := t.delete(ctx, k, id); err != nil {
		return fmt.Errorf("%s: delete %s %q: %w", t.c.Name, k.Name, id, err)
	}
	return nil
}

// delete removes the record in one statement that answers its doc for the change feed: a
// record the transaction held (store.HoldTx) is not read again to be deleted.
func (t *Tx) delete(ctx context.Context, k *record.Kind, id string) error {
	// The buffered writes go first: the record may be among them.
	if err := t.flush(ctx); err != nil {
		return err
	}
	if err := t.Pipe.Sync(); err != nil {
		return err
	}
	var doc string
	err := queryRow(ctx, t.c.Q, `DELETE FROM `+Table(k)+` WHERE id = `+t.c.Dialect.Param(1)+` RETURNING doc`, []any{id}, &doc)
	if errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err != nil {
		return t.mapErr(err)
	}
	t.Changes.DeletedOne(k, id, doc)
	return nil
}

// Hold returns the record of kind k with that id as the transaction sees it, or
// store.ErrNotFound, once it holds the record's lock (Dialect.Hold) until it ends.
func (t *Tx) Hold(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	return t.read(ctx, "hold", k, id, true)
}

// Read returns a record as the transaction sees it, without holding it (store.ReadTx).
func (t *Tx) Read(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	return t.read(ctx, "read", k, id, false)
}

// read is Hold when hold, else Read; op names it in errors.
func (t *Tx) read(ctx context.Context, op string, k *record.Kind, id string, hold bool) (record.Record, error) {
	if k == nil {
		return record.Record{}, fmt.Errorf("%s: %s: %w: no kind", t.c.Name, op, store.ErrBadQuery)
	}
	var err error
	if hold && t.c.Dialect.Hold != "" {
		err = t.exec(ctx, t.c.Dialect.Hold, k.Name+"/"+id)
	}
	var doc string
	if err == nil {
		doc, err = t.storedDoc(ctx, k, id)
	}
	if hold && (err == nil || errors.Is(err, store.ErrNotFound)) {
		// Held, the record cannot change under the transaction: a replace of it knows
		// what it replaces.
		t.Batch.Held(k, id)
	}
	if err != nil {
		return record.Record{}, fmt.Errorf("%s: %s %s %q: %w", t.c.Name, op, k.Name, id, err)
	}
	return record.FromDoc(k, doc), nil
}

// storedDoc reads the doc of the record of kind k with that id as the transaction sees it:
// store.ErrNotFound when there is none.
func (t *Tx) storedDoc(ctx context.Context, k *record.Kind, id string) (string, error) {
	// The buffered writes go first: the record may be among them.
	if err := t.flush(ctx); err != nil {
		return "", err
	}
	if err := t.Pipe.Sync(); err != nil {
		return "", err
	}
	var doc string
	err := queryRow(ctx, t.c.Q, `SELECT doc FROM `+Table(k)+` WHERE id = `+t.c.Dialect.Param(1), []any{id}, &doc)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		err = t.mapErr(err)
	}
	return doc, err
}

// FrontierAdd queues entries whose URL is not in the frontier yet (store.FrontierTx).
func (t *Tx) FrontierAdd(ctx context.Context, entries []store.FrontierEntry) error {
	for _, e := range entries {
		if err := t.frontierExec(ctx, FrontierFor(t.c.Dialect).Add, e); err != nil {
			return err
		}
	}
	return nil
}

// FrontierSet stores an entry's outcome (store.FrontierTx).
func (t *Tx) FrontierSet(ctx context.Context, e store.FrontierEntry) error {
	return t.frontierExec(ctx, FrontierFor(t.c.Dialect).Set, e)
}

func (t *Tx) frontierExec(ctx context.Context, query string, e store.FrontierEntry) error {
	if err := t.exec(ctx, query, FrontierArgs(e)...); err != nil {
		return fmt.Errorf("%s: frontier %s: %w", t.c.Name, e.URL, err)
	}
	return nil
}

// recordChanges appends the transaction's changes to the feed and prunes what retention no
// longer keeps.
func (t *Tx) recordChanges(ctx context.Context, o store.FeedOptions) error {
	list, bulk := t.Changes.List(), t.Changes.Bulk()
	if len(list) == 0 && len(bulk) == 0 {
		return nil
	}
	now := o.Now().UTC()
	at := now.Format(ChangeTime)
	var before int64
	if t.keepDocs {
		if err := queryRow(ctx, t.c.Q, MaxCursorSQL, nil, &before); err != nil {
			return fmt.Errorf("record changes: %w", t.mapErr(err))
		}
	}
	if err := t.c.Backend.InsertChanges(ctx, list, at, t.by); err != nil {
		return fmt.Errorf("record changes: %w", err)
	}
	if t.keepDocs {
		if err := t.changeDocs(ctx, list, before); err != nil {
			return fmt.Errorf("record changes: %w", err)
		}
	}
	for _, k := range bulk {
		if err := t.exec(ctx, BulkChangesSQL(t.c.Dialect, k, t.keepDocs), k.Name, store.OpUpsert, at, NullIfEmpty(t.by)); err != nil {
			return fmt.Errorf("record changes of %s: %w", k.Name, err)
		}
	}
	if err := t.prune(ctx, now.Add(-o.Retention).Format(ChangeTime)); err != nil {
		return fmt.Errorf("prune changes: %w", err)
	}
	return nil
}

// changeDocsIDs is the most ids one ChangeDocsSQL names. A statement names a power of two of
// them (the last repeated), so that the writer keeps few statements of it prepared.
const changeDocsIDs = 512

// changeDocs keeps with each upsert of list, appended after the cursor before, its record's
// doc (see ChangeDocsSQL), in a statement per kind and up to changeDocsIDs records.
func (t *Tx) changeDocs(ctx context.Context, list []PendingChange, before int64) error {
	var kinds []*record.Kind
	ids := map[*record.Kind][]string{}
	for _, c := range list {
		if c.Op != store.OpUpsert {
			continue
		}
		if _, ok := ids[c.Kind]; !ok {
			kinds = append(kinds, c.Kind)
		}
		ids[c.Kind] = append(ids[c.Kind], c.ID)
	}
	for _, k := range kinds {
		for chunk := range slices.Chunk(ids[k], changeDocsIDs) {
			n := 1
			for n < len(chunk) {
				n *= 2
			}
			args := make([]any, 0, 2+n)
			args = append(args, before, k.Name)
			for i := range n {
				args = append(args, chunk[min(i, len(chunk)-1)])
			}
			if err := t.exec(ctx, ChangeDocsSQL(t.c.Dialect, k, n), args...); err != nil {
				return fmt.Errorf("docs of %s: %w", k.Name, err)
			}
		}
	}
	return nil
}

// prune removes the changes older than cutoff and remembers the highest cursor removed.
func (t *Tx) prune(ctx context.Context, cutoff string) error {
	p := t.c.Dialect.Param
	var upto int64
	if err := queryRow(ctx, t.c.Q, PruneCutoffSQL(t.c.Dialect), []any{cutoff}, &upto); err != nil {
		return t.mapErr(err)
	}
	if upto == 0 {
		return nil
	}
	if err := t.exec(ctx, `DELETE FROM changes WHERE seq <= `+p(1), upto); err != nil {
		return err
	}
	return t.exec(ctx, `UPDATE meta SET value = `+p(1)+` WHERE name = 'changes_pruned' AND value < `+p(2), upto, upto)
}
