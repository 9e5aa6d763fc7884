package postgres

import (
	"slices"
	"testing"

	"sportsdb/internal/record"
)

// Indexes are dropped once per table, only for a table found empty, once it has been sent
// deferIndexesAfter rows; the builds are handed over once.
func TestDeferral(t *testing.T) {
	d := newDeferral()
	d.FoundEmpty(record.Event)
	if d.Wrote(record.Event, deferIndexesAfter-1) {
		t.Error("dropped before the threshold")
	}
	if !d.Wrote(record.Event, 1) {
		t.Error("not dropped at the threshold")
	}
	if d.Wrote(record.Event, deferIndexesAfter) {
		t.Error("dropped twice")
	}
	// Player was not found empty: it had rows, or the transaction emptied it itself.
	if d.Wrote(record.Player, 3*deferIndexesAfter) {
		t.Error("dropped the indexes of a table that held rows")
	}
	d.Defer("CREATE INDEX a ON event (c)", "CREATE INDEX b ON event (d)")
	if d.Pending() != 2 {
		t.Errorf("pending %d", d.Pending())
	}
	if b := d.Builds(); len(b) != 2 || d.Pending() != 0 || d.Builds() != nil {
		t.Errorf("builds %q, then %d pending", b, d.Pending())
	}
	filled := d.Filled(deferIndexesAfter)
	if len(filled) != 2 || !slices.Contains(filled, record.Event) || !slices.Contains(filled, record.Player) {
		t.Errorf("filled: %v", filled)
	}
}
