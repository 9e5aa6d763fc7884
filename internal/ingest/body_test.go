package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

const fixtures = "../../testdata/recorded"

// collectTx is a store.Tx that keeps what the importer upserts, to test reading alone.
type collectTx struct{ recs []record.Record }

func (c *collectTx) Upsert(_ context.Context, r record.Record) error {
	c.recs = append(c.recs, r)
	return nil
}
func (c *collectTx) Replace(context.Context, record.Record) error { return errors.New("not used") }
func (c *collectTx) DeleteAll(context.Context, *record.Kind) error {
	return errors.New("not used")
}

var _ store.Tx = (*collectTx)(nil)

// chunkReader hands out at most n bytes per Read, so that values cross buffer boundaries.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// readBody imports one body with the real reading path and returns what it produced.
func readBody(t *testing.T, name, body, url string) ([]record.Record, Summary, error) {
	t.Helper()
	return readFrom(name, strings.NewReader(body), url, 0)
}

// readFrom reads src; a bufSize above 0 starts the reader with a buffer that small, so that
// values cross the buffer's end at many places and are parsed again after each read.
func readFrom(name string, src io.Reader, url string, bufSize int) ([]record.Record, Summary, error) {
	sum := newSummary()
	imp := newImporter(&sum, newProgress(nil, ""))
	if bufSize > 0 {
		imp.r.buf = make([]byte, bufSize)
	}
	tx := &collectTx{}
	err := imp.read(context.Background(), tx, name, src, url)
	for uf, n := range imp.b.unknown {
		sum.Unknown[uf.kind.Name+"."+uf.field] += n
	}
	return tx.recs, sum, err
}

func TestBodyShapes(t *testing.T) {
	team := `{"idTeam":"1","strTeam":"Arsenal"}`
	cases := []struct {
		name, file, body string
		want             int
		messages         int
	}{
		{"envelope", "a.json", `{"teams":[` + team + `,{"idTeam":"2","strTeam":"Chelsea"}]}`, 2, 0},
		{"null", "a.json", `{"events":null}`, 0, 0},
		{"rejected parameter", "a.json", `{"seasons":"Invalid League ID passed"}`, 0, 1},
		{"v2 no data", "a.json", `{"Message":"No data found"}`, 0, 1},
		{"rate limited", "a.json", `{"message":"Rate limit exceeded.","error":429}`, 0, 1},
		{"empty body", "a.json", ``, 0, 0},
		{"white space only", "a.json", " \n\t ", 0, 0},
		{"empty array", "a.json", `{"teams":[]}`, 0, 0},
		{"empty object", "a.json", `{}`, 0, 0},
		{"several keys", "a.json", `{"teams":[` + team + `],"events":null,"players":[{"idPlayer":"7","strPlayer":"X"}]}`, 2, 0},
		{"bare array", "a.json", `[` + team + `]`, 1, 0},
		{"single record", "a.json", team, 1, 0},
		{"byte order mark", "a.json", "\xef\xbb\xbf" + `{"teams":[` + team + `]}`, 1, 0},
		{"pretty printed", "a.json", "{\n  \"teams\": [\n    {\n      \"idTeam\": \"1\",\n      \"strTeam\": \"A\"\n    }\n  ]\n}\n", 1, 0},
		{"ndjson", "a.ndjson", team + "\n\n" + `{"idEvent":"5","strEvent":"A vs B","strTimestamp":"2026-01-01T10:00:00"}` + "\r\n", 2, 0},
		{"jsonl without last newline", "a.jsonl", team, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, sum, err := readBody(t, c.file, c.body, "")
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if len(recs) != c.want || sum.Records != c.want {
				t.Fatalf("got %d records (summary %d), want %d", len(recs), sum.Records, c.want)
			}
			if len(sum.Messages) != c.messages {
				t.Errorf("messages %q, want %d", sum.Messages, c.messages)
			}
		})
	}
}

