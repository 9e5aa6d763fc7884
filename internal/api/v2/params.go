package v2

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sportsdb/internal/record"
)

// param is the type of a path parameter, written {type} in a route's path.
type param string

const (
	pName          param = "name"          // a name: `_`, `+` and %20 are spaces; folded
	pID            param = "id"            // an integer id
	pDate          param = "date"          // YYYY-MM-DD
	pSeason        param = "season"        // a season name as stored (2026-2027, 2026)
	pSportOrLeague param = "sportOrLeague" // a sport name, or a league id when all digits
)

// maxParamLen bounds a path parameter: no stored name comes near it, and a longer one can
// only cost the database work for nothing.
const maxParamLen = 200

// args are the parsed path parameters of one request. A parameter that cannot match any
// record (a non-numeric id, an impossible date, an empty name) leaves ok false: the answer
// is then "No data found", never an error.
type args struct {
	name   string // folded
	id     string // canonical decimal
	date   string
	season string
	ok     bool
}

func (a *args) set(p param, raw string) bool {
	if len(raw) > maxParamLen || !printable(raw) {
		return false
	}
	switch p {
	case pName:
		a.name = record.Fold(raw)
		return a.name != ""
	case pID:
		id, ok := parseID(raw)
		a.id = id
		return ok
	case pDate:
		t, err := time.Parse(time.DateOnly, raw)
		if err != nil || len(raw) != len(time.DateOnly) {
			return false
		}
		a.date = t.Format(time.DateOnly)
		return true
	case pSeason:
		a.season = strings.TrimSpace(raw)
		return a.season != ""
	case pSportOrLeague:
		if id, ok := parseID(raw); ok {
			a.id = id
			return true
		}
		a.name = record.Fold(raw)
		return a.name != ""
	}
	return false
}

// printable says whether s is valid UTF-8 without control characters. No stored name holds
// one, and a NUL would reach the database's text functions, which stop at it.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// parseID accepts digits only (no sign, no space) and returns the id in canonical form, so
// "007" finds the record stored as "7".
func parseID(s string) (string, bool) {
	if s == "" || len(s) > 18 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil {
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}
