package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// One reader of JSON strings serves the importer, which reads strings out of a file through
// a window and must say where an error is, and the decoding of stored docs.

// ErrShort says that the bytes end inside the value being read: a reader of a stream reads
// more and reads the value again.
var ErrShort = errors.New("short buffer")

// SyntaxError is invalid JSON at an index of the bytes being read.
type SyntaxError struct {
	At  int
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// NewSyntaxError returns a SyntaxError at index at.
func NewSyntaxError(at int, format string, args ...any) error {
	return &SyntaxError{At: at, Msg: fmt.Sprintf(format, args...)}
}

// AppendJSONString reads the JSON string starting at b[i] (a '"'), appends its text with
// escapes resolved to dst and returns the index after it. UTF-8 outside escapes is copied
// unchecked: callers check it once per record. A surrogate escape without its partner is
// refused, as invalid UTF-8 is, rather than stored as U+FFFD.
func AppendJSONString(dst, b []byte, i int) ([]byte, int, error) {
	i++
	for {
		j := i + plainLen(b[i:])
		if j == len(b) {
			return dst, j, ErrShort
		}
		dst = append(dst, b[i:j]...)
		switch c := b[j]; c {
		case '"':
			return dst, j + 1, nil
		case '\\':
			var err error
			if dst, i, err = appendEscape(dst, b, j); err != nil {
				return dst, i, err
			}
		default:
			return dst, j, NewSyntaxError(j, "control character %#02x inside a string", c)
		}
	}
}

// appendUnescaped appends the content of a JSON string (without its quotes), its escapes
// resolved. A stored doc is read as encoding/json reads it: a surrogate escape without its
// partner becomes U+FFFD, so that a doc the store holds is always readable.
func appendUnescaped(dst, s []byte) ([]byte, error) {
	for i := 0; ; {
		j := i + plainLen(s[i:])
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			return dst, nil
		}
		if s[j] != '\\' {
			return dst, NewSyntaxError(j, "control character %#02x inside a string", s[j])
		}
		var err error
		if dst, i, err = appendEscape(dst, s, j); err != nil {
			if !loneSurrogate(s, j) {
				return dst, err
			}
			dst, i = utf8.AppendRune(dst, utf8.RuneError), j+6
		}
	}
}

// loneSurrogate says whether the escape at s[i] is a \u escape of a surrogate, which
// appendEscape refused for want of its partner.
func loneSurrogate(s []byte, i int) bool {
	if i+1 >= len(s) || s[i+1] != 'u' {
		return false
	}
	r, err := hex4(s, i+2)
	return err == nil && utf16.IsSurrogate(r)
}

// plainLen returns how many bytes at the start of s a string holds as they are: all but
// '"', '\\' and the control characters. It looks at eight bytes at a time: (x - 0x20…) &^ x
// marks the bytes of x below 0x20 in their top bit, and so does (y - 0x01…) &^ y for the
// zero bytes of y = x XOR '"'… (the quotes) and of x XOR '\\'…; only the lowest mark of a
// word is exact, and only it is used.
func plainLen(s []byte) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	n := 0
	for ; len(s) >= 8; s = s[8:] {
		x := binary.LittleEndian.Uint64(s)
		q, bs := x^('"'*ones), x^('\\'*ones)
		if m := ((x - 0x20*ones) &^ x) | ((q - ones) &^ q) | ((bs - ones) &^ bs); m&high != 0 {
			return n + bits.TrailingZeros64(m&high)/8
		}
		n += 8
	}
	for i, c := range s {
		if c < 0x20 || c == '"' || c == '\\' {
			return n + i
		}
	}
	return n + len(s)
}

// appendEscape decodes the escape sequence at b[i] (a '\\').
func appendEscape(dst, b []byte, i int) ([]byte, int, error) {
	if i+1 >= len(b) {
		return dst, i, ErrShort
	}
	switch e := b[i+1]; e {
	case '"', '\\', '/':
		return append(dst, e), i + 2, nil
	case 'b':
		return append(dst, '\b'), i + 2, nil
	case 'f':
		return append(dst, '\f'), i + 2, nil
	case 'n':
		return append(dst, '\n'), i + 2, nil
	case 'r':
		return append(dst, '\r'), i + 2, nil
	case 't':
		return append(dst, '\t'), i + 2, nil
	case 'u':
		return appendUnicode(dst, b, i)
	default:
		return dst, i, NewSyntaxError(i, "invalid escape \\%c in a string", e)
	}
}

// appendUnicode decodes the \u escape at b[i], or the pair of them a surrogate pair is.
func appendUnicode(dst, b []byte, i int) ([]byte, int, error) {
	r, err := hex4(b, i+2)
	if err != nil {
		return dst, i, err
	}
	start := i
	i += 6
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r), i, nil
	}
	switch {
	case i >= len(b), b[i] == '\\' && i+1 >= len(b), b[i] == '\\' && b[i+1] == 'u' && i+6 > len(b):
		return dst, i, ErrShort
	case b[i] == '\\' && b[i+1] == 'u':
		r2, err := hex4(b, i+2)
		if err != nil {
			return dst, i, err
		}
		if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
			return utf8.AppendRune(dst, d), i + 6, nil
		}
	}
	return dst, start, NewSyntaxError(start, "\\u%04x is half of a UTF-16 surrogate pair without its other half", r)
}

func hex4(b []byte, i int) (rune, error) {
	if i+4 > len(b) {
		return 0, ErrShort
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, NewSyntaxError(i, "invalid \\u escape in a string")
		}
	}
	return r, nil
}