func TestValues(t *testing.T) {
	body := `{"search":[{"idTeam":133604,"strTeam":"Arsenal \u00e9\/ \"x\" \ud83d\ude00","idLeague":4328,"intLoved":-4.5e1,` +
		`"strLeague":null,"strBadge":"","strCountry":"a\tb\\c","intFormedYear":1892.50,"relevance":"12.5"}]}`
	recs, sum, err := readBody(t, "v2.json", body, "")
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	if r.Kind != record.Team {
		t.Fatalf("kind %s, want team", r.Kind.Name)
	}
	want := map[string]record.Value{
		"idTeam":        record.Str("133604"),
		"strTeam":       record.Str(`Arsenal é/ "x" 😀`),
		"idLeague":      record.Str("4328"),
		"intLoved":      record.Str("-45"),
		"strLeague":     record.Null,
		"strBadge":      record.Str(""),
		"strCountry":    record.Str("a\tb\\c"),
		"intFormedYear": record.Str("1892.50"),
		"strSport":      record.Null, // not sent
	}
	for f, v := range want {
		if got := r.Get(f); got != v {
			t.Errorf("%s = %#v, want %#v", f, got, v)
		}
	}
	if len(sum.Unknown) != 0 {
		t.Errorf("relevance is computed, not unknown: %v", sum.Unknown)
	}
}

// Text that is not valid Unicode is refused, not replaced: the error names the file, the
// record and the field, and quotes what it shows, so that no raw byte reaches a terminal.
func TestInvalidTextIsRefused(t *testing.T) {
	cases := []struct {
		name, body, where, reason string
	}{
		{"value", "{\"teams\":[{\"idTeam\":\"1\",\"strTeam\":\"a\xffb\"}]}", "teams[0]",
			`field strTeam holds invalid UTF-8: byte 0xff at byte 1 of the value "a\xffb"`},
		{"latin-1 file", "{\"teams\":[{\"idTeam\":\"1\",\"strTeam\":\"A\",\"strStadium\":\"Stade de Gen\xe8ve\"}]}", "teams[0]",
			"field strStadium holds invalid UTF-8: byte 0xe8 at byte 12"},
		// Together the two values are "é", valid UTF-8; each alone is not.
		{"a character across two values", "{\"teams\":[{\"idTeam\":\"1\",\"strTeam\":\"A\xc3\",\"strStadium\":\"\xa9B\"}]}", "teams[0]",
			"field strTeam holds invalid UTF-8: byte 0xc3 at byte 1"},
		{"field name", "{\"teams\":[{\"idTeam\":\"1\",\"strTeam\":\"A\",\"str\xff\\u001b[2J\":\"x\"}]}", "teams[0]",
			`field name "str\xff\x1b[2J" is not valid UTF-8`},
		{"field name of no kind", "{\"teams\":[{\"x\xff\":\"1\"}]}", "teams[0]", `field name "x\xff" is not valid UTF-8`},
		{"lone surrogate", `{"teams":[{"idTeam":"1","strTeamShort":"\ud800x"}]}`, "teams[0]",
			`\ud800 is half of a UTF-16 surrogate pair without its other half (in the value of strTeamShort)`},
		{"NUL", `{"teams":[{"idTeam":"1","strTeam":"a\u0000b"}]}`, "teams[0]",
			`field strTeam holds a NUL character (\u0000) at byte 1 of its value`},
		{"ndjson", "{\"idTeam\":\"1\",\"strTeam\":\"A\"}\n{\"idTeam\":\"2\",\"strTeam\":\"\xc3\"}\n", "line 2",
			"field strTeam holds invalid UTF-8: byte 0xc3 at byte 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := "a.json"
			if c.name == "ndjson" {
				file = "a.ndjson"
			}
			_, _, err := readBody(t, file, c.body, "")
			var fe *FileError
			if !errors.As(err, &fe) || fe.Where != c.where {
				t.Fatalf("error %v, want one at %s", err, c.where)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q does not say %q", err, c.reason)
			}
			if msg := err.Error(); !utf8.ValidString(msg) || strings.Contains(msg, "\x1b") {
				t.Errorf("error %q holds raw bytes", msg)
			}
		})
	}
}

