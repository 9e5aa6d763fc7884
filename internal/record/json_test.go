package record

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// appendStringByByte is AppendString written plainly, one byte at a time: the definition
// the word-at-a-time scan must match.
func appendStringByByte(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\', '/':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}

func TestAppendString(t *testing.T) {
	cases := []string{
		"", "a", "Arsenal", "https://r2.thesportsdb.com/images/media/team/badge/uyhbfe1612467038.png",
		`say "hi"\now`, "tab\there\r\n", "\x00\x01\x1f\x7f", "Atlético Madrid", "München/Bayern",
		"bad \xff utf8", "\xc3", "cut \xe2\x82", "日本語のテキスト", "\u2028\u2029", "1234567/", "12345678/",
		strings.Repeat("x", 64) + `"` + strings.Repeat("y", 7),
	}
	// Random strings over the bytes that matter, at every position relative to a word.
	alphabet := []byte("ab/\"\\\n\x00\x1f \x7f\x80\xbf\xc3\xa9\xe2\x82\xac\xff~")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := rng.IntN(40)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		got, want := AppendString([]byte("x"), s), appendStringByByte([]byte("x"), s)
		if string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got[1:], want[1:])
		}
		if utf8.ValidString(s) {
			var back string
			if err := json.Unmarshal(got[1:], &back); err != nil || back != s {
				t.Fatalf("AppendString(%q) = %s reads back as %q (%v)", s, got[1:], back, err)
			}
		}
	}
}

// A doc holds the non-null fields in field order, and reads back as the same record.
func TestEncodeDocRoundTrip(t *testing.T) {
	r := Team.NewRecord()
	r.Set("idTeam", Str("133604"))
	r.Set("strTeam", Str(`Arsenal "The Gunners"`))
	r.Set("strBadge", Str("https://r2.thesportsdb.com/images/media/team/badge/a.png"))
	r.Set("strDescriptionEN", Str("Line one\nLine two, in München"))
	r.Set("strCountry", Str(""))
	doc := EncodeDoc(r)
	want := `{"idTeam":"133604","strTeam":"Arsenal \"The Gunners\"",` +
		`"strDescriptionEN":"Line one\nLine two, in München","strCountry":"",` +
		`"strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/a.png"}`
	if string(doc) != want {
		t.Errorf("doc %s\nwant %s", doc, want)
	}
	back, err := DecodeDoc(Team, doc)
	if err != nil || !Equal(back, r) {
		t.Fatalf("round trip: %v %v", back.values, err)
	}
}

func BenchmarkEncodeDoc(b *testing.B) {
	r := Event.NewRecord()
	for i, f := range Event.Fields {
		switch {
		case i%5 == 4:
		case strings.HasPrefix(f, "str") && i%3 == 0:
			r.values[i] = Str("https://r2.thesportsdb.com/images/media/event/thumb/abcdef1234567890.jpg")
		default:
			r.values[i] = Str("Value of " + f)
		}
	}
	b.SetBytes(int64(len(EncodeDoc(r))))
	for b.Loop() {
		EncodeDoc(r)
	}
}

// benchEventDoc is a stored event as the full-scale dataset holds one.
const benchEventDoc = `{"idEvent":"2001000","strTimestamp":"2025-12-14T12:30:00","strEvent":"1. FC Würzburg 1860 vs TSV Bremen","strEventAlternate":"TSV Bremen @ 1. FC Würzburg 1860","strFilename":"German Bundesliga 2025-12-14 1. FC Würzburg 1860 vs TSV Bremen","strSport":"Soccer","idLeague":"4331","strLeague":"German Bundesliga","strLeagueBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/league\/badge\/igh8w31655295604.png","strSeason":"2025-2026","strDescriptionEN":"","strHomeTeam":"1. FC Würzburg 1860","strAwayTeam":"TSV Bremen","intHomeScore":"0","intRound":"13","intAwayScore":"3","intSpectators":"20700","strOfficial":"","strWeather":"","dateEvent":"2025-12-14","dateEventLocal":"2025-12-14","strTime":"12:30:00","strTimeLocal":"14:30:00","strGroup":"","idHomeTeam":"140035","strHomeTeamBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/6v6qji1557770470.png","idAwayTeam":"140034","strAwayTeamBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/fpgt8s1663613089.png","strResult":"","idVenue":"20035","strVenue":"Stadion Würzburg","strCountry":"Germany","strCity":"Würzburg","strTweet1":"","strVideo":"","strStatus":"FT","strPostponed":"no","strLocked":"unlocked"}`

