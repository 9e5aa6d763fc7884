package record

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every record of every recorded response must be recognised, and every field it carries
// must be a field of its kind.
func TestFixturesDetectAndFit(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for envKey, body := range env {
			var recs []map[string]any
			if json.Unmarshal(body, &recs) != nil {
				continue // a message or null
			}
			for i, r := range recs {
				var fields []string
				for k := range r {
					fields = append(fields, k)
				}
				k := Detect(fields)
				if k == nil {
					t.Errorf("%s %s[%d]: no kind for %v", f, envKey, i, fields)
					continue
				}
				for _, fl := range fields {
					if !k.Has(fl) && !Computed[fl] {
						t.Errorf("%s %s[%d]: kind %s lacks field %s", f, envKey, i, k.Name, fl)
					}
				}
			}
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Atlético_Madrid": "atletico madrid", "  Águilas  B ": "aguilas b", "Arsenal+vs%20": "arsenal vs%20",
		"Bayern München": "bayern munchen", "Ørsted": "orsted",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDocRoundTrip(t *testing.T) {
	r := Event.NewRecord()
	r.Set("idEvent", Str("1"))
	r.Set("strEvent", Str("A \"vs\" B/ü\n\x01"))
	r.Set("strResult", Str(""))
	got, err := DecodeDoc(Event, EncodeDoc(r))
	if err != nil || !Equal(got, r) {
		t.Fatalf("round trip: %v %v", got, err)
	}
	out := appendView(nil, r, Event.View("summary"), false)
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil || m["strEvent"] != "A \"vs\" B/ü\n\x01" || m["strSeason"] != nil {
		t.Fatalf("view: %s %v", out, err)
	}
}

func TestMerge(t *testing.T) {
	full := Event.NewRecord()
	full.Set("idEvent", Str("1"))
	full.Set("strDescriptionEN", Str("long text"))
	full.Set("strResult", Str(""))
	summary := Event.NewRecord()
	summary.Set("idEvent", Str("1"))
	summary.Set("strResult", Str("2-1"))
	summary.Set("strDescriptionEN", Str(""))
	m := Merge(full, summary)
	if m.Str("strDescriptionEN") != "long text" || m.Str("strResult") != "2-1" {
		t.Fatalf("merge lost or kept the wrong value: %v", m.values)
	}
}

// The ASCII fast path of Fold must give what the full Unicode fold gives, for every ASCII
// byte in every position, and fall back on anything else.
func TestFoldASCIIMatchesUnicode(t *testing.T) {
	var cases []string
	for c := 0; c < 0x80; c++ {
		ch := string(rune(c))
		cases = append(cases, ch, ch+"a", "a"+ch, "a"+ch+"b", ch+ch, " "+ch+" ", "A"+ch+ch+"Z")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ _+\t\n\v\f\r9-.,é"
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	cases = append(cases, "", "Arsenal", "arsenal", "  Águilas  B ", "x\u00a0y", "x\u0085y", "Ørsted FC")
	for _, in := range cases {
		if got, want := Fold(in), foldUnicode(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFoldKeepsFoldedStringWithoutCopy(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = Fold("arsenal vs chelsea 2-1") }); n != 0 {
		t.Errorf("folding a folded ASCII name allocates %v times", n)
	}
}

func BenchmarkFold(b *testing.B) {
	names := []string{"Arsenal vs Chelsea", "arsenal", "English Premier League 2026-10-05 Arsenal vs Chelsea", "Bayern München"}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			_ = Fold(n)
		}
	}
}

// SetExtra keeps a repeated name in its first place with its last value, and the extras
// come after the known fields in the full view.
func TestSetExtra(t *testing.T) {
	r := Team.NewRecord()
	r.Set("idTeam", Str("1"))
	r.SetExtra("strNew", Str("a"))
	r.SetExtra("strOther", Null)
	r.SetExtra("strNew", Str("b"))
	want := []Extra{{Name: "strNew", Value: Str("b")}, {Name: "strOther", Value: Null}}
	if got := r.Extras(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("extras %v, want %v", got, want)
	}
	full, err := AppendView(nil, r, Team.View("full"), false)
	if err != nil {
		t.Fatal(err)
	}
	if tail := `,"strNew":"b","strOther":null}`; !strings.HasSuffix(string(full), tail) {
		t.Errorf("full view %s does not end with %s", full, tail)
	}
	back, err := DecodeDoc(Team, EncodeDoc(r))
	if err != nil || !Equal(back, r) {
		t.Errorf("decoded %v (%v), want %v", back, err, r)
	}
}

// The setters refuse what would be a programming error: a known field as an extra, a
// record still in stored form.
func TestSettersPanic(t *testing.T) {
	stored := FromDoc(Team, string(EncodeDoc(Team.NewRecord())))
	for name, set := range map[string]func(){
		"known field as extra": func() { r := Team.NewRecord(); r.SetExtra("strTeam", Str("x")) },
		"SetExtra on stored":   func() { stored.SetExtra("strNew", Str("x")) },
		"SetAt on stored":      func() { stored.SetAt(0, Str("x")) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			set()
		}()
	}
}

// CheckFields tells a made record from a Record literal of a kind.
func TestCheckFields(t *testing.T) {
	if err := Team.NewRecord().CheckFields(); err != nil {
		t.Errorf("new record: %v", err)
	}
	if err := FromDoc(Team, `{}`).CheckFields(); err != nil {
		t.Errorf("stored record: %v", err)
	}
	if err := (Record{Kind: Team}).CheckFields(); err == nil {
		t.Error("record literal passed")
	}
}
