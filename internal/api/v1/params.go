package v1

import (
	"net/url"
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// maxValue bounds a query value: no name, id or date of the service is longer, so a longer
// value matches nothing rather than reaching the database.
const maxValue = 256

// params reads a request's query the way the public service (PHP) does: a repeated
// parameter keeps its last value. Values are read once, here, so every endpoint treats bad
// input alike.
type params struct{ v url.Values }

// has says whether the parameter was sent at all, even empty.
func (p params) has(k string) bool { _, ok := p.v[k]; return ok }

// get returns the last value of a parameter, trimmed; "" when absent.
func (p params) get(k string) string {
	vs := p.v[k]
	if len(vs) == 0 {
		return ""
	}
	return strings.TrimSpace(vs[len(vs)-1])
}

// usable says whether a value can match anything: not empty, not overlong, printable.
func usable(s string) bool {
	return s != "" && len(s) <= maxValue && api.Printable(s)
}

// id returns an integer id in its canonical form ("007" is "7"). ok is false for a missing,
// empty, negative, non-numeric or overlong value: such a request has no results.
func (p params) id(k string) (string, bool) { return api.ParseID(p.get(k)) }

// name returns a name to match on a folded (record.Name) index; the store folds it, so
// `_`, `+` and `%20` all read as spaces and case and accents do not matter. ok is false when
// nothing is left to match once folded.
func (p params) name(k string) (string, bool) {
	s := p.get(k)
	if !usable(s) || record.Fold(s) == "" {
		return "", false
	}
	return s, true
}

// text returns a value matched as it is (season names), with `_` read as a space like
// every other name.
func (p params) text(k string) (string, bool) {
	s := strings.TrimSpace(strings.ReplaceAll(p.get(k), "_", " "))
	if !usable(s) {
		return "", false
	}
	return s, true
}

// date returns a valid calendar date YYYY-MM-DD.
func (p params) date(k string) (string, bool) {
	s := p.get(k)
	if len(s) != len("2006-01-02") {
		return "", false
	}
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return "", false
	}
	return s, true
}

// flag reads an integer flag the way PHP tests a value for truth: absent, "" and "0" are
// off, anything else is on.
func (p params) flag(k string) bool {
	s := p.get(k)
	return s != "" && s != "0"
}
