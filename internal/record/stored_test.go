package record

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// storedDocs are docs as the store writes them and as it might hold them otherwise: spaces,
// escapes of every kind, fields out of order, extras before fields, invalid UTF-8, raw
// control characters.
var storedDocs = []string{
	`{}`,
	` { } `,
	`{"idTeam":"133604","strTeam":"Arsenal"}`,
	benchTeamDoc,
	` { "idTeam" : "1" , "strTeam" : null } `,
	`{"strTeam":"Arsenal \"The Gunners\"","idTeam":"133604"}`,
	`{"idTeam":"7","str\u0054eam":"M\u00fcnchen \ud83d\ude00 a\/b\\c\n","strNew":"x","strNewer":null}`,
	`{"idTeam":"7","strBadge":"https:\/\/r2.thesportsdb.com\/a.png","strCountry":""}`,
	`{"idTeam":"7","strBadge":"https://r2.thesportsdb.com/a.png"}`,
	`{"idTeam":"7","strTeam":"tab\there\bback\fform\u0001\u001f\u00e9\u20ac\ud800x"}`,
	`{"idTeam":"7","strTeam":"raw ` + "\x01\x7f" + ` control"}`,
	`{"idTeam":"7","strTeam":"bad ` + "\xff\xfe" + ` utf8 ` + "\xed\xa0\x80" + ` end"}`,
	`{"idTeam":"7","strTeam":"Bayern München ⚽"}`,
	`{"strNew":"x","idTeam":"7"}`,
	`{"idTeam":"7","strNew":"x","strTeam":"late"}`,
	`{"idTeam":"7","idTeam":"8"}`,
	`{"idTeam":"7","idNew":"42","idOther":"x1","strNew":null,"strNew":"again"}`,
	`{"idTeam":"0133","idLeague":"4328","idVenue":"","strTeam":"x"}`,
	`{"strLocked":"unlocked","idTeam":"1"}`,
	`{"idTeam":"7","strStadium":"` + strings.Repeat(`\"long\" value `, 40) + `"}`,
}

const benchTeamDoc = `{"idTeam":"133604","strTeam":"Arsenal","strTeamShort":"ARS","strAlternate":"Gunners","intFormedYear":"1892","strSport":"Soccer","strLeague":"English Premier League","idLeague":"4328","strStadium":"Emirates Stadium","strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/uyhbfe1612467038.png","strCountry":"England"}`

// A stored record is written, read and compared exactly as the record its doc decodes to, in
// every view, with ids as numbers or not.
func TestStoredAgreesWithDecoded(t *testing.T) {
	for _, doc := range storedDocs {
		checkStored(t, Team, doc)
	}
}

