package record

import (
	"errors"
	"strings"
	"testing"
)

// The id fields of the key and the indexed references are checked; other services' ids and
// empty references are not.
func TestCheckIDs(t *testing.T) {
	cases := []struct {
		kind   *Kind
		fields []string
		want   string // "" for no error
	}{
		{Team, []string{"idTeam", "133604", "idLeague", "4328"}, ""},
		{Team, []string{"idTeam", "0"}, ""},
		{Team, []string{"idTeam", "abc"}, `idTeam "abc" is not an id: want digits only`},
		{Team, []string{"idTeam", "-5"}, `idTeam "-5" is not an id: want digits only`},
		{Team, []string{"idTeam", "99999999999999999999999"}, "more than 18 digits"},
		{Team, []string{"idTeam", "007"}, `idTeam "007" is not an id: a leading zero (a lookup reads it as "7")`},
		{Team, []string{"idTeam", "1", "idLeague", "x"}, `idLeague "x" is not an id`},
		{Team, []string{"idTeam", "1", "idLeague", ""}, ""},
		{Team, []string{"idTeam", "1", "idLeague2", "x", "idESPN", "y"}, ""}, // lookups do not follow these
		{Player, []string{"idPlayer", "1", "idTeam", "1x", "idWikidata", "Q1"}, `idTeam "1x"`},
		{Event, []string{"idEvent", "1", "idAwayTeam", " 2"}, `idAwayTeam " 2"`},
		{TV, []string{"id", "1", "idChannel", "c"}, `idChannel "c"`},
		{Contract, []string{"id", "1e3", "idPlayer", "1"}, `id "1e3"`},
		{Season, []string{"idLeague", "4328", "strSeason", "2020-2021"}, ""},
		{Team, []string{"idTeam", strings.Repeat("\xff", 100)}, `"\xff\xff`},
	}
	for _, c := range cases {
		r := c.kind.NewRecord()
		for i := 0; i < len(c.fields); i += 2 {
			r.Set(c.fields[i], Str(c.fields[i+1]))
		}
		err := r.CheckIDs()
		var ie *IDError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.kind.Name, c.fields, err)
		case c.want != "" && (!errors.As(err, &ie) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: error %v, want %q", c.kind.Name, c.fields, err, c.want)
		}
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("a\x1b\xff"); got != `"a\x1b\xff"` {
		t.Errorf("Quote = %s", got)
	}
	long := strings.Repeat("é", 40) // 80 bytes: cut at a rune boundary
	if got, want := Quote(long), `"`+strings.Repeat("é", 32)+`"… (80 bytes)`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}
