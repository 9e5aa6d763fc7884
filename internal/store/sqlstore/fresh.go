package sqlstore

import (
	"hash/maphash"

	"sportsdb/internal/record"
)

// Fresh is what a write transaction knows of each kind's table: whether it was empty when
// the transaction first wrote to it (or was emptied since), and then which ids it wrote.
// Such a table's only stored records are the ones the transaction wrote, so a batch need
// not read stored docs for the other ids, and their rows need no conflict handling.
type Fresh struct {
	seed  maphash.Seed
	kinds map[*record.Kind]*freshKind
}

type freshKind struct {
	fresh bool
	// written holds a hash of the id of each record written while fresh. A hash that
	// matches costs a read of the stored doc, never a wrong merge.
	written map[uint64]struct{}
}

// NewFresh knows no kind yet.
func NewFresh() *Fresh {
	return &Fresh{seed: maphash.MakeSeed(), kinds: map[*record.Kind]*freshKind{}}
}

// Known says whether the kind's table was looked at (see Found).
func (f *Fresh) Known(k *record.Kind) bool { return f.kinds[k] != nil }

// Found records whether the kind's table held rows when the transaction first wrote to it.
func (f *Fresh) Found(k *record.Kind, rows bool) {
	fk := &freshKind{fresh: !rows}
	if fk.fresh {
		fk.written = map[uint64]struct{}{}
	}
	f.kinds[k] = fk
}

// Emptied records that DeleteAll emptied the kind's table.
func (f *Fresh) Emptied(k *record.Kind) {
	if f.kinds[k] != nil {
		f.Found(k, false)
	}
}

// MayExist keeps the ids that can have a stored record.
func (f *Fresh) MayExist(k *record.Kind, ids []string) []string {
	fk := f.kinds[k]
	if fk == nil || !fk.fresh {
		return ids
	}
	var out []string
	for _, id := range ids {
		if _, ok := fk.written[maphash.String(f.seed, id)]; ok {
			out = append(out, id)
		}
	}
	return out
}

// New says whether no record of the id can be stored: the table is fresh and the
// transaction did not write the id.
func (f *Fresh) New(k *record.Kind, id string) bool {
	fk := f.kinds[k]
	if fk == nil || !fk.fresh {
		return false
	}
	_, ok := fk.written[maphash.String(f.seed, id)]
	return !ok
}

// Wrote notes the rows written into the kind.
func (f *Fresh) Wrote(k *record.Kind, rows []Row) {
	fk := f.kinds[k]
	if fk == nil || !fk.fresh {
		return
	}
	for _, r := range rows {
		fk.written[maphash.String(f.seed, r.ID)] = struct{}{}
	}
}