// Names and texts from a file appear in messages quoted when they would not print as
// themselves: a body's message, an unknown kind's field list, a file name.
func TestMessagesQuoteRawBytes(t *testing.T) {
	_, sum, err := readBody(t, "a.json", "{\"Message\":\"No data\\u001b[31m\xff\"}", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := `a.json: Message: "No data\x1b[31m\xff"`; len(sum.Messages) != 1 || sum.Messages[0] != want {
		t.Errorf("messages %q, want %q", sum.Messages, want)
	}
	_, _, err = readBody(t, "a\xff.json", "{\"teams\":[{\"x\\u001b\":\"1\"}]}", "")
	if want := `"a\xff.json": teams[0]: no record kind has these fields: "x\x1b"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// Fields no kind has are kept in the order they came, counted, and given twice keep their
// first place and their last value, as known fields do.
func TestUnknownFieldsAreKept(t *testing.T) {
	body := `{"teams":[{"strMascot":"x","idTeam":"1","strTeam":"A","intRank":7,"strMascot":"y"},{"idTeam":"2","strTeam":"B","strMascot":null}]}`
	recs, sum, err := readBody(t, "a.json", body, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || sum.Unknown["team.strMascot"] != 2 || sum.Unknown["team.intRank"] != 1 {
		t.Fatalf("records %d, unknown %v", len(recs), sum.Unknown)
	}
	want := [][]record.Extra{
		{{Name: "strMascot", Value: record.Str("y")}, {Name: "intRank", Value: record.Str("7")}},
		{{Name: "strMascot", Value: record.Null}},
	}
	for i, r := range recs {
		if !slices.Equal(r.Extras(), want[i]) {
			t.Errorf("record %d extras %v, want %v", i, r.Extras(), want[i])
		}
	}
}

// Errors name the file, the record, and the reason.
func TestBodyErrors(t *testing.T) {
	ok := `{"idTeam":"1","strTeam":"A"}`
	cases := []struct {
		name, file, body string
		where            string
		reason           string
	}{
		{"boolean", "a.json", `{"teams":[` + ok + `,{"idTeam":"2","strTeam":true}]}`, "teams[1]", "field strTeam holds a boolean"},
		{"object value", "a.json", `{"teams":[{"idTeam":"2","strTeam":{"a":"b"}}]}`, "teams[0]", "field strTeam holds an object"},
		{"array value", "a.json", `{"teams":[{"idTeam":"2","strTeam":["a"]}]}`, "teams[0]", "field strTeam holds an array"},
		{"unknown kind", "a.json", `{"teams":[` + ok + `,{"foo":"1","bar":"2"}]}`, "teams[1]", "no record kind has these fields: foo, bar"},
		{"no id", "a.json", `{"teams":[{"idTeam":"","strTeam":"A"}]}`, "teams[0]", "record has no id"},
		{"season without league", "s.json", `{"seasons":[{"strSeason":"2020"}]}`, "seasons[0]", "idLeague is empty"},
		{"not an object", "a.json", `{"teams":[` + ok + `,"x"]}`, "teams[1]", "a record must be an object, found a string"},
		{"invalid json in record", "a.json", `{"teams":[` + ok + `,{"idTeam":"2" "strTeam":"B"}]}`, "teams[1]", "invalid JSON at byte 53"},
		{"truncated", "a.json", `{"teams":[` + ok + `,{"idTeam":"2","str`, "teams[1]", "truncated"},
		{"truncated after record", "a.json", `{"teams":[` + ok, "", "truncated"},
		{"missing comma", "a.json", `{"teams":[` + ok + ` ` + ok + `]}`, "", "want ',' or ']' after teams[0]"},
		{"trailing data", "a.json", `{"teams":null} x`, "", "more data after the end of the body"},
		{"envelope boolean", "a.json", `{"teams":[` + ok + `],"ok":true}`, "", `key "ok" holds a boolean`},
		{"flat boolean", "a.json", `{"ok":true}`, "", `key ok holds a boolean`},
		{"top level string", "a.json", `"x"`, "", "want a JSON object or array, found a string"},
		{"bad escape", "a.json", `{"teams":[{"idTeam":"1","strTeam":"\q"}]}`, "teams[0]", `invalid escape \q`},
		{"control character", "a.json", "{\"teams\":[{\"idTeam\":\"1\",\"strTeam\":\"a\nb\"}]}", "teams[0]", "control character"},
		{"bad number", "a.json", `{"teams":[{"idTeam":01,"strTeam":"A"}]}`, "teams[0]", "leading zero"},
		{"bad literal", "a.json", `{"teams":[{"idTeam":nul,"strTeam":"A"}]}`, "teams[0]", "invalid literal"},
		{"ndjson bad line", "a.ndjson", ok + "\n\n" + `{"idTeam":"2","strTeam":false}` + "\n", "line 3", "holds a boolean"},
		{"ndjson two values", "a.ndjson", ok + "\n" + ok + " " + ok + "\n", "line 2", "more than one value on the line"},
		{"ndjson unknown kind", "a.ndjson", ok + "\n" + `{"x":"1"}`, "line 2", "no record kind"},
		{"ndjson line cut in a string", "a.ndjson", ok + "\n" + `{"idTeam":"2","strTe` + "\n" + ok + "\n", "line 2", "the line is truncated"},
		{"ndjson line cut after a name", "a.ndjson", ok + "\n" + `{"idTeam":"2","strTeam":` + "\r\n\n" + ok + "\n", "line 2", "the line is truncated"},
		{"ndjson line cut after a comma", "a.ndjson", ok + "\n" + `{"idTeam":"2",` + "\n" + ok + "\n", "line 2", "the line is truncated"},
		{"ndjson line cut after a value", "a.ndjson", ok + "\n" + `{"idTeam":"2"` + "\n" + ok + "\n", "line 2", "the line is truncated"},
		{"ndjson file cut", "a.ndjson", ok + "\n" + `{"idTeam":"2","strTeam":"B",`, "line 2", "the file ends inside a value (truncated JSON)"},
		{"ndjson record over two lines, then bad", "a.ndjson", ok + "\n" + `{"idTeam":"2",` + "\n" + `"strTeam":true}`, "line 2", "field strTeam holds a boolean"},
		{"ndjson envelope", "a.ndjson", `{"teams":[` + ok + `]}`, "line 1", "holds an array"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := readBody(t, c.file, c.body, "")
			if err == nil {
				t.Fatal("no error")
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FileError", err)
			}
			if fe.Path != c.file || fe.Where != c.where {
				t.Errorf("error at %q %q, want %q %q (%v)", fe.Path, fe.Where, c.file, c.where, err)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q does not say %q", err, c.reason)
			}
			if !strings.HasPrefix(err.Error(), c.file+": ") {
				t.Errorf("error %q does not start with the file", err)
			}
		})
	}
}

// Every fixture reads the same, whatever the buffer size and however few bytes each read
// returns, as encoding/json reads it.
func TestFixturesMatchEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*", "*.json"))
	if len(files) < 50 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := decodeWithStdlib(t, raw)
		for _, chunk := range []int{1 << 20, 7} {
			recs, _, err := readFrom(f, chunkReader{strings.NewReader(string(raw)), chunk}, "", chunk)
			if err != nil {
				if errors.Is(err, record.ErrNoID) {
					continue // seasons and highlights need their URL; tested elsewhere
				}
				t.Fatalf("%s: %v", f, err)
			}
			if len(recs) != len(want) {
				t.Fatalf("%s (chunks of %d): %d records, want %d", f, chunk, len(recs), len(want))
			}
			for i, r := range recs {
				for field, v := range want[i] {
					if record.Computed[field] {
						continue
					}
					if got := r.Get(field); got != v {
						t.Fatalf("%s record %d (chunks of %d): %s = %#v, want %#v", f, i, chunk, field, got, v)
					}
				}
			}
		}
	}
}

// decodeWithStdlib reads the records of a response body with encoding/json. The fixtures
// hold one key each, so the order of keys does not matter.
func decodeWithStdlib(t *testing.T, raw []byte) []map[string]record.Value {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	var out []map[string]record.Value
	for _, body := range env {
		var recs []map[string]any
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.UseNumber()
		if dec.Decode(&recs) != nil {
			continue
		}
		for _, r := range recs {
			m := map[string]record.Value{}
			for k, v := range r {
				switch v := v.(type) {
				case nil:
					m[k] = record.Null
				case string:
					m[k] = record.Str(v)
				case json.Number:
					m[k] = record.Str(v.String())
				default:
					t.Fatalf("fixture value %v of %s is %T", v, k, v)
				}
			}
			out = append(out, m)
		}
	}
	return out
}
