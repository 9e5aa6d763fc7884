package testsupport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Canonical re-encodes one JSON document with its object keys in their order, numbers as
// written and strings in one spelling, so that two answers compare equal exactly when a
// client reading keys in order would see the same thing (the recordings escape "/" as "\/").
func Canonical(b []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out strings.Builder
	if err := canonical(dec, &out); err != nil {
		return "", err
	}
	if dec.More() {
		return "", errors.New("data after the JSON value")
	}
	return out.String(), nil
}

func canonical(dec *json.Decoder, out *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		b, _ := json.Marshal(tok)
		out.Write(b)
		return nil
	}
	out.WriteString(d.String())
	for i := 0; dec.More(); i++ {
		if i > 0 {
			out.WriteByte(',')
		}
		if d == '{' {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			b, _ := json.Marshal(k)
			out.Write(b)
			out.WriteByte(':')
		}
		if err := canonical(dec, out); err != nil {
			return err
		}
	}
	end, err := dec.Token()
	if err != nil {
		return err
	}
	out.WriteString(end.(json.Delim).String())
	return nil
}

// JSONDiff says where two JSON documents first differ in canonical form, or "" when they are
// the same document.
func JSONDiff(got, want []byte) string {
	g, err := Canonical(got)
	if err != nil {
		return fmt.Sprintf("got is not JSON: %v: %.300s", err, got)
	}
	w, err := Canonical(want)
	if err != nil {
		return fmt.Sprintf("want is not JSON: %v: %.300s", err, want)
	}
	if g == w {
		return ""
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(0, i-120)
	return fmt.Sprintf("differs at byte %d:\n got …%.240s\nwant …%.240s", i, g[from:], w[from:])
}