// Records of every kind, with random values, nulls and extras, encoded by the store.
func TestStoredRandomRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", "7", " ", "/", `"`, `\`, "\n", "\t", "\x01", "é", "⚽", "\xff", "http://x/y"}
	value := func() Value {
		switch rng.IntN(6) {
		case 0:
			return Null
		case 1:
			return Str("")
		case 2:
			return Str(strconv.FormatInt(rng.Int64N(1e6), 10))
		}
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return Str(sb.String())
	}
	for _, k := range Kinds {
		for range 200 {
			r := k.NewRecord()
			for i := range r.values {
				r.values[i] = value()
			}
			for j := range rng.IntN(3) {
				r.extras = append(r.extras, Extra{Name: []string{"strNew", "idNew", "intNew"}[j], Value: value()})
			}
			checkStored(t, k, string(EncodeDoc(r)))
		}
	}
}

func checkStored(t *testing.T, k *Kind, doc string) {
	t.Helper()
	want, err := DecodeDoc(k, []byte(doc))
	if err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
	s := FromDoc(k, doc)
	if !s.Stored() {
		t.Fatalf("%q: FromDoc is not stored", doc)
	}
	for name, v := range k.Views {
		for _, numeric := range []bool{false, true} {
			got, err := AppendView([]byte("prefix"), s, v, numeric)
			if err != nil {
				t.Fatalf("%q view %s: %v", doc, name, err)
			}
			if w := "prefix" + string(appendView(nil, want, v, numeric)); string(got) != w {
				t.Errorf("%q view %s numeric %v:\n got %s\nwant %s", doc, name, numeric, got, w)
			}
			if !utf8.Valid(got) {
				t.Errorf("%q view %s: not UTF-8", doc, name)
			}
		}
	}
	for _, f := range k.Fields {
		if g, w := s.Get(f), want.Get(f); g != w && !repeats(doc, f) {
			t.Errorf("%q: Get(%s) = %v, want %v", doc, f, g, w)
		}
	}
	if g := s.Get("strNew"); g != Null {
		t.Errorf("%q: Get of an extra %v, want null as for a decoded record", doc, g)
	}
	if gi, gerr := s.ID(); !repeats(doc, k.Key[0]) {
		wi, werr := want.ID()
		if gi != wi || (gerr == nil) != (werr == nil) {
			t.Errorf("%q: ID %q %v, want %q %v", doc, gi, gerr, wi, werr)
		}
	}
	if !Equal(s, want) || !Equal(want, s) || !Equal(s.Clone(), want) {
		t.Errorf("%q: stored and decoded are not Equal", doc)
	}
	if got := string(EncodeDoc(s)); got != string(EncodeDoc(want)) {
		t.Errorf("%q: EncodeDoc %s, want %s", doc, got, EncodeDoc(want))
	}
}

// repeats says whether doc holds field more than once, which no doc the store writes does:
// Get reads its first value, decoding its last.
func repeats(doc, field string) bool { return strings.Count(doc, `"`+field+`":`) > 1 }

// Get stops at the field it reads: of a repeated field, the first value.
func TestStoredGetRepeated(t *testing.T) {
	if v := FromDoc(Team, `{"idTeam":"7","idTeam":"8"}`).Str("idTeam"); v != "7" {
		t.Errorf("idTeam %q, want the first value", v)
	}
}

// A doc that does not decode is an error where the record is written or decoded, and its
// fields read as null; it panics nowhere.
func TestStoredBadDoc(t *testing.T) {
	for _, bad := range []string{`[]`, `{"idTeam":"1"`, `{"idTeam":1}`, `{"idTeam":"1\x"}`, `{"idTeam" "1"}`, `{"idTeam":"1",}`, `{"idTeam":"\u12"}`, `{"strTeam":"a` + "\x01" + `\n"}`, `nonsense`} {
		s := FromDoc(Team, bad)
		if _, err := AppendView(nil, s, Team.View(FullView), false); err == nil {
			t.Errorf("%q: written without an error", bad)
		}
		if _, err := s.Decoded(); err == nil {
			t.Errorf("%q: decoded without an error", bad)
		}
		if err := s.CheckIDs(); err == nil {
			t.Errorf("%q: CheckIDs without an error", bad)
		}
		if v := s.Get("strCountry"); v != Null {
			t.Errorf("%q: strCountry %v, want null", bad, v)
		}
		if got := string(EncodeDoc(s)); got != bad {
			t.Errorf("%q: EncodeDoc %q, want the doc as it is", bad, got)
		}
		_ = s.String()
	}
}

// A stored record cannot be changed in place: Clone gives one that can.
func TestStoredSet(t *testing.T) {
	s := FromDoc(Team, `{"idTeam":"1","strTeam":"a"}`)
	c := s.Clone()
	c.Set("strTeam", Str("b"))
	if s.Str("strTeam") != "a" || c.Str("strTeam") != "b" {
		t.Errorf("stored %q, clone %q", s.Str("strTeam"), c.Str("strTeam"))
	}
	defer func() {
		if recover() == nil {
			t.Error("Set on a stored record did not panic")
		}
	}()
	s.Set("strTeam", Str("c"))
}

// FuzzStoredView: any doc is written from its bytes as decoding and encoding it writes it,
// or is an error both ways.
func FuzzStoredView(f *testing.F) {
	for _, doc := range storedDocs {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		want, werr := DecodeDoc(Team, []byte(doc))
		for _, v := range []*View{Team.View(FullView), Team.View("list2")} {
			for _, numeric := range []bool{false, true} {
				got, gerr := AppendView(nil, FromDoc(Team, doc), v, numeric)
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("%q %s: decode error %v, stored error %v", doc, v.Name, werr, gerr)
				}
				if werr == nil && string(got) != string(appendView(nil, want, v, numeric)) {
					t.Fatalf("%q %s: got %s", doc, v.Name, got)
				}
			}
		}
	})
}

// BenchmarkStoredAppendViewNarrow is a narrow view written from the doc (v2 search).
func BenchmarkStoredAppendViewNarrow(b *testing.B) {
	v := Team.View("search2")
	var buf []byte
	b.SetBytes(int64(len(benchTeamDoc)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendView(buf[:0], FromDoc(Team, benchTeamDoc), v, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoredAppendView is what a list answer costs per record now: the stored doc
// written in the full view from its bytes (against BenchmarkDecodeAppendView).
func BenchmarkStoredAppendView(b *testing.B) {
	full := Event.View(FullView)
	var buf []byte
	b.SetBytes(int64(len(benchEventDoc)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendView(buf[:0], FromDoc(Event, benchEventDoc), full, false); err != nil {
			b.Fatal(err)
		}
	}
}
