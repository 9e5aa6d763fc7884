package sqlstore

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"sportsdb/internal/record"
)

// A change set lives until its transaction commits, which for an import of millions of
// records is long: what it keeps of a record must not keep alive the buffer the record's
// values were cut from (an import keeps each record's values in one string of its text).
func TestChangeSetKeepsNoBufferAlive(t *testing.T) {
	text := strings.Repeat("x", 4096) + "133604" + "arsenal"
	inside := func(s string) bool {
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
		return len(s) > 0 && p >= start && p < start+uintptr(len(text))
	}
	r := record.Team.NewRecord()
	r.Set("idTeam", record.Str(text[4096:4102]))
	r.Set("strTeam", record.Str(text[4102:]))
	row, err := NewRow(r)
	if err != nil {
		t.Fatal(err)
	}
	row.WasKnown = true
	if !inside(row.ID) {
		t.Fatal("the test's row id is not a slice of the text: the test checks nothing")
	}
	c := NewChangeSet()
	c.Wrote(record.Team, []Row{row})
	list := c.List()
	if len(list) != 1 || list[0].ID != "133604" {
		t.Fatalf("changes %+v, want one of 133604", list)
	}
	if inside(list[0].ID) {
		t.Error("the change keeps its id as a slice of the record's text")
	}
	for key, ks := range c.keys {
		if inside(key.id) {
			t.Error("the change's keys are keyed by a slice of the record's text")
		}
		for _, v := range ks.vals {
			if inside(v.Value) {
				t.Errorf("index value %q kept as a slice of the record's text", v.Value)
			}
		}
	}
}

// An import into an empty table keeps nothing per record once past the keyed changes: the
// commit reads the table's records as its changes instead (ChangeSet.Bulk).
func TestChangeSetKeepsNothingPerRecordOfAnEmptyTable(t *testing.T) {
	c := NewChangeSet()
	c.FoundEmpty(record.Team)
	rows := make([]Row, 1000)
	for b := 0; b < 50; b++ {
		for i := range rows {
			r := record.Team.NewRecord()
			r.Set("idTeam", record.Str(fmt.Sprint(b*len(rows)+i+1)))
			row, err := NewRow(r)
			if err != nil {
				t.Fatal(err)
			}
			row.WasKnown = true
			rows[i] = row
		}
		c.Wrote(record.Team, rows)
	}
	if got := c.Bulk(); len(got) != 1 || got[0] != record.Team {
		t.Fatalf("bulk kinds %v, want the team kind", got)
	}
	if n := len(c.List()); n != 0 {
		t.Errorf("the set still lists %d team changes", n)
	}
	if len(c.list) > maxKeyed+len(rows) || len(c.at[record.Team]) != 0 {
		t.Errorf("the set keeps %d changes and %d ids after 50,000 records", len(c.list), len(c.at[record.Team]))
	}

	// A table the transaction emptied itself is not bulk: its earlier records are changes.
	c = NewChangeSet()
	c.Deleted(record.Team, "1", `{"idTeam":"1"}`)
	c.FoundEmpty(record.Team)
	for range 20 {
		c.Wrote(record.Team, rows)
	}
	if len(c.Bulk()) != 0 {
		t.Errorf("a table emptied by DeleteAll went bulk")
	}
}
