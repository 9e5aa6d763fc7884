package postgres

import "sportsdb/internal/record"

// deferIndexesAfter is how many rows a transaction must write into a table it found empty
// for that table's secondary indexes to be built after the rows rather than kept up while
// they are written. Each written row updates every index of its table, in the rows' order,
// not the indexes'; built once from the stored rows, an index is sorted in one pass. Below
// this many rows (a mirror's page, a day of live scores) the drop and the build would cost
// more than they spare.
//
// SQLite does not do this: its large write cache holds the indexes while they are kept up,
// and deferring them made no difference its import could show beyond noise.
const deferIndexesAfter = 10_000

// deferral follows, for one write transaction, the rows written into each table and the
// tables whose secondary indexes it dropped, with the statements that build them again.
// The unique indexes are never dropped: the writes need them.
type deferral struct {
	empty, dropped map[*record.Kind]bool
	written        map[*record.Kind]int
	builds         []string
}

// newDeferral knows no table yet.
func newDeferral() *deferral {
	return &deferral{empty: map[*record.Kind]bool{}, dropped: map[*record.Kind]bool{}, written: map[*record.Kind]int{}}
}

// FoundEmpty records that the kind's table held no rows when the transaction first wrote to
// it. A table emptied by the transaction itself is not such a table: other readers still
// read its old rows until the commit, and dropping the table's indexes would lock them out.
func (d *deferral) FoundEmpty(k *record.Kind) { d.empty[k] = true }

// Wrote counts n rows written into the kind's table and says whether its secondary indexes
// are to be dropped now, before those rows are written (once per table; see Defer).
func (d *deferral) Wrote(k *record.Kind, n int) bool {
	d.written[k] += n
	if !d.empty[k] || d.dropped[k] || d.written[k] < deferIndexesAfter {
		return false
	}
	d.dropped[k] = true
	return true
}

// Defer keeps the statements that build again the indexes just dropped.
func (d *deferral) Defer(builds ...string) { d.builds = append(d.builds, builds...) }

// Pending is how many index builds Defer kept that Builds has not returned yet.
func (d *deferral) Pending() int { return len(d.builds) }

// Builds returns the statements kept by Defer, once: to be run before the commit.
func (d *deferral) Builds() []string {
	b := d.builds
	d.builds = nil
	return b
}

// Filled returns the kinds into whose tables the transaction wrote at least n rows.
func (d *deferral) Filled(n int) []*record.Kind {
	var ks []*record.Kind
	for k, w := range d.written {
		if w >= n {
			ks = append(ks, k)
		}
	}
	return ks
}
