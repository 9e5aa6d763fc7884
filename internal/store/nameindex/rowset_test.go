package nameindex

import (
	"slices"
	"testing"
)

// A row set is the rows in increasing order, each once, whichever way it was built.
func TestRowSet(t *testing.T) {
	hits := []int32{9, 3, 700, 3, 64, 9, 0}
	want := rowSet{0, 3, 9, 64, 700}
	for _, n := range []int{1000, 100_000} { // few hits for the kind, then many
		if got := newRowSet(slices.Clone(hits), n); !slices.Equal(got, want) {
			t.Errorf("rows %v of a kind of %d: set %v, want %v", hits, n, got, want)
		}
	}
	if got := (rowSet{0, 3, 9, 64, 700}).and(rowSet{1, 3, 64, 65, 800}); !slices.Equal(got, rowSet{3, 64}) {
		t.Errorf("and: %v, want [3 64]", got)
	}
	if got := (rowSet{0, 3, 9}).or(rowSet{1, 3, 10}); !slices.Equal(got, rowSet{0, 1, 3, 9, 10}) {
		t.Errorf("or: %v, want [0 1 3 9 10]", got)
	}
	if got := (rowSet{}).and(rowSet{1}); len(got) != 0 {
		t.Errorf("and with nothing: %v", got)
	}
}
