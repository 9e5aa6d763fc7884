package record

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
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
		t.Fatalf("merge lost or kept the wrong value: %v", m.Values)
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
