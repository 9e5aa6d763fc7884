package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// The helpers of the tests of package ingest_test, which run the real server (its package
// apitest imports this one, so those tests cannot live in package ingest).
var (
	OpenStore   = openStore
	WriteFile   = writeFile
	ExportBytes = exportBytes
)

// exportBytes exports st and returns the files by name.
func exportBytes(t *testing.T, st store.Records) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if _, err := Export(context.Background(), st, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	return readDir(t, dir)
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func equalExports(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			return false
		}
	}
	return true
}

// Export, import into a new database, export again: the same bytes.
func TestExportRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	imported := mustImport(t, st, []string{fixtures}, Options{})

	dir1 := t.TempDir()
	var out bytes.Buffer
	sum, err := Export(ctx, st, dir1, Options{Progress: &out})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != sum.String()+"\n" || !strings.HasPrefix(out.String(), "exported ") {
		t.Errorf("output %q", out.String())
	}
	first := readDir(t, dir1)

	var names []string
	for name := range first {
		names = append(names, name)
	}
	sort.Strings(names)
	var want []string
	for _, k := range record.Kinds {
		n, _ := st.Count(ctx, k)
		if n > 0 {
			want = append(want, k.Name+".ndjson")
		}
		if got := bytes.Count(first[k.Name+".ndjson"], []byte{'\n'}); got != int(n) || sum.ByKind[k.Name] != int(n) {
			t.Errorf("%s: %d lines, summary %d, stored %d", k.Name, got, sum.ByKind[k.Name], n)
		}
	}
	sort.Strings(want)
	if strings.Join(names, " ") != strings.Join(want, " ") || sum.Files != len(want) {
		t.Errorf("files %v, want %v", names, want)
	}
	if sum.Records >= imported.Records || sum.Records == 0 {
		// The fixtures repeat ids (the same event in several listings), so fewer come out.
		t.Errorf("exported %d of %d imported records", sum.Records, imported.Records)
	}

	st2 := openStore(t)
	again := mustImport(t, st2, []string{dir1}, Options{})
	if again.Records != sum.Records || len(again.Unknown) != 0 {
		t.Errorf("re-import: %s", again)
	}
	if second := exportBytes(t, st2); !equalExports(first, second) {
		t.Error("the second export differs from the first")
	}
	// A second export of the same database over the first changes nothing.
	if _, err := Export(ctx, st, dir1, Options{}); err != nil {
		t.Fatal(err)
	}
	if !equalExports(first, readDir(t, dir1)) {
		t.Error("exporting again into the same folder changed it")
	}
}

// Each line is the full record: every field in wire order, nulls included.
func TestExportLineIsFullRecord(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "in/sport.ndjson", `{"strSport":"Curling","idSport":"9","strFormat":""}`+"\n")
	st := openStore(t)
	mustImport(t, st, []string{src}, Options{})
	out := filepath.Join(dir, "out")
	writeFile(t, out, "team.ndjson", "stale\n")
	if _, err := Export(context.Background(), st, out, Options{}); err != nil {
		t.Fatal(err)
	}
	files := readDir(t, out)
	want := `{"idSport":"9","strSport":"Curling","strFormat":"","strSportThumb":null,"strSportThumbBW":null,"strSportIconGreen":null,"strSportDescription":null}` + "\n"
	if got := string(files["sport.ndjson"]); got != want {
		t.Errorf("sport.ndjson:\n got %s\nwant %s", got, want)
	}
	if len(files) != 1 {
		t.Errorf("files %v: want sport.ndjson alone (the stale team.ndjson removed, no temporary files)", keys(files))
	}
	info, err := os.Stat(filepath.Join(out, "sport.ndjson"))
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v", info.Mode(), err)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Every kind's full record, as export writes it, imports back as the same kind and values,
// including kinds the fixtures do not hold.
func TestEveryKindRoundTrips(t *testing.T) {
	dir := t.TempDir()
	var want []record.Record
	for _, k := range record.Kinds {
		for n := range 2 {
			r := k.NewRecord()
			for i, f := range k.Fields {
				switch {
				case n == 1 && i%3 == 1 && !isKey(k, f):
					// left null: a partial record must be recognised too
				case strings.HasPrefix(f, "id"):
					r.SetAt(i, record.Str(fmt.Sprint(100+n)))
				default:
					r.SetAt(i, record.Str(fmt.Sprintf("%s %s %d", k.Name, f, n)))
				}
			}
			want = append(want, r)
			line, err := record.AppendView(nil, r, k.View("full"), false)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, fmt.Sprintf("%s-%d.ndjson", k.Name, n), string(line)+"\n")
		}
	}
	st := openStore(t)
	sum := mustImport(t, st, []string{dir}, Options{})
	if sum.Records != len(want) {
		t.Fatalf("imported %d of %d", sum.Records, len(want))
	}
	for _, w := range want {
		id, _ := w.ID()
		got, err := st.Get(context.Background(), w.Kind, id)
		if err != nil {
			t.Errorf("%s %s: %v", w.Kind.Name, id, err)
			continue
		}
		if !record.Equal(got, w) {
			t.Errorf("%s %s:\n got %v\nwant %v", w.Kind.Name, id, got, w)
		}
	}
}

func isKey(k *record.Kind, f string) bool {
	for _, kf := range k.Key {
		if kf == f {
			return true
		}
	}
	return false
}
