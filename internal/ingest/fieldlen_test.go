package ingest

import (
	"context"
	"strings"
	"testing"

	"sportsdb/internal/record"
)

// A field longer than 1 MiB is refused with its name, whatever sends it (an import file, a
// mirrored or read-through answer): stored, it would cost its size in every answer holding
// the record. One of exactly 1 MiB is stored.
func TestFieldLengthBound(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	dir := t.TempDir()
	long := strings.Repeat("a", maxField)
	ok := writeFile(t, dir, "ok/teams.json", `{"teams":[{"idTeam":"77","strTeam":"Team","strDescriptionEN":"`+long+`"}]}`)
	mustImport(t, st, []string{ok}, Options{})
	if r := mustGet(t, st, record.Team, "77"); len(r.Str("strDescriptionEN")) != maxField {
		t.Fatalf("a field of exactly 1 MiB was not stored whole")
	}
	bad := writeFile(t, dir, "bad/teams.json", `{"teams":[{"idTeam":"78","strTeam":"Other","strDescriptionEN":"`+long+`b"}]}`)
	_, err := Import(ctx, st, []string{bad}, Options{})
	if err == nil || !strings.Contains(err.Error(), "strDescriptionEN is longer than 1 MiB") {
		t.Fatalf("error %v: want the field named and the bound", err)
	}
	if _, err := st.Get(ctx, record.Team, "78"); err == nil {
		t.Error("the record with the long field was stored")
	}
}
