package record

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The stored form of a record (its "doc") is a compact JSON object of its non-null fields in
// field order. Field names rather than positions keep stored data readable when a kind gains
// a field. Encoding and decoding are hand-written because they sit on every request's path.

// EncodeDoc returns the stored form of a record.
func EncodeDoc(r Record) []byte {
	keys := docKeys[r.Kind]
	// Sized for the common case of nothing to escape, so the doc is allocated once.
	n := 2
	for i, v := range r.Values {
		if v.Valid {
			n += len(r.Kind.Fields[i]) + len(v.S) + 6
		}
	}
	for _, e := range r.Extras {
		n += len(e.Name) + len(e.Value.S) + 8
	}
	b := make([]byte, 0, n+n/16)
	b = append(b, '{')
	for i, v := range r.Values {
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
	return append(appendExtras(b, r.Extras, false), '}')
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
func DecodeDoc(k *Kind, doc []byte) (Record, error) {
	r := k.NewRecord()
	err := scanObject(doc, func(field string, v Value) error {
		if p := k.Pos(field); p >= 0 {
			r.Values[p] = v
		} else {
			r.Extras = append(r.Extras, Extra{Name: field, Value: v})
		}
		return nil
	})
	if err != nil {
		return Record{}, fmt.Errorf("decode %s doc: %w", k.Name, err)
	}
	return r, nil
}

// AppendView appends the record as a JSON object of the view's fields, in the view's order.
// The full view, which stands for all the public service sends, ends with the record's
// extras; narrower views hold what they name only. With numericIDs, id fields holding a
// whole number are written as JSON numbers (v2 search).
func AppendView(b []byte, r Record, v *View, numericIDs bool) []byte {
	b = append(b, '{')
	for i, f := range v.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, f)
		b = append(b, ':')
		val := Null
		if p := v.pos[i]; p < len(r.Values) {
			val = r.Values[p]
		}
		b = AppendValue(b, f, val, numericIDs)
	}
	if v.Name == FullView {
		b = appendExtras(b, r.Extras, numericIDs)
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

// scanObject reads a flat JSON object whose values are strings or null.
func scanObject(s []byte, fn func(field string, v Value) error) error {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return errSyntax
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return nil
	}
	for {
		field, n, err := readString(s, i)
		if err != nil {
			return err
		}
		i = skipSpace(s, n)
		if i >= len(s) || s[i] != ':' {
			return errSyntax
		}
		i = skipSpace(s, i+1)
		var v Value
		if i+4 <= len(s) && string(s[i:i+4]) == "null" {
			i += 4
		} else {
			str, n, err := readString(s, i)
			if err != nil {
				return err
			}
			v, i = Str(str), n
		}
		if err := fn(field, v); err != nil {
			return err
		}
		i = skipSpace(s, i)
		if i >= len(s) {
			return errSyntax
		}
		if s[i] == '}' {
			return nil
		}
		if s[i] != ',' {
			return errSyntax
		}
		i = skipSpace(s, i+1)
	}
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// readString reads the JSON string starting at s[i] and returns it and the index after it.
func readString(s []byte, i int) (string, int, error) {
	if i >= len(s) || s[i] != '"' {
		return "", i, errSyntax
	}
	i++
	start := i
	for i < len(s) && s[i] != '"' && s[i] != '\\' {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return string(s[start:i]), i + 1, nil
	}
	buf := append([]byte(nil), s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return string(buf), i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", i, errSyntax
			}
			e := s[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, n, ok := readHex4(s, i)
				if !ok {
					return "", i, errSyntax
				}
				i = n
				if utf16.IsSurrogate(r) {
					if r2, n2, ok := readHex4(s, i+2); ok && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r, i = d, n2
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", i, errSyntax
			}
		case c < 0x20:
			return "", i, errSyntax
		default:
			buf = append(buf, c)
			i++
		}
	}
	return "", i, errSyntax
}

func readHex4(s []byte, i int) (rune, int, bool) {
	if i+4 > len(s) {
		return 0, i, false
	}
	n, err := strconv.ParseUint(string(s[i:i+4]), 16, 16)
	if err != nil {
		return 0, i, false
	}
	return rune(n), i + 4, true
}
