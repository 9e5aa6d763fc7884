package ingest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// A record whose id no lookup can ask for is refused, with the file and the record named,
// and nothing of the run is kept; so is a reference lookups follow (a player's idTeam).
func TestImportRefusesIDsNoLookupReaches(t *testing.T) {
	good := `{"idTeam":"1","strTeam":"Kept"}`
	cases := []struct {
		name, record, where, reason string
	}{
		{"letters", `{"idTeam":"abc","strTeam":"A"}`, "teams[1]", `idTeam "abc" is not an id: want digits only`},
		{"sign", `{"idTeam":"-5","strTeam":"A"}`, "teams[1]", `idTeam "-5" is not an id`},
		{"number with sign", `{"idTeam":-5,"strTeam":"A"}`, "teams[1]", `idTeam "-5" is not an id`},
		{"too long", `{"idTeam":"99999999999999999999999","strTeam":"A"}`, "teams[1]", "more than 18 digits"},
		{"leading zero", `{"idTeam":"007","strTeam":"A"}`, "teams[1]", `a leading zero (a lookup reads it as "7")`},
		{"space", `{"idTeam":" 5","strTeam":"A"}`, "teams[1]", "want digits only"},
		{"fraction", `{"idTeam":1.5,"strTeam":"A"}`, "teams[1]", `idTeam "1.5" is not an id`},
		{"key named id", `{"id":"x1","idPlayer":"5","strYearStart":"2020"}`, "teams[1]", `id "x1" is not an id`},
		{"parent", `{"idPlayer":"5","idTeam":"abc","strPlayer":"P"}`, "teams[1]", `idTeam "abc" is not an id`},
		{"event's team", `{"idEvent":"5","idHomeTeam":"-1","strEvent":"A vs B"}`, "teams[1]", `idHomeTeam "-1" is not an id`},
		{"season's league from the body", `{"idLeague":"4328x","strSeason":"2020"}`, "teams[1]", `idLeague "4328x" is not an id`},
		{"invalid UTF-8 quoted", "{\"idTeam\":\"1\xff\",\"strTeam\":\"A\"}", "teams[1]", "invalid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := openStore(t)
			path := writeFile(t, t.TempDir(), "teams.json", `{"teams":[`+good+`,`+c.record+`]}`)
			_, err := Import(context.Background(), st, []string{path}, Options{})
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != path || fe.Where != c.where {
				t.Fatalf("error %v, want one at %s %s", err, path, c.where)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q does not say %q", err, c.reason)
			}
			if n, _ := st.Count(context.Background(), record.Team); n != 0 {
				t.Errorf("%d teams kept after the refused run", n)
			}
		})
	}
}

// Ids a lookup reaches are taken, and references left empty are no references.
func TestImportTakesIDsLookupsReach(t *testing.T) {
	st := openStore(t)
	path := writeFile(t, t.TempDir(), "a.ndjson", strings.Join([]string{
		`{"idTeam":"0","strTeam":"Zero"}`,
		`{"idTeam":"999999999999999999","strTeam":"Eighteen digits"}`,
		`{"idTeam":133604,"strTeam":"Number","idLeague":""}`,
		`{"idPlayer":"5","idTeam":null,"strPlayer":"No team"}`,
		`{"idEvent":"7","idHomeTeam":"","idAwayTeam":"133604","idVenue":"0","idAPIfootball":"x-1","strEvent":"A vs B"}`,
		`{"idPlayer":"6","idTeam":"133604","idWikidata":"Q27839155","idGoogle":"/g/11cpprmr81","strPlayer":"Other services' ids"}`,
	}, "\n"))
	mustImport(t, st, []string{path}, Options{})
	for _, id := range []string{"0", "999999999999999999", "133604"} {
		mustGet(t, st, record.Team, id)
	}
	mustGet(t, st, record.Player, "5")
	mustGet(t, st, record.Event, "7")
}

// Import takes exactly the ids a lookup asks for: those api.ParseID gives back unchanged.
func TestIDRuleIsTheLookupRule(t *testing.T) {
	for _, s := range []string{"", "0", "00", "1", "01", "7", "133604", "-5", "+5", " 5", "5 ", "1.5", "1e3",
		"abc", "０", "999999999999999999", "1000000000000000000", "99999999999999999999999", "9223372036854775807"} {
		canonical, ok := api.ParseID(s)
		lookup := ok && canonical == s
		if imported := record.IDProblem(s) == ""; imported != lookup {
			t.Errorf("%q: import takes it %v, a lookup finds it %v", s, imported, lookup)
		}
	}
}
