package replay_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// canonical writes a JSON value with its object keys in their order and strings in one
// spelling (the recordings escape "/" as "\/", which is the same string).
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

func canonicalOf(b []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out strings.Builder
	err := canonical(dec, &out)
	return out.String(), err
}

// recordsOf reads a body {"key":[records]} into its key and each record in canonical form.
func recordsOf(body []byte) (string, []string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return "", nil, fmt.Errorf("not JSON: %w", err)
	}
	if len(top) != 1 {
		return "", nil, errors.New("not one record key")
	}
	for k, v := range top {
		var raws []json.RawMessage
		if json.Unmarshal(v, &raws) != nil {
			return k, nil, nil // a message or null: no records
		}
		recs := make([]string, len(raws))
		for i, r := range raws {
			c, err := canonicalOf(r)
			if err != nil {
				return k, nil, err
			}
			recs[i] = c
		}
		return k, recs, nil
	}
	return "", nil, nil
}

// fieldList is a canonical record's field names, in order.
func fieldList(rec string) string {
	dec := json.NewDecoder(strings.NewReader(rec))
	dec.UseNumber()
	var names []string
	if _, err := dec.Token(); err != nil {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		names = append(names, fmt.Sprint(k))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return strings.Join(names, ",")
}

// firstDifference shows where two bodies first differ, in canonical form.
func firstDifference(got, want []byte) string {
	g, err := canonicalOf(got)
	if err != nil {
		g = string(got)
	}
	w, err := canonicalOf(want)
	if err != nil {
		w = string(want)
	}
	if g == w {
		return "same JSON, other bytes"
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("differs at byte %d:\n got …%.200s\nwant …%.200s", i, g[from:], w[from:])
}
