package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Every record of every recorded response must be recognised, and every field it carries
// must be a field of its kind.
func TestFixturesDetectAndFit(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/fixtures/*/*.json")
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
	out := AppendView(nil, r, Event.View("summary"), false)
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
