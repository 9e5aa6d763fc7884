package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"sportsdb/internal/record"
)

// readChunked reads an NDJSON body with chunks of about chunk bytes; below a chunk of 4 KiB,
// the line-by-line reader that takes over from a line the parsers leave reads 64 bytes at a
// time as well.
func readChunked(t *testing.T, body string, chunk int) ([]record.Record, Summary, error) {
	t.Helper()
	sum := newSummary()
	imp := newImporter(&sum, newProgress(nil, ""))
	imp.chunk = chunk
	if chunk < 4096 {
		imp.r.buf = make([]byte, 64)
	}
	tx := &collectTx{}
	err := imp.read(context.Background(), tx, "a.ndjson", strings.NewReader(body), "")
	for uf, n := range imp.b.unknown {
		sum.Unknown[uf.kind.Name+"."+uf.field] += n
	}
	return tx.recs, sum, err
}

// ndjsonTeams is n team lines; ids repeat, so that later lines merge into earlier ones.
func ndjsonTeams(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"idTeam":"%d","strTeam":"Team %d","intFormedYear":%d,"strCountry":null,"strStadium":"Ground \u00e9 %d"}`,
			i%97, i, 1850+i%170, i)
	}
	return lines
}

// Parsed on several goroutines, the records of an NDJSON file still reach the store one by
// one in file order, whatever the size of the chunks, with a BOM, CRLF line ends, blank
// lines and a record over two lines among them.
func TestNDJSONChunksKeepFileOrder(t *testing.T) {
	lines := ndjsonTeams(3000)
	lines[1200] = "  " + strings.Replace(lines[1200], `,"strTeam"`, ",\n \"strTeam\"", 1)
	lines[1500] = lines[1500] + "\r"
	lines[2000] = "\t"
	for i := 0; i < len(lines); i += 10 {
		lines[i] = strings.Replace(lines[i], `"idTeam"`, `"strUnknown":"x","idTeam"`, 1)
	}
	body := "\xef\xbb\xbf" + strings.Join(lines, "\n") + "\n"
	var want []record.Record
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("test line %q: %v", l, err)
		}
		_, extra := m["strUnknown"]
		delete(m, "strUnknown")
		vals := map[string]record.Value{}
		for k, v := range m {
			switch v := v.(type) {
			case nil:
				vals[k] = record.Null
			case string:
				vals[k] = record.Str(v)
			case json.Number:
				vals[k] = record.Str(v.String())
			}
		}
		r := recordOf(t, vals, nil)
		if extra {
			r.SetExtra("strUnknown", record.Str("x"))
		}
		want = append(want, r)
	}
	// Well-formed lines are the parsers' alone: they leave none to the line-by-line reader.
	c := &lineChunk{data: []byte(strings.Join(lines[:1200], "\n")), line: 1, unknown: map[unknownField]int{}}
	(&lineParser{obj: newObjectParser(), b: newBuilder()}).parse(c, nil)
	if c.rest != -1 || len(c.recs) != 1200 || c.lines[1199] != 1200 {
		t.Fatalf("a chunk of 1200 lines gave %d records and left line %d", len(c.recs), c.restLine)
	}
	for _, chunk := range []int{chunkSize, 4096, 333, 1} {
		recs, sum, err := readChunked(t, body, chunk)
		if err != nil {
			t.Fatalf("chunks of %d: %v", chunk, err)
		}
		if len(recs) != len(want) || sum.Records != len(want) {
			t.Fatalf("chunks of %d: %d records (summary %d), want %d", chunk, len(recs), sum.Records, len(want))
		}
		if n := sum.Unknown["team.strUnknown"]; n != 299 || len(sum.Unknown) != 1 { // line 2001 is blank
			t.Errorf("chunks of %d: unknown fields %v, want team.strUnknown 299", chunk, sum.Unknown)
		}
		for i := range want {
			if !record.Equal(recs[i], want[i]) {
				t.Fatalf("chunks of %d: record %d is %v, want %v", chunk, i, recs[i], want[i])
			}
		}
	}
}

// A bad line deep in a file is reported with its line and file offset, as line-by-line
// reading reports it, and nothing after it is stored.
func TestNDJSONChunksReportTheBadLine(t *testing.T) {
	lines := ndjsonTeams(2500)
	lines[700] = strings.Replace(lines[700], `,"strTeam"`, ",\n\"strTeam\"", 1) // a record over two lines
	bad := `{"idTeam":"5","strTeam":1.5e}`
	lines[2100] = bad // line 2102: the record over two lines moved it one down
	body := strings.Join(lines, "\n") + "\n"
	offset := strings.Index(body, bad) + strings.Index(bad, "e}") + 1
	for _, chunk := range []int{chunkSize, 4096, 333} {
		recs, sum, err := readChunked(t, body, chunk)
		var fe *FileError
		want := fmt.Sprintf("a.ndjson: line 2102: invalid JSON at byte %d: invalid number (in the value of strTeam)", offset)
		if err == nil || err.Error() != want || !errors.As(err, &fe) || fe.Where != "line 2102" {
			t.Fatalf("chunks of %d: error %v, want %s", chunk, err, want)
		}
		if len(recs) != 2100 || sum.Records != 2100 {
			t.Fatalf("chunks of %d: %d records stored (summary %d) before the bad line, want 2100", chunk, len(recs), sum.Records)
		}
	}
}

// The last of several lines of one id wins over the earlier ones it merges into, across
// chunks, through a real import.
func TestNDJSONChunksMergeInFileOrder(t *testing.T) {
	lines := ndjsonTeams(6000) // over a megabyte: several chunks
	lines = append(lines, `{"idTeam":"3","strTeam":"Last","strStadium":""}`)
	path := writeFile(t, t.TempDir(), "teams.ndjson", strings.Join(lines, "\n")+"\n")
	st := openStore(t)
	mustImport(t, st, []string{path}, Options{})
	// id 3 last appears on line 5921 (i = 5920) before the final line.
	checkFields(t, mustGet(t, st, record.Team, "3"), map[string]string{
		"strTeam": "Last", "strStadium": "Ground é 5920", "intFormedYear": fmt.Sprint(1850 + 5920%170),
	})
	if n, _ := st.Count(context.Background(), record.Team); n != 97 {
		t.Errorf("%d teams, want 97", n)
	}
}
