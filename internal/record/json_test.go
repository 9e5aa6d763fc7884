package record

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
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
		t.Fatalf("round trip: %v %v", back.Values, err)
	}
}

func BenchmarkEncodeDoc(b *testing.B) {
	r := Event.NewRecord()
	for i, f := range Event.Fields {
		switch {
		case i%5 == 4:
		case strings.HasPrefix(f, "str") && i%3 == 0:
			r.Values[i] = Str("https://r2.thesportsdb.com/images/media/event/thumb/abcdef1234567890.jpg")
		default:
			r.Values[i] = Str("Value of " + f)
		}
	}
	b.SetBytes(int64(len(EncodeDoc(r))))
	for b.Loop() {
		EncodeDoc(r)
	}
}
