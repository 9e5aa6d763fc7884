package ingest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// An import that finds no record fails with ErrNoRecords, says what it looked at, and
// leaves the database as it was.
func TestImportOfNoRecords(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	writeFile(t, dir, "nojson/readme.txt", "not read")
	os.MkdirAll(p("bare"), 0o755)
	writeFile(t, dir, "empty.json", "")
	writeFile(t, dir, "blank.ndjson", "\n  \r\n")
	writeFile(t, dir, "list.json", "[]")
	writeFile(t, dir, "null.json", `{"teams":null}`)
	writeFile(t, dir, "message.json", `{"Message":"No data found"}`)
	writeFile(t, dir, "many/a.json", "[]")
	writeFile(t, dir, "many/b.json", "[]")
	writeFile(t, dir, "many/c.json", "[]")
	writeFile(t, dir, "many/d.json", "[]")
	writeFile(t, dir, "many/e.json", "[]")
	writeFile(t, dir, "many/f.json", "[]")
	cases := []struct {
		paths []string
		want  string
	}{
		{[]string{p("nojson")}, p("nojson") + " holds no .json, .ndjson or .jsonl file"},
		{[]string{p("bare"), p("empty.json")}, p("bare") + " holds no .json, .ndjson or .jsonl file; " + p("empty.json") + " is empty"},
		{[]string{p("blank.ndjson")}, p("blank.ndjson") + " is empty"},
		{[]string{p("list.json")}, p("list.json") + " holds no records"},
		{[]string{p("null.json"), p("message.json")}, p("null.json") + " holds no records; " + p("message.json") + " held a message (Message: No data found)"},
		{[]string{p("many")}, p("many/a.json") + " holds no records; " + p("many/b.json") + " holds no records; " + p("many/c.json") +
			" holds no records; " + p("many/d.json") + " holds no records; " + p("many/e.json") + " holds no records; and 1 more file without records"},
	}
	st := openStore(t)
	ctx := context.Background()
	version, _ := st.DataVersion(ctx)
	for _, c := range cases {
		_, err := Import(ctx, st, c.paths, Options{})
		if want := "import: no records found: " + c.want; err == nil || err.Error() != want {
			t.Errorf("%v: error\n%v\nwant\n%s", c.paths, err, want)
		}
		var ne *NoRecordsError
		if !errors.Is(err, ErrNoRecords) || !errors.As(err, &ne) || len(ne.Paths) != len(c.paths) {
			t.Errorf("%v: error %#v is not ErrNoRecords", c.paths, err)
		}
	}
	if v, _ := st.DataVersion(ctx); v != version {
		t.Errorf("data version %d, was %d: a run without records wrote", v, version)
	}
	// One file with records among empty ones is an import.
	good := writeFile(t, dir, "good.json", `[{"idTeam":"1","strTeam":"A"}]`)
	mustImport(t, st, []string{p("list.json"), good, p("bare")}, Options{})
}

// A path that cannot be read is named once, with the cause in plain words.
func TestUnreadablePathNamedOnce(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err := Import(context.Background(), openStore(t), []string{missing}, Options{})
	if want := "import: " + missing + ": no such file or directory"; err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want %s", err, want)
	}
	if os.Geteuid() == 0 {
		return // root reads any file
	}
	locked := writeFile(t, dir, "locked.json", "[]")
	os.Chmod(locked, 0)
	_, err = Import(context.Background(), openStore(t), []string{locked}, Options{})
	if want := "import: " + locked + ": permission denied"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// An export into a folder that cannot be made names it once, with the cause.
func TestExportErrorNamesThePathOnce(t *testing.T) {
	file := writeFile(t, t.TempDir(), "file", "")
	_, err := Export(context.Background(), openStore(t), file, Options{})
	if want := "export: " + file + ": not a directory"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
