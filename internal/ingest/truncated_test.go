package ingest

import (
	"context"
	"strings"
	"testing"
)

// A line cut short in NDJSON (an interrupted write) is called truncated, wherever it is cut,
// not a complaint about the line after it; a whole line with a bad value is not.
func TestTruncatedLine(t *testing.T) {
	st := openStore(t)
	next := `{"idTeam":"3","strTeam":"Arsenal"}` + "\n"
	for _, c := range []struct{ body, want string }{
		{`{"idTeam":"2","strTeam":"Chel` + "\n" + next, "line 1: the line is truncated"},
		{`{"idTeam":"2","strTeam":` + "\n" + next, "line 1: the line is truncated"},
		{next + `{"idTeam":"2","strTeam":"x",` + "\n" + next, "line 2: the line is truncated"},
		{`{"idTeam":"2","strTeam":{"a":1}}` + "\n", "field strTeam holds an object"},
	} {
		path := writeFile(t, t.TempDir(), "t.ndjson", c.body)
		_, err := Import(context.Background(), st, []string{path}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
	}
}