// BenchmarkDecodeAppendView is what a list answer costs per record: the stored doc read and
// written as the full view.
func BenchmarkDecodeAppendView(b *testing.B) {
	doc := []byte(benchEventDoc)
	full := Event.View(FullView)
	var buf []byte
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := DecodeDoc(Event, doc)
		if err != nil {
			b.Fatal(err)
		}
		buf = appendView(buf[:0], r, full, false)
	}
}

// DecodeDoc reads any flat object of strings and nulls as encoding/json does: fields in any
// order, escaped names and values, surrogate pairs, and fields the kind lacks as extras.
func TestDecodeDocAgreesWithEncodingJSON(t *testing.T) {
	docs := []string{
		`{}`,
		` { "idTeam" : "1" , "strTeam" : null } `,
		`{"strTeam":"Arsenal \"The Gunners\"","idTeam":"133604"}`,
		`{"idTeam":"7","str\u0054eam":"M\u00fcnchen \ud83d\ude00 a\/b\\c\n","strNew":"x","strNewer":null}`,
		`{"idTeam":"7","strBadge":"https:\/\/r2.thesportsdb.com\/a.png","strCountry":""}`,
		`{"strStadium":"` + strings.Repeat(`\"long\" value `, 40) + `","idTeam":"9"}`,
	}
	// Both decoders, the one that copies a doc's strings and the one that keeps slices of it.
	decoders := map[string]func(string) (Record, error){
		"DecodeDoc":       func(doc string) (Record, error) { return DecodeDoc(Team, []byte(doc)) },
		"DecodeDocString": func(doc string) (Record, error) { return DecodeDocString(Team, doc) },
	}
	for dec, decode := range decoders {
		for _, doc := range docs {
			checkDecoded(t, dec+" "+doc, doc, decode)
		}
		for _, bad := range []string{``, `[]`, `{"idTeam":"1"`, `{"idTeam":1}`, `{"idTeam":"1\x"}`, `{"idTeam" "1"}`, `{"idTeam":"1",}`, `{"idTeam":"\u12"}`} {
			if _, err := decode(bad); err == nil {
				t.Errorf("%s: %q decoded without an error", dec, bad)
			}
		}
	}
}

// DecodeDocString keeps the values that need no unescaping as slices of the doc, and copies
// the others.
func TestDecodeDocStringKeepsSlices(t *testing.T) {
	doc := `{"idTeam":"133604","strTeam":"Arsenal","strBadge":"https:\/\/r2.thesportsdb.com\/a.png"}`
	inside := func(s string) bool {
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(doc)))
		return p >= start && p < start+uintptr(len(doc))
	}
	r, err := DecodeDocString(Team, doc)
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Str("strTeam"); v != "Arsenal" || !inside(v) {
		t.Errorf("strTeam %q: want Arsenal, a slice of the doc", v)
	}
	if v := r.Str("strBadge"); v != "https://r2.thesportsdb.com/a.png" || inside(v) {
		t.Errorf("strBadge %q: want the unescaped URL, copied", v)
	}
}

// checkDecoded decodes doc and compares each field with what encoding/json reads.
func checkDecoded(t *testing.T, what, doc string, decode func(string) (Record, error)) {
	t.Helper()
	var want map[string]*string
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	r, err := decode(doc)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got := map[string]*string{}
	for i, v := range r.values {
		if v.Valid {
			got[Team.Fields[i]] = &v.S
		} else if _, ok := want[Team.Fields[i]]; ok {
			got[Team.Fields[i]] = nil
		}
	}
	for _, e := range r.extras {
		if Team.Has(e.Name) {
			t.Errorf("%s: %s read as an extra", what, e.Name)
		}
		v := e.Value
		if v.Valid {
			got[e.Name] = &v.S
		} else {
			got[e.Name] = nil
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d fields, want %d", what, len(got), len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: %s missing", what, name)
		case (g == nil) != (w == nil) || g != nil && *g != *w:
			t.Errorf("%s: %s = %v, want %v", what, name, g, w)
		}
	}
}

// View.Size, which answers size their buffer with, is the written length when nothing needs
// escaping and the record has no extras, in every view; ListSize adds a comma a record.
func TestViewSize(t *testing.T) {
	r := Event.NewRecord()
	for i, f := range Event.Fields {
		if i%3 != 0 {
			r.values[i] = Str("value of " + f)
		}
	}
	for name, v := range Event.Views {
		if got, want := v.Size(r), len(appendView(nil, r, v, false)); got != want {
			t.Errorf("view %s: Size %d, written %d", name, got, want)
		}
		if got, want := v.ListSize([]Record{r, r}), 2*v.Size(r)+2; got != want {
			t.Errorf("view %s: ListSize %d, want %d", name, got, want)
		}
	}
}
