package record

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The stored form of a record (its "doc") is a compact JSON object of its non-null fields in
// field order. Field names rather than positions keep stored data readable when a kind gains
// a field. Encoding and decoding are hand-written because they sit on every request's path.

// EncodeDoc returns the stored form of a record. A record still in its stored form whose doc
// does not decode is given back as it is.
func EncodeDoc(r Record) []byte {
	if r.stored {
		d, err := r.Decoded()
		if err != nil {
			return []byte(r.doc)
		}
		r = d
	}
	keys := docKeys[r.Kind]
	// Sized for the common case of nothing to escape, so the doc is allocated once.
	n := 2
	for i, v := range r.values {
		if v.Valid {
			n += len(r.Kind.Fields[i]) + len(v.S) + 6
		}
	}
	for _, e := range r.extras {
		n += len(e.Name) + len(e.Value.S) + 8
	}
	b := make([]byte, 0, n+n/16)
	b = append(b, '{')
	for i, v := range r.values {
		if !v.Valid {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		if keys != nil {
			b = append(b, keys[i]...)
		} else {
			b = append(AppendString(b, r.Kind.Fields[i]), ':')
		}
		b = AppendString(b, v.S)
	}
	return append(appendExtras(b, r.extras, false), '}')
}

// appendExtras appends the extras as fields of an object already holding fields (or "{"
// alone). Null extras are written too: the field's presence is what is kept.
func appendExtras(b []byte, extras []Extra, numericIDs bool) []byte {
	for _, e := range extras {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(AppendString(b, e.Name), ':')
		b = AppendValue(b, e.Name, e.Value, numericIDs)
	}
	return b
}

// docKeys holds each field's key as a doc writes it ("name":) for every kind of Kinds, so
// that a key costs a doc one copy.
var docKeys = func() map[*Kind][]string {
	m := map[*Kind][]string{}
	for _, k := range Kinds {
		keys := make([]string, len(k.Fields))
		for i, f := range k.Fields {
			keys[i] = string(append(AppendString(nil, f), ':'))
		}
		m[k] = keys
	}
	return m
}()

// DecodeDoc reads the stored form of a record. Fields the kind does not have are its extras.
// It sits under every answer, so a doc costs a few allocations however many fields it has:
// every string of the record is copied (unescaped where it must be) into one allocation
// that the values share, and fields are looked for in the kind's order before its map.
func DecodeDoc(k *Kind, doc []byte) (Record, error) {
	return decodeNamed(k, doc, "")
}

// DecodeDocString is DecodeDoc of a doc the caller hands over for good: the record's values
// that need no unescaping are slices of it, so only the others are copied, and the doc
// stays alive as long as any value does. A database driver's fresh string of the doc column
// is such a doc.
func DecodeDocString(k *Kind, doc string) (Record, error) {
	return decodeNamed(k, unsafeBytes(doc), doc)
}

// unsafeBytes is s's bytes, for reading only.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// decodeNamed is decodeDoc with its error naming the kind.
func decodeNamed(k *Kind, s []byte, doc string) (Record, error) {
	r, err := decodeDoc(k, s, doc)
	if err != nil {
		return Record{}, fmt.Errorf("decode %s doc: %w", k.Name, err)
	}
	return r, nil
}

// docField is one field of a doc being decoded: where its value (and, for an extra, its
// name) lie in the doc, found in a first pass.
type docField struct {
	pos       int // position in the kind's fields, or -1 for an extra
	name, val span
	valid     bool
}

// span is a string of the doc, s[a:b], holding escapes when esc; once placed, it is str[a:b]
// of the decoder's string instead when inStr.
type span struct {
	a, b       int
	esc, inStr bool
}

// decodeDoc reads s. With doc (s's bytes as a string the record may keep), the strings that
// need no unescaping are slices of doc and only the others are copied; without, every string
// is copied, into one allocation.
func decodeDoc(k *Kind, s []byte, doc string) (Record, error) {
	var local [64]docField
	fields := local[:0]
	var scratch [128]byte
	next, extras, escaped := 0, 0, 0
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return Record{}, errSyntax
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return k.NewRecord(), nil
	}
	for {
		a, b, esc, n, err := stringSpan(s, i)
		if err != nil {
			return Record{}, err
		}
		name := s[a:b]
		if esc {
			if name, err = appendUnescaped(scratch[:0], name); err != nil {
				return Record{}, err
			}
		}
		f := docField{pos: -1}
		if next < len(k.Fields) && string(name) == k.Fields[next] {
			f.pos = next
		} else {
			f.pos = k.Pos(string(name))
		}
		if f.pos >= 0 {
			next = f.pos + 1
		} else {
			extras++
			f.name = span{a: a, b: b, esc: esc}
			if esc {
				escaped += b - a
			}
		}
		i = skipSpace(s, n)
		if i >= len(s) || s[i] != ':' {
			return Record{}, errSyntax
		}
		i = skipSpace(s, i+1)
		if i+4 <= len(s) && string(s[i:i+4]) == "null" {
			i += 4
		} else {
			a, b, esc, n, err := stringSpan(s, i)
			if err != nil {
				return Record{}, err
			}
			f.val, f.valid, i = span{a: a, b: b, esc: esc}, true, n
			if esc {
				escaped += b - a
			}
		}
		fields = append(fields, f)
		i = skipSpace(s, i)
		if i >= len(s) {
			return Record{}, errSyntax
		}
		if s[i] == '}' {
			break
		}
		if s[i] != ',' {
			return Record{}, errSyntax
		}
		i = skipSpace(s, i+1)
	}
	// Second pass: the strings that must be copied go into one string (unescaping never
	// lengthens a string).
	var sb strings.Builder
	if doc == "" {
		sb.Grow(len(s))
	} else {
		sb.Grow(escaped)
	}
	place := func(sp *span) error {
		if !sp.esc && doc != "" {
			return nil
		}
		at := sb.Len()
		if sp.esc {
			u, err := appendUnescaped(scratch[:0], s[sp.a:sp.b])
			if err != nil {
				return err
			}
			sb.Write(u)
		} else {
			sb.Write(s[sp.a:sp.b])
		}
		*sp = span{a: at, b: sb.Len(), inStr: true}
		return nil
	}
	for j := range fields {
		f := &fields[j]
		if f.pos < 0 {
			if err := place(&f.name); err != nil {
				return Record{}, err
			}
		}
		if f.valid {
			if err := place(&f.val); err != nil {
				return Record{}, err
			}
		}
	}
	str := sb.String()
	at := func(sp span) string {
		if sp.inStr {
			return str[sp.a:sp.b]
		}
		return doc[sp.a:sp.b]
	}
	r := k.NewRecord()
	if extras > 0 {
		r.extras = make([]Extra, 0, extras)
	}
	for _, f := range fields {
		v := Null
		if f.valid {
			v = Str(at(f.val))
		}
		if f.pos >= 0 {
			r.values[f.pos] = v
		} else {
			r.extras = append(r.extras, Extra{Name: at(f.name), Value: v})
		}
	}
	return r, nil
}

