package api

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ParseID accepts digits only (no sign, no space, at most 18) and returns the id in its
// canonical form, so "007" finds the record stored as "7". Anything else is no id: such a
// request has no results.
func ParseID(s string) (string, bool) {
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

// Printable says whether s is valid UTF-8 without control characters. No stored name holds
// one, so such a parameter is no result, on v1 and v2 alike.
func Printable(s string) bool {
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
