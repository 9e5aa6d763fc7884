package record

import (
	"fmt"
	"strconv"
)

// MaxIDDigits is the longest id a lookup takes: 18 digits always fit the 63 bits of a
// signed 64-bit integer, the widest id type a client or a database is likely to use.
const MaxIDDigits = 18

// IDProblem says why s cannot be an id, or "" when it can. An id is what a lookup asks
// for: a decimal number without sign, space or leading zero, of at most MaxIDDigits digits.
// A lookup reads "007" as 7, so a record stored under "007" could never be found.
func IDProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case len(s) > MaxIDDigits:
		if allDigits(s) {
			return fmt.Sprintf("it has more than %d digits", MaxIDDigits)
		}
		return "want digits only"
	case !allDigits(s):
		return "want digits only"
	case len(s) > 1 && s[0] == '0':
		return "a leading zero (a lookup reads it as " + strconv.Quote(trimZeros(s)) + ")"
	}
	return ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// IDError is an id field holding what no lookup can ask for.
type IDError struct {
	Field, Value, Problem string
}

func (e *IDError) Error() string {
	return fmt.Sprintf("%s %s is not an id: %s", e.Field, Quote(e.Value), e.Problem)
}

// CheckIDs returns an *IDError for the first id field whose value no lookup can reach: the
// id fields of the record's key, and the id fields that lookups follow from one record to
// another (a player's idTeam, an event's idHomeTeam). A reference left empty or null is no
// reference and passes; ids of other services (idESPN, idWikidata) are not checked.
func (r Record) CheckIDs() error {
	r, err := r.Decoded()
	if err != nil {
		return err
	}
	for _, p := range r.Kind.idPos {
		v := r.values[p]
		if !v.Valid || (v.S == "" && !r.Kind.isKey(p)) {
			continue
		}
		if problem := IDProblem(v.S); problem != "" {
			return &IDError{Field: r.Kind.Fields[p], Value: v.S, Problem: problem}
		}
	}
	return nil
}

// isIDName says whether a field names an id of this database: "id", or "id" and a capital.
func isIDName(f string) bool { return f == "id" || isIDField(f) }

// idPositions lists the fields CheckIDs checks: id fields of the key, and indexed id fields
// (the indexed fields are those lookups filter on).
func idPositions(k *Kind) []int {
	var out []int
	seen := map[int]bool{}
	add := func(f string) {
		if p := k.Pos(f); isIDName(f) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range k.Key {
		add(f)
	}
	for _, ix := range k.Indexed {
		if ix.Norm == Exact {
			add(ix.Field)
		}
	}
	return out
}

func (k *Kind) isKey(p int) bool {
	for _, f := range k.Key {
		if k.Pos(f) == p {
			return true
		}
	}
	return false
}

// maxQuoted bounds a value quoted in a message.
const maxQuoted = 64

// Quote returns s quoted for a message: in Go syntax, so that invalid UTF-8 and control
// characters never reach a terminal as they are, and cut after maxQuoted bytes.
func Quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
