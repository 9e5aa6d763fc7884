package ingest

import (
	"unicode"
	"unicode/utf8"

	"sportsdb/internal/record"
)

// fieldValue is one field of a parsed object. Its text lies in the parser's arena.
type fieldValue struct {
	name       string
	null       bool
	start, end int
}

// objectParser reads flat JSON objects (string, number and null values) into fields. It is
// reused for every record of an import: names are interned and all the text of one record
// is kept in one arena, so a record costs a few allocations however many fields it has.
type objectParser struct {
	names  map[string]string
	arena  []byte
	fields []fieldValue
	key    []byte
	// prev holds the names of the previous record by position: records of one response
	// list the same names in the same order, and comparing bytes is cheaper than hashing.
	prev []string
}

func newObjectParser() *objectParser {
	return &objectParser{names: map[string]string{}}
}

// maxNames bounds the interned names: a file of ever new field names costs allocations,
// not an ever growing table.
const maxNames = 4096

func (p *objectParser) intern(b []byte) string {
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(p.names) < maxNames {
		p.names[s] = s
	}
	return s
}

// name returns the interned name in p.key, the name of field j of the record.
func (p *objectParser) name(j int) string {
	if j < len(p.prev) && string(p.key) == p.prev[j] {
		return p.prev[j]
	}
	n := p.intern(p.key)
	if j < len(p.prev) {
		p.prev[j] = n
	} else if j == len(p.prev) {
		p.prev = append(p.prev, n)
	}
	return n
}

// parse reads the object at the start of b (after white space) and returns the index after
// it. A value that is not a string, number or null is a *typeError.
func (p *objectParser) parse(b []byte) (int, error) {
	p.arena, p.fields = p.arena[:0], p.fields[:0]
	i := skipSpace(b, 0)
	if i >= len(b) {
		return i, errShort
	}
	if b[i] != '{' {
		return i, bad(i, "a record must be an object, found %s", valueType(b[i]))
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) {
			return i, errShort
		}
		if b[i] != '"' {
			return i, bad(i, "want a field name, found %s", valueType(b[i]))
		}
		var err error
		if p.key, i, err = record.AppendJSONString(p.key[:0], b, i); err != nil {
			return i, err
		}
		name := p.name(len(p.fields))
		if i = skipSpace(b, i); i >= len(b) {
			return i, errShort
		}
		if b[i] != ':' {
			return i, bad(i, "want ':' after field name %q", name)
		}
		if i = skipSpace(b, i+1); i >= len(b) {
			return i, errShort
		}
		if i, err = p.value(b, i, name); err != nil {
			return i, err
		}
		if i = skipSpace(b, i); i >= len(b) {
			return i, errShort
		}
		switch b[i] {
		case '}':
			return i + 1, nil
		case ',':
			i = skipSpace(b, i+1)
		default:
			return i, bad(i, "want ',' or '}' after the value of %s", safeName(name))
		}
	}
}

func (p *objectParser) value(b []byte, i int, name string) (int, error) {
	f := fieldValue{name: name, start: len(p.arena)}
	var err error
	switch c := b[i]; {
	case c == '"':
		p.arena, i, err = record.AppendJSONString(p.arena, b, i)
	case c == 'n':
		f.null = true
		i, err = literal(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		p.arena, i, err = appendNumber(p.arena, b, i)
	case c == 't' || c == 'f' || c == '{' || c == '[':
		return i, &typeError{field: name, what: valueType(c)}
	default:
		return i, bad(i, "want a value for %s, found %s", safeName(name), valueType(c))
	}
	if se, ok := err.(*syntaxError); ok {
		return i, bad(se.At, "%s (in the value of %s)", se.Msg, safeName(name))
	}
	if err != nil {
		return i, err
	}
	f.end = len(p.arena)
	if f.end-f.start > maxField {
		return i, bad(i, "the value of %s is longer than %d MiB", safeName(name), maxField>>20)
	}
	p.fields = append(p.fields, f)
	return i, nil
}

// text returns the values of the parsed fields as strings sharing one allocation.
func (p *objectParser) text() string {
	return string(p.arena)
}

// isASCII says whether s is all ASCII, eight bytes at a time.
func isASCII(s string) bool {
	for ; len(s) >= 8; s = s[8:] {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if x&0x8080808080808080 != 0 {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// safeName returns text from a file for a message: as it is when it prints as itself (valid
// UTF-8, no control characters), quoted otherwise, so that a message never writes raw bytes
// or terminal controls.
func safeName(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return record.Quote(s)
		}
	}
	return s
}
