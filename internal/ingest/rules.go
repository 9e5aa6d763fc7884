package ingest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxField is the longest value of one field an import stores (maxField), for writers of
// single records (the records API) that apply the same rules.
const MaxField = maxField

// ValueProblem says why import would refuse a field's value, or "" when it stores it:
// longer than MaxField, not valid UTF-8, or holding NUL (which PostgreSQL cannot store in
// text, so it is refused on every database).
func ValueProblem(v string) string {
	switch {
	case len(v) > maxField:
		return fmt.Sprintf("longer than %d MiB", maxField>>20)
	case !utf8.ValidString(v):
		return "not valid UTF-8"
	case strings.IndexByte(v, 0) >= 0:
		return "holds a NUL character (\\u0000), which the database cannot store"
	}
	return ""
}
