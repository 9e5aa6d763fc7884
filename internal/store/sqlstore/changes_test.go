package sqlstore

import (
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