// AppendView appends the record as a JSON object of the view's fields, in the view's order.
// The full view, which stands for all the public service sends, ends with the record's
// extras; narrower views hold what they name only. With numericIDs, id fields holding a
// whole number are written as JSON numbers (v2 search). A record still in its stored form is
// written from its doc's bytes; the error is that of a doc that does not decode.
func AppendView(b []byte, r Record, v *View, numericIDs bool) ([]byte, error) {
	if r.stored {
		var out []byte
		var ok bool
		if v.Name == FullView {
			out, ok = appendDocFull(b, r.Kind, r.doc, numericIDs)
		} else {
			out, ok = appendDocView(b, r.Kind, v, r.doc, numericIDs)
		}
		if ok {
			return out, nil
		}
		d, err := r.Decoded()
		if err != nil {
			return b, err
		}
		r = d
	}
	return appendView(b, r, v, numericIDs), nil
}

func appendView(b []byte, r Record, v *View, numericIDs bool) []byte {
	b = append(b, '{')
	for i, f := range v.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v.keys[i]...)
		val := Null
		if p := v.pos[i]; p < len(r.values) {
			val = r.values[p]
		}
		b = AppendValue(b, f, val, numericIDs)
	}
	if v.Name == FullView {
		b = appendExtras(b, r.extras, numericIDs)
	}
	return append(b, '}')
}

// AppendValue appends one field value: null, a string, or (numericIDs, an id field holding
// digits) a number.
func AppendValue(b []byte, field string, val Value, numericIDs bool) []byte {
	switch {
	case !val.Valid:
		return append(b, "null"...)
	case numericIDs && isIDField(field) && isDigits(val.S):
		return append(b, val.S...)
	}
	return AppendString(b, val.S)
}

// IsIDField says whether a field is an id (idTeam, idLeague): search answers send those
// holding an integer as JSON numbers.
func IsIDField(f string) bool { return isIDField(f) }

func isIDField(f string) bool {
	return len(f) > 2 && f[0] == 'i' && f[1] == 'd' && f[2] >= 'A' && f[2] <= 'Z'
}

func isDigits(s string) bool {
	if s == "" || len(s) > 18 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way the public service writes strings: '/'
// escaped as "\/", UTF-8 kept as it is, invalid UTF-8 replaced by U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < utf8.RuneSelf && !needsEscape(c):
			i += plainPrefix(s[i:])
		case c < utf8.RuneSelf:
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\', '/':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
				start = i + size
			}
			i += size
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func needsEscape(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c == '/' }

// plainPrefix returns how many bytes at the start of s are ASCII that needs no escaping,
// looking at eight bytes at a time. In each word it marks the bytes below 0x20 (x - 0x20…
// borrows into their top bit, which x itself lacks), the bytes equal to '"', '\\' or '/'
// (those whose XOR with it is zero), and the bytes of 0x80 and above; the lowest mark is
// exact, which is all that is needed.
func plainPrefix(s string) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	zero := func(x uint64) uint64 { return (x - ones) &^ x }
	n := 0
	for ; len(s) >= 8; s = s[8:] {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if m := ((x-0x20*ones)&^x | zero(x^('"'*ones)) | zero(x^('\\'*ones)) | zero(x^('/'*ones)) | x) & high; m != 0 {
			return n + bits.TrailingZeros64(m)/8
		}
		n += 8
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || needsEscape(c) {
			return n + i
		}
	}
	return n + len(s)
}

var errSyntax = errors.New("invalid JSON")

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// stringSpan finds the JSON string starting at s[i]: its content is s[a:b], esc says whether
// that holds escapes, and n is the index after the closing quote.
func stringSpan(s []byte, i int) (a, b int, esc bool, n int, err error) {
	if i >= len(s) || s[i] != '"' {
		return 0, 0, false, i, errSyntax
	}
	a = i + 1
	for j := a; j < len(s); j++ {
		switch s[j] {
		case '"':
			return a, j, esc, j + 1, nil
		case '\\':
			esc = true
			j++ // the escaped byte cannot end the string
		}
	}
	return 0, 0, false, len(s), errSyntax
}
