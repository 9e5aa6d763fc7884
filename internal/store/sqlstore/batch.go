package sqlstore

import (
	"fmt"

	"sportsdb/internal/record"
)

// Batch buffers the upserts and replaces of a transaction per kind, so a store writes them
// with a few statements per kind instead of one or two round trips per record. Records of
// the same id merge in the buffer; Rows merges them into the stored records.
type Batch struct {
	pending map[*record.Kind]*kindBatch
	kinds   []*record.Kind // in order of first write, so parents are written first
	n       int
	// held are the records the transaction held (Tx.Hold), by kind and id: a replace of
	// one knows what it replaces.
	held map[*record.Kind]map[string]bool
}

type kindBatch struct {
	byID map[string]*Entry
	ids  []string // in order of first write: the insertion order of new records
}

// Entry is one buffered record.
type Entry struct {
	ID string
	R  record.Record
	// Replace says the stored record does not count.
	Replace bool
	// Known says a replace knows the stored record it replaces: the transaction held it.
	// Its change then has the record's index values before and after, as an upsert's.
	Known bool
}

// KindBatch is the buffered records of one kind, in order of first write.
type KindBatch struct {
	Kind    *record.Kind
	Entries []*Entry
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{pending: map[*record.Kind]*kindBatch{}} }

// Len is the number of buffered records.
func (b *Batch) Len() int { return b.n }

// Add buffers a record: merged into a buffered record of the same id, or replacing it.
func (b *Batch) Add(r record.Record, replace bool) error {
	r, id, err := writable(r)
	if err != nil {
		return err
	}
	kb := b.pending[r.Kind]
	if kb == nil {
		kb = &kindBatch{byID: map[string]*Entry{}}
		b.pending[r.Kind] = kb
		b.kinds = append(b.kinds, r.Kind)
	}
	known := replace && b.held[r.Kind][id]
	switch e := kb.byID[id]; {
	case e == nil:
		kb.byID[id] = &Entry{ID: id, R: r.Clone(), Replace: replace, Known: known}
		kb.ids = append(kb.ids, id)
		b.n++
	case replace:
		e.R, e.Replace, e.Known = r.Clone(), true, known
	default:
		// Merge is associative, so merging into the buffered merge of earlier upserts and
		// the stored record later gives the same record as merging one at a time.
		e.R = record.Merge(e.R, r)
	}
	return nil
}

// Held notes that the transaction holds the record of kind k with that id, stored or not.
func (b *Batch) Held(k *record.Kind, id string) {
	if b.held == nil {
		b.held = map[*record.Kind]map[string]bool{}
	}
	if b.held[k] == nil {
		b.held[k] = map[string]bool{}
	}
	b.held[k][id] = true
}

// Drop forgets the buffered records of a kind (its table is being emptied), and which of
// them were held.
func (b *Batch) Drop(k *record.Kind) {
	delete(b.held, k)
	if kb := b.pending[k]; kb != nil {
		b.n -= len(kb.ids)
		b.pending[k] = &kindBatch{byID: map[string]*Entry{}}
	}
}

// Take returns the buffered records per kind and empties the batch.
func (b *Batch) Take() []KindBatch {
	var out []KindBatch
	for _, k := range b.kinds {
		kb := b.pending[k]
		if len(kb.ids) == 0 {
			continue
		}
		es := make([]*Entry, len(kb.ids))
		for i, id := range kb.ids {
			es[i] = kb.byID[id]
		}
		out = append(out, KindBatch{Kind: k, Entries: es})
	}
	clear(b.pending)
	b.kinds, b.n = b.kinds[:0], 0
	return out
}

// StoredIDs are the ids whose stored records the writes need: those the upserts merge into,
// and those the known replaces replace.
func (kb KindBatch) StoredIDs() []string {
	var ids []string
	for _, e := range kb.Entries {
		if !e.Replace || e.Known {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// Rows merges the entries into their stored docs (id -> doc) and returns the rows to
// write, leaving out records the merge does not change.
func (kb KindBatch) Rows(stored map[string]string) ([]Row, error) {
	rows := make([]Row, 0, len(kb.Entries))
	for _, e := range kb.Entries {
		r := e.R
		old, ok := stored[e.ID]
		var prev record.Record
		if ok && (!e.Replace || e.Known) {
			var err error
			if prev, err = record.DecodeDoc(kb.Kind, []byte(old)); err != nil {
				return nil, fmt.Errorf("%s %q: %w", kb.Kind.Name, e.ID, err)
			}
			if !e.Replace {
				r = record.Merge(prev, r)
			}
		}
		row, err := NewRow(r)
		if err != nil {
			return nil, err
		}
		if ok && row.Doc == old {
			continue
		}
		// An upsert's stored record was read (none stored: there was none), and a known
		// replace's; another replace's not.
		row.Was, row.WasKnown = prev, !e.Replace || e.Known
		rows = append(rows, row)
	}
	return rows, nil
}
