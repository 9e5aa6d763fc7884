package replay_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/testsupport"
)

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
			c, err := testsupport.Canonical(r)
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
	if d := testsupport.JSONDiff(got, want); d != "" {
		return d
	}
	return "same JSON, other bytes"
}
