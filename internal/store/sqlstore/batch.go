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
	switch e := kb.byID[id]; {
	case e == nil:
		kb.byID[id] = &Entry{ID: id, R: r.Clone(), Replace: replace}
		kb.ids = append(kb.ids, id)
		b.n++
	case replace:
		e.R, e.Replace = r.Clone(), true
	default:
		// Merge is associative, so merging into the buffered merge of earlier upserts and
		// the stored record later gives the same record as merging one at a time.
		e.R = record.Merge(e.R, r)
	}
	return nil
}

// Drop forgets the buffered records of a kind (its table is being emptied).
func (b *Batch) Drop(k *record.Kind) {
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

// MergeIDs are the ids whose stored records the upserts merge into.
func (kb KindBatch) MergeIDs() []string {
	var ids []string
	for _, e := range kb.Entries {
		if !e.Replace {
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
		if ok && !e.Replace {
			var err error
			if prev, err = record.DecodeDoc(kb.Kind, []byte(old)); err != nil {
				return nil, fmt.Errorf("%s %q: %w", kb.Kind.Name, e.ID, err)
			}
			r = record.Merge(prev, r)
		}
		row, err := NewRow(r)
		if err != nil {
			return nil, err
		}
		if ok && row.Doc == old {
			continue
		}
		// An upsert's stored record was read (none stored: there was none); a replace's not.
		row.Was, row.WasKnown = prev, !e.Replace
		rows = append(rows, row)
	}
	return rows, nil
}
