package record

import "testing"

// Each row of the rename table names a field its kind has, an older name it no longer has,
// and where that name is read.
func TestRenamesTable(t *testing.T) {
	for k, rs := range renames {
		for _, rn := range rs {
			if !k.Has(rn.Current) || k.Has(rn.Old) || rn.Source == "" {
				t.Errorf("%s: %+v", k.Name, rn)
			}
		}
	}
	if len(Team.Renames()) != 10 {
		t.Errorf("team renames: %d", len(Team.Renames()))
	}
}

// Older names follow the written fields, only for fields the object holds.
func TestAppendOlderNames(t *testing.T) {
	r := Team.NewRecord()
	r.Set("idTeam", Str("1"))
	r.Set("strBadge", Str("b.png"))
	got := string(AppendOlderNames([]byte(`{"idTeam":"1","strBadge":"b.png"}`), r, []string{"idTeam", "strBadge"}))
	if want := `{"idTeam":"1","strBadge":"b.png","strTeamBadge":"b.png"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := string(AppendOlderNames([]byte(`{"idTeam":"1"}`), r, []string{"idTeam"})); got != `{"idTeam":"1"}` {
		t.Errorf("a view without strBadge: %s", got)
	}
}
