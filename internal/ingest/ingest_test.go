package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func writeFile(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustImport(t testing.TB, st store.Records, paths []string, opts Options) Summary {
	t.Helper()
	sum, err := Import(context.Background(), st, paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func mustGet(t *testing.T, st store.Records, k *record.Kind, id string) record.Record {
	t.Helper()
	r, err := st.Get(context.Background(), k, id)
	if err != nil {
		t.Fatalf("get %s %s: %v", k.Name, id, err)
	}
	return r
}

func checkFields(t *testing.T, r record.Record, want map[string]string) {
	t.Helper()
	for f, v := range want {
		if got := r.Get(f); !got.Valid || got.S != v {
			t.Errorf("%s %s = %#v, want %q", r.Kind.Name, f, got, v)
		}
	}
}

// The whole fixture folder imports through its urls.tsv, and each stored record is what
// merging the fixture records of its id in file order gives, read independently with
// encoding/json.
func TestImportFixtures(t *testing.T) {
	st := openStore(t)
	var out bytes.Buffer
	sum := mustImport(t, st, []string{fixtures}, Options{Progress: &out})
	if sum.Files < 59 {
		t.Errorf("read %d files", sum.Files)
	}
	if got := strings.Count(out.String(), "\n"); got != 1 || out.String() != sum.String()+"\n" {
		t.Errorf("progress output %q, want the summary line alone", out.String())
	}
	if len(sum.Unknown) != 0 {
		t.Errorf("unknown fields in fixtures: %v", sum.Unknown)
	}
	if len(sum.Messages) != 4 { // two rejected parameters, an invalid key, No data found
		t.Errorf("messages: %q", sum.Messages)
	}

	want := expectedFromFixtures(t)
	ctx := context.Background()
	for _, k := range record.Kinds {
		n, err := st.Count(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if int(n) != len(want[k]) {
			t.Errorf("%s: %d stored, want %d", k.Name, n, len(want[k]))
		}
		for id, w := range want[k] {
			if got := mustGet(t, st, k, id); !record.Equal(got, w) {
				t.Errorf("%s %s differs from the merged fixtures:\n got %v\nwant %v", k.Name, id, got, w)
			}
		}
	}

	// Context from urls.tsv: seasons of league 4328, highlights of 2026-10-04.
	checkFields(t, mustGet(t, st, record.Season, "4328|1992-1993"), map[string]string{
		"strSeason": "1992-1993", "idLeague": "4328",
		"strBadge": "https://r2.thesportsdb.com/images/media/league/badgearchive/02egea1661959225.png",
	})
	checkFields(t, mustGet(t, st, record.Highlight, "2397358"), map[string]string{"dateEvent": "2026-10-04", "strSport": "Soccer"})
	// v2 search ids are numbers on the wire, text in the store.
	checkFields(t, mustGet(t, st, record.Player, "34145395"), map[string]string{"idTeam": "133610", "strPlayer": "Danny Welbeck"})
	checkFields(t, mustGet(t, st, record.Country, "Andorra"), map[string]string{"code": "AD", "flag_url_32": "https://www.thesportsdb.com/images/icons/flags/shiny/32/Andorra.png"})
	// Keys that do not name their content: results holding events, countries holding leagues.
	checkFields(t, mustGet(t, st, record.Event, "2594454"), map[string]string{"strEvent": "Liverpool vs Tottenham Hotspur"})
	checkFields(t, mustGet(t, st, record.League, "4570"), map[string]string{"strLeague": "EFL Cup"})
	checkFields(t, mustGet(t, st, record.Result, "607"), map[string]string{"strPlayer": "Justin Barcia"})
}

// expectedFromFixtures merges the fixture records per kind and id in import order.
func expectedFromFixtures(t *testing.T) map[*record.Kind]map[string]record.Record {
	t.Helper()
	urls, err := readURLsTSV(filepath.Join(fixtures, "urls.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(fixtures, "*", "*.json"))
	sort.Strings(files)
	out := map[*record.Kind]map[string]record.Record{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(fixtures, strings.TrimSuffix(f, ".json"))
		fills, err := fillsFor(urls[filepath.ToSlash(rel)])
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decodeWithStdlib(t, raw) {
			r := recordOf(t, m, fills)
			id, err := r.ID()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if out[r.Kind] == nil {
				out[r.Kind] = map[string]record.Record{}
			}
			if old, ok := out[r.Kind][id]; ok {
				r = record.Merge(old, r)
			}
			out[r.Kind][id] = r
		}
	}
	return out
}

func recordOf(t *testing.T, m map[string]record.Value, fills []fill) record.Record {
	var names []string
	for f := range m {
		if !record.Computed[f] {
			names = append(names, f)
		}
	}
	k := record.Detect(names)
	if k == nil {
		t.Fatalf("no kind for %v", names)
	}
	r := k.NewRecord()
	for _, f := range names {
		r.Set(f, m[f])
	}
	for _, fl := range fills {
		if fl.kind == k && r.Get(fl.field).Empty() {
			r.Set(fl.field, record.Str(fl.value))
		}
	}
	return r
}

// A summary or partial record never erases what a fuller one set; a fuller one fills in.
func TestMergeRule(t *testing.T) {
	dir := t.TempDir()
	full := writeFile(t, dir, "full.ndjson",
		`{"idTeam":"1","strTeam":"Arsenal","strTeamShort":"ARS","strStadium":"Emirates","strKeywords":"Gunners"}`+"\n")
	summary := writeFile(t, dir, "summary.json",
		`{"search":[{"idTeam":1,"strTeam":"Arsenal FC","strTeamShort":null,"strStadium":""}]}`)

	st := openStore(t)
	mustImport(t, st, []string{full}, Options{})
	mustImport(t, st, []string{summary}, Options{})
	checkFields(t, mustGet(t, st, record.Team, "1"), map[string]string{
		"strTeam": "Arsenal FC", "strTeamShort": "ARS", "strStadium": "Emirates", "strKeywords": "Gunners",
	})

	st = openStore(t)
	mustImport(t, st, []string{summary}, Options{})
	if r := mustGet(t, st, record.Team, "1"); r.Get("strTeamShort").Valid {
		t.Fatalf("strTeamShort = %#v before the full record", r.Get("strTeamShort"))
	}
	mustImport(t, st, []string{full}, Options{})
	checkFields(t, mustGet(t, st, record.Team, "1"), map[string]string{
		"strTeam": "Arsenal", "strTeamShort": "ARS", "strStadium": "Emirates", "strKeywords": "Gunners",
	})
}

// The request of a single file: --url, and the error without it.
func TestSourceURL(t *testing.T) {
	dir := t.TempDir()
	seasons := writeFile(t, dir, "seasons.json", `{"seasons":[{"strSeason":"2020-2021"},{"strSeason":"2021-2022"}]}`)
	v2 := writeFile(t, dir, "v2.json", `{"list":[{"strSeason":"1999","strPoster":null,"strBadge":"b","strDescriptionEN":"d"}]}`)
	highlights := writeFile(t, dir, "hl.json", `{"tvhighlights":[{"idEvent":"9","strEvent":"A vs B","strVideo":"v"}]}`)
	st := openStore(t)

	_, err := Import(context.Background(), st, []string{seasons}, Options{})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != seasons || fe.Where != "seasons[0]" || !strings.Contains(err.Error(), "idLeague is empty") {
		t.Fatalf("without a URL: %v", err)
	}
	mustImport(t, st, []string{seasons}, Options{SourceURL: "https://www.thesportsdb.com/api/v1/json/123/search_all_seasons.php?id=4328"})
	mustImport(t, st, []string{v2}, Options{SourceURL: "/api/v2/json/list/seasons/4335"})
	mustImport(t, st, []string{highlights}, Options{SourceURL: "/api/v1/json/3/eventshighlights.php?d=2026-10-04&s=Soccer"})
	mustGet(t, st, record.Season, "4328|2021-2022")
	checkFields(t, mustGet(t, st, record.Season, "4335|1999"), map[string]string{"strBadge": "b"})
	checkFields(t, mustGet(t, st, record.Highlight, "9"), map[string]string{"dateEvent": "2026-10-04"})

	// A file named alone still finds its request in the urls.tsv of a folder above it.
	mustImport(t, st, []string{filepath.Join(fixtures, "v1-free", "search_all_seasons_badge.json")}, Options{})
	checkFields(t, mustGet(t, st, record.Season, "4328|1993-1994"), map[string]string{"idLeague": "4328"})

	if _, err := Import(context.Background(), st, []string{seasons, v2}, Options{SourceURL: "/x.php"}); err == nil {
		t.Error("a source URL for two files was accepted")
	}
}

// A bad file among good ones: the error names it and the record, and the database is
// exactly as it was.
func TestFailedImportKeepsNothing(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	mustImport(t, st, []string{filepath.Join(fixtures, "v1-free", "lookup_all_players.json")}, Options{})
	before := exportBytes(t, st)
	version, _ := st.DataVersion(ctx)

	dir := t.TempDir()
	writeFile(t, dir, "a/good.json", `{"teams":[{"idTeam":"77","strTeam":"New"}]}`)
	writeFile(t, dir, "b/players.ndjson", `{"idPlayer":"34433685","strPlayer":"Changed"}`+"\n"+`{"idPlayer":"5","strPlayer":1.5e}`+"\n")
	var out bytes.Buffer
	sum, err := Import(ctx, st, []string{fixtures, dir}, Options{Progress: &out})
	var fe *FileError
	if !errors.As(err, &fe) || filepath.Base(fe.Path) != "players.ndjson" || fe.Where != "line 2" {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(err.Error(), "invalid number") {
		t.Errorf("error %q gives no reason", err)
	}
	if sum.Records < 600 || !strings.HasPrefix(out.String(), "import failed, nothing was kept") {
		t.Errorf("summary %+v, output %q", sum, out.String())
	}
	if after := exportBytes(t, st); !equalExports(before, after) {
		t.Error("the failed import changed the database")
	}
	if v, _ := st.DataVersion(ctx); v != version {
		t.Errorf("data version %d, was %d", v, version)
	}
}

func TestMissingPath(t *testing.T) {
	_, err := Import(context.Background(), openStore(t), []string{filepath.Join(t.TempDir(), "nope.json")}, Options{})
	if err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Fatalf("error %v", err)
	}
}

func TestBadURLsTSV(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "urls.tsv", "name\turl\nx\ty\n")
	writeFile(t, dir, "set/x.json", `{"teams":null}`)
	_, err := Import(context.Background(), openStore(t), []string{dir}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no set column") {
		t.Fatalf("error %v", err)
	}
}

func TestSummaryString(t *testing.T) {
	s := Summary{Records: 1234, ByKind: map[string]int{"team": 234, "event": 1000}, Files: 12, Elapsed: 420e6,
		Unknown: map[string]int{"team.strX": 2}, Messages: []string{"m"}}
	want := "imported 1234 records (team 234, event 1000) from 12 files in 0.42s; " +
		"kept fields no kind has (team.strX 2); 1 body held a message instead of records"
	if got := s.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	s = Summary{Exported: true, Records: 1, ByKind: map[string]int{"sport": 1}, Files: 1}
	if got, want := s.String(), "exported 1 record (sport 1) to 1 file in 0.00s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// On a terminal the live line is redrawn at most every redrawEvery, and cleared before the
// summary line.
func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, live: true, verb: "importing", start: time.Now().Add(-time.Second)}
	p.tick(100, 1) // not a multiple of 256: not even a clock read
	if buf.Len() != 0 {
		t.Fatalf("drew %q", buf.String())
	}
	p.tick(512, 2)
	first := buf.String()
	if !strings.HasPrefix(first, "\rimporting 512 records, 2 files, ") || !strings.HasSuffix(first, " records/s\x1b[K") {
		t.Fatalf("live line %q", first)
	}
	p.tick(768, 2) // too soon after the last one
	if buf.String() != first {
		t.Fatalf("redrew within %v: %q", redrawEvery, buf.String())
	}
	p.done("imported 768 records")
	if got := strings.TrimPrefix(buf.String(), first); got != "\r\x1b[Kimported 768 records\n" {
		t.Fatalf("end %q", got)
	}
}

func TestCancelledImportKeepsNothing(t *testing.T) {
	st := openStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Import(ctx, st, []string{fixtures}, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if n, _ := st.Count(context.Background(), record.Team); n != 0 {
		t.Fatalf("%d teams kept", n)
	}
}

// An import's changes name it in the change feed.
func TestImportChangesByImport(t *testing.T) {
	st := openStore(t)
	dir := t.TempDir()
	mustImport(t, st, []string{writeFile(t, dir, "t.json", `{"teams":[{"idTeam":"1","strTeam":"One"},{"idTeam":"2","strTeam":"Two"}]}`)}, Options{})
	got, _, err := st.Changes(context.Background(), store.FromOldest, nil, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("changes %+v, %v", got, err)
	}
	for _, c := range got {
		if c.By != "import" {
			t.Errorf("change %+v: by %q, want import", c, c.By)
		}
	}
}
