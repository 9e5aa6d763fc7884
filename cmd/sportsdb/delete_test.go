package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// delete removes the records it names, all of them in one write (an id named twice once); an
// unknown kind or a missing id deletes nothing and says which.
func TestDelete(t *testing.T) {
	dir := t.TempDir()
	teams := `{"idTeam":"1","strTeam":"Arsenal"}` + "\n" + `{"idTeam":"2","strTeam":"Chelsea"}` + "\n" +
		`{"idTeam":"3","strTeam":"Fulham"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "teams.ndjson"), []byte(teams), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, ok := sportsdb(t, dir, nil, "import", "teams.ndjson"); !ok {
		t.Fatalf("import: %s", out)
	}
	// exported lists the ids of the teams an export holds.
	exported := func() string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "export")
		if msg, ok := sportsdb(t, dir, nil, "export", out); !ok {
			t.Fatalf("export: %s", msg)
		}
		b, err := os.ReadFile(filepath.Join(out, "team.ndjson"))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, id := range []string{"1", "2", "3"} {
			if strings.Contains(string(b), `"idTeam":"`+id+`"`) {
				ids = append(ids, id)
			}
		}
		return strings.Join(ids, " ")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"delete", "teams", "1"}, `delete: unknown kind "teams" (want one of sport, country,`},
		{[]string{"delete", "team", "1", "404"}, `delete: no team with id "404"; nothing was deleted`},
		{[]string{"delete", "team"}, "delete: want at least one KIND ID"},
	} {
		if out, ok := sportsdb(t, dir, nil, c.args...); ok || !strings.Contains(out, c.want) {
			t.Errorf("%q: ok %v, output:\n%s\nwant a failure saying %q", c.args, ok, out, c.want)
		}
	}
	if got := exported(); got != "1 2 3" {
		t.Fatalf("after failed deletes the teams are %q, want all three", got)
	}
	if out, ok := sportsdb(t, dir, nil, "delete", "team", "3", "1", "3"); !ok || !strings.Contains(out, "deleted 2 team record(s)") {
		t.Fatalf("delete: ok %v, output:\n%s", ok, out)
	}
	if got := exported(); got != "2" {
		t.Errorf("after delete the teams are %q, want 2", got)
	}
}
