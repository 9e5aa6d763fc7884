package record

import (
	"slices"
	"testing"
)

func teamWith(extras ...Extra) Record {
	r := Team.NewRecord()
	r.Set("idTeam", Str("1"))
	r.Set("strTeam", Str("A"))
	r.extras = extras
	return r
}

// A doc keeps the extras after the known fields, null ones included, and reads them back in
// their order.
func TestDocKeepsExtras(t *testing.T) {
	r := teamWith(Extra{"strNew", Str("x/y")}, Extra{"strGone", Null}, Extra{"a", Str("")})
	doc := EncodeDoc(r)
	if want := `{"idTeam":"1","strTeam":"A","strNew":"x\/y","strGone":null,"a":""}`; string(doc) != want {
		t.Errorf("doc %s\nwant %s", doc, want)
	}
	back, err := DecodeDoc(Team, doc)
	if err != nil || !Equal(back, r) {
		t.Fatalf("round trip: %v %v", back.extras, err)
	}
	only := Team.NewRecord()
	only.extras = []Extra{{"x", Str("1")}}
	if got := string(EncodeDoc(only)); got != `{"x":"1"}` {
		t.Errorf("doc of extras alone %s", got)
	}
}

// The full view ends with the extras; other views hold their fields only.
func TestViewsAndExtras(t *testing.T) {
	r := teamWith(Extra{"idNew", Str("5")}, Extra{"strNew", Null})
	full := string(appendView(nil, r, Team.View(FullView), true))
	if want := `"strLocked":null,"idNew":5,"strNew":null}`; full[len(full)-len(want):] != want {
		t.Errorf("full view ends %s, want %s", full[len(full)-len(want):], want)
	}
	if got := string(appendView(nil, r, Team.View("list2"), false)); got[len(got)-len(`"strCountry":null}`):] != `"strCountry":null}` {
		t.Errorf("list2 view %s carries more than its fields", got)
	}
}

// Merge applies the rule of known fields to extras: null never erases, "" fills only null;
// extras the incoming record does not mention are kept, new ones come last.
func TestMergeExtras(t *testing.T) {
	old := teamWith(Extra{"a", Str("1")}, Extra{"b", Null}, Extra{"c", Str("3")}, Extra{"d", Str("4")})
	incoming := teamWith(Extra{"e", Null}, Extra{"a", Null}, Extra{"b", Str("")}, Extra{"c", Str("")}, Extra{"d", Str("5")})
	got := Merge(old, incoming)
	want := []Extra{{"a", Str("1")}, {"b", Str("")}, {"c", Str("3")}, {"d", Str("5")}, {"e", Null}}
	if !slices.Equal(got.extras, want) {
		t.Errorf("merged extras %v, want %v", got.extras, want)
	}
	if old.extras[3].Value.S != "4" {
		t.Error("Merge changed the old record")
	}
	if kept := Merge(old, teamWith()); !slices.Equal(kept.extras, old.extras) || Equal(kept, teamWith()) {
		t.Errorf("a record without extras dropped the stored ones: %v", kept.extras)
	}
	c := old.Clone()
	c.extras[0].Value = Str("changed")
	if old.extras[0].Value.S != "1" {
		t.Error("Clone shares the extras")
	}
}

// Merging a record into its own stored form, or a part of it, gives the stored doc byte for
// byte: a store (and a change feed) tells an unchanged record by comparing docs, with extras
// as with known fields.
func TestMergeOfWhatIsStoredKeepsTheDoc(t *testing.T) {
	r := teamWith(Extra{"strNew", Str("x")}, Extra{"strNull", Null}, Extra{"strEmpty", Str("")})
	r.Set("strCountry", Str(""))
	doc := string(EncodeDoc(r))
	stored, err := DecodeDoc(Team, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	part := teamWith(Extra{"strNull", Null}, Extra{"strNew", Str("")})
	for _, incoming := range []Record{r, stored, part, teamWith()} {
		if got := string(EncodeDoc(Merge(stored, incoming))); got != doc {
			t.Errorf("merging %v gave %s, want %s", incoming.extras, got, doc)
		}
	}
	if got := string(EncodeDoc(Merge(stored, teamWith(Extra{"strNull", Str("now")})))); got == doc {
		t.Error("a change to an extra left the doc as it was")
	}
}

// A season with a field no kind has is still a season (the field becomes an extra); one with
// another kind's field is not.
func TestDetectSeasonWithNewField(t *testing.T) {
	cases := []struct {
		fields []string
		want   *Kind
	}{
		{[]string{"strSeason", "strPoster"}, Season},
		{[]string{"strSeason", "strPoster", "strNewArt"}, Season},
		{[]string{"strSeason", "strEvent"}, nil},
		{[]string{"strSeason", "strTeam", "strNewArt"}, nil},
	}
	for _, c := range cases {
		if got := Detect(c.fields); got != c.want {
			t.Errorf("Detect(%v) = %v, want %v", c.fields, got, c.want)
		}
	}
}
