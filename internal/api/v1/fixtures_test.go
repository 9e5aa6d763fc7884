package v1_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// TestFixtures: for every recorded v1 answer of the public service, a database holding only
// that answer's records gives the same answer, field for field and in the same order.
func TestFixtures(t *testing.T) {
	for _, fx := range apitest.Fixtures(t, "v1-free") {
		t.Run(fx.Name, func(t *testing.T) {
			url := fixtureURL(fx)
			e := newEnv(t, fixtureNow, apitest.Import{Path: fx.File, URL: url})
			switch fx.Name {
			case "invalid_key":
				// Deliberately different: the public service answers a rejected key with its
				// own message; sportsdb answers the documented HTTP 400 body.
				wantStatus(t, e.Get(t, strings.ReplaceAll(fx.PathQuery, "{key}", "1")), 400, `{"Message":"Invalid API key"}`)
				return
			case "lookup_all_teams_wrong_league":
				// Deliberately different: the public service answered ?id=4328 with the teams of
				// league 4396; sportsdb answers league 4328's teams (none imported here), and
				// league 4396's for ?id=4396, which is the recorded body.
				wantStatus(t, e.Get(t, url), 200, `{"teams":null}`)
				// The recording holds 24 teams, more than search_all_teams.php's free cap of 10
				// that the alias shares (DECISIONS section 5): a premium key gets them all.
				url = strings.Replace(strings.Replace(url, "id=4328", "id=4396", 1), "/123/", "/"+e.PremiumKey+"/", 1)
			}
			want, err := os.ReadFile(fx.File)
			if err != nil {
				t.Fatal(err)
			}
			r := e.Get(t, url)
			if r.Status != 200 {
				t.Fatalf("status %d, body %.200s", r.Status, r.Body)
			}
			sameJSON(t, r.Body, want)
		})
	}
}

// sameJSON compares two JSON documents with object keys in their order.
func sameJSON(t testing.TB, got, want []byte) {
	t.Helper()
	g, err := ordered(got)
	if err != nil {
		t.Fatalf("answer is not JSON: %v: %.300s", err, got)
	}
	w, err := ordered(want)
	if err != nil {
		t.Fatalf("expected is not JSON: %v", err)
	}
	if g == w {
		return
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(0, i-120)
	t.Fatalf("answers differ at byte %d:\n got: …%.240s\nwant: …%.240s", i, g[from:], w[from:])
}

// ordered re-encodes JSON with key order kept and string escapes normalised.
func ordered(b []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out strings.Builder
	if err := writeValue(dec, &out); err != nil {
		return "", err
	}
	if dec.More() {
		return "", fmt.Errorf("data after the JSON value")
	}
	return out.String(), nil
}

func writeValue(dec *json.Decoder, out *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		closing := map[json.Delim]string{'{': "}", '[': "]"}[v]
		out.WriteString(v.String())
		for n := 0; dec.More(); n++ {
			if n > 0 {
				out.WriteByte(',')
			}
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				kb, _ := json.Marshal(k)
				out.Write(kb)
				out.WriteByte(':')
			}
			if err := writeValue(dec, out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		out.WriteString(closing)
	default:
		vb, _ := json.Marshal(v)
		out.Write(vb)
	}
	return nil
}

// TestOrderedJSON: the fixture comparison sees key order and ignores escape spelling.
func TestOrderedJSON(t *testing.T) {
	a, _ := ordered([]byte(`{"a":"1","b":null}`))
	b, _ := ordered([]byte(`{"b":null,"a":"1"}`))
	if a == b {
		t.Fatal("key order is not compared")
	}
	c, _ := ordered([]byte(`{"a":"\/x\u00e9"}`))
	d, _ := ordered([]byte(`{"a":"/xé"}`))
	if c != d {
		t.Fatalf("escapes compared: %s vs %s", c, d)
	}
}
