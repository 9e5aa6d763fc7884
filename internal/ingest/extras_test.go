package ingest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
)

// Fields sportsdb's field lists do not know, as the public service adds fields over time: a contract's
// strAgent, and a team's fields before and after the known ones.
const withExtras = `{"contracts":[{"id":"9001","idPlayer":"34145395","idTeam":"133604","strSport":"Soccer",` +
	`"strPlayer":"P","strTeam":"Arsenal","strAgent":"https:\/\/x\/b.png","strYearStart":"2020","strYearEnd":"2024","strWage":"","strNote":null}],` +
	`"teams":[{"strNew":"first","idTeam":"133604","strTeam":"Arsenal","idLeague":"4328","strLeague":"English Premier League","intRank":7}]}`

// A record's unknown fields are kept: stored, exported after the known fields in the order
// they came, and imported back; export, import into a new database and export again gives
// the same bytes.
func TestExtrasRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := ingest.WriteFile(t, t.TempDir(), "extras.json", withExtras)
	first := ingest.OpenStore(t)
	if _, err := ingest.Import(ctx, first, []string{src}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	out1 := ingest.ExportBytes(t, first)
	contract := string(out1["contract.ndjson"])
	if want := `"strWage":"","strAgent":"https:\/\/x\/b.png","strNote":null}` + "\n"; !strings.HasSuffix(contract, want) {
		t.Errorf("contract line %q does not end with %q", contract, want)
	}
	if team := string(out1["team.ndjson"]); !strings.HasSuffix(team, `"strLocked":null,"strNew":"first","intRank":"7"}`+"\n") {
		t.Errorf("team line %q does not end with its extras in the order they came", team)
	}

	second := ingest.OpenStore(t)
	dir := t.TempDir()
	for name, b := range out1 {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Import(ctx, second, []string{dir}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	out2 := ingest.ExportBytes(t, second)
	if len(out1) != len(out2) {
		t.Fatalf("second export has %d files, first %d", len(out2), len(out1))
	}
	for name, b := range out1 {
		if !bytes.Equal(b, out2[name]) {
			t.Errorf("%s differs after the round trip:\n%s\n%s", name, b, out2[name])
		}
	}
}

// A later partial record keeps the extras it does not mention, and adds its new ones after
// them; null does not erase a value, as for known fields.
func TestExtrasMerge(t *testing.T) {
	ctx := context.Background()
	st := ingest.OpenStore(t)
	for _, body := range []string{
		withExtras,
		`{"teams":[{"idTeam":"133604","strTeam":"Arsenal FC","strNew":null,"strLater":"l"}]}`,
		`{"teams":[{"idTeam":"133604","strTeamShort":"ARS"}]}`,
	} {
		if _, err := ingest.Import(ctx, st, []string{ingest.WriteFile(t, t.TempDir(), "a.json", body)}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := st.Get(ctx, record.Team, "133604")
	if err != nil {
		t.Fatal(err)
	}
	r, err := stored.Decoded()
	if err != nil {
		t.Fatal(err)
	}
	want := []record.Extra{{Name: "strNew", Value: record.Str("first")}, {Name: "intRank", Value: record.Str("7")}, {Name: "strLater", Value: record.Str("l")}}
	if len(r.Extras()) != len(want) {
		t.Fatalf("extras %v, want %v", r.Extras(), want)
	}
	for i := range want {
		if r.Extras()[i] != want[i] {
			t.Fatalf("extras %v, want %v", r.Extras(), want)
		}
	}
	if r.Str("strTeam") != "Arsenal FC" || r.Str("strTeamShort") != "ARS" {
		t.Errorf("known fields %q %q", r.Str("strTeam"), r.Str("strTeamShort"))
	}
}

// Answers in the full view end with the extras, as the public service would send them;
// narrower views (v1 summaries, v2's own field lists) do not carry them.
func TestExtrasInAnswers(t *testing.T) {
	env := apitest.New(t, apitest.Options{Imports: []apitest.Import{{Path: ingest.WriteFile(t, t.TempDir(), "extras.json", withExtras)}}})
	cases := []struct {
		name string
		res  *apitest.Response
		want string // the end of the first record; "" when the extras must not appear
	}{
		{"v1 contracts", env.V1(t, env.FreeKey, "lookupcontracts.php?id=34145395"),
			`"strWage":"","strAgent":"https:\/\/x\/b.png","strNote":null}`},
		{"v1 team", env.V1(t, env.PremiumKey, "lookupteam.php?id=133604"), `"strLocked":null,"strNew":"first","intRank":"7"}`},
		{"v2 contracts", env.V2(t, "lookup/player_contracts/34145395"), `"strWage":"","strAgent":"https:\/\/x\/b.png","strNote":null}`},
		{"v2 team list", env.V2(t, "list/teams/4328"), ""},
		{"v2 team search", env.V2(t, "search/team/Arsenal"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := string(c.res.Body)
			if c.res.Status != 200 || !strings.Contains(body, "133604") {
				t.Fatalf("status %d, body %s", c.res.Status, body)
			}
			if c.want == "" {
				if strings.Contains(body, "strNew") || strings.Contains(body, "intRank") {
					t.Errorf("a narrowed view carries the extras: %s", body)
				}
				return
			}
			if !strings.Contains(body, c.want+"]") {
				t.Errorf("body %s does not end its record with %s", body, c.want)
			}
		})
	}
}
