package calendar

import (
	"strings"
	"time"
	"unicode/utf8"
)

// lineOctets is the longest content line RFC 5545 (3.1) allows, without its CRLF.
const lineOctets = 75

// writer builds an iCalendar body: content lines folded at lineOctets, each ending in CRLF.
type writer struct{ b []byte }

// prop writes one content line; value must already be in its type's form (escape a TEXT
// value with text).
func (w *writer) prop(name, value string) {
	line := make([]byte, 0, len(name)+1+len(value))
	line = append(line, name...)
	line = append(line, ':')
	line = append(line, value...)
	w.b = fold(w.b, line)
}

// text writes a TEXT property, escaped.
func (w *writer) text(name, value string) { w.prop(name, escapeText(value)) }

// stamp writes a DATE-TIME property in UTC ("Z" form).
func (w *writer) stamp(name string, t time.Time) { w.prop(name, t.UTC().Format(utcLayout)) }

// date writes a DATE property (VALUE=DATE).
func (w *writer) date(name string, t time.Time) { w.prop(name+";VALUE=DATE", t.Format(dateLayout)) }

const (
	utcLayout  = "20060102T150405Z"
	dateLayout = "20060102"
)

// fold appends line to b as RFC 5545 folds it: after every 75 octets a CRLF and one space,
// the space counting towards the next line's 75. A cut never falls inside a UTF-8 sequence,
// so a line may end a few octets short.
func fold(b, line []byte) []byte {
	limit := lineOctets
	for len(line) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b = append(b, line[:cut]...)
		b = append(b, "\r\n "...)
		line = line[cut:]
		limit = lineOctets - 1
	}
	b = append(b, line...)
	return append(b, "\r\n"...)
}

// escapeText writes s as an RFC 5545 TEXT value (3.3.11): backslash, semicolon and comma
// escaped, any line break as \n. Other control characters, which TEXT cannot hold, are
// dropped, and invalid UTF-8 becomes U+FFFD.
func escapeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == ';' || c == ',':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString(`\n`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			// dropped: no control character but HTAB is allowed in TEXT
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
