package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The parsers below work on byte slices of a buffered window over the file. When one runs
// out of bytes before its value ends it returns errShort; the reader then reads more and the
// parser starts that value again. Only values that cross a buffer boundary are parsed twice,
// and no value is ever held in memory beyond the one being read.

var errShort = errors.New("short buffer")

const (
	readChunk = 256 << 10
	// maxValue bounds one record (or one envelope key or message) so that a file without
	// structure cannot make the importer read all of it into memory.
	maxValue = 64 << 20
	// maxField bounds one field's value: the longest real ones (descriptions) are a few
	// KiB, and a longer one would cost its size in every answer that holds the record.
	maxField = 1 << 20
)

// reader is a growable window over a file.
type reader struct {
	src  io.Reader
	buf  []byte
	pos  int   // next unread byte
	end  int   // end of the bytes read so far
	base int64 // file offset of buf[0]
	eof  bool
}

func newReader() *reader {
	return &reader{buf: make([]byte, readChunk)}
}

// reset starts reading src, reusing the buffer unless a long value made it large.
func (r *reader) reset(src io.Reader) {
	if len(r.buf) > 4*readChunk {
		r.buf = make([]byte, readChunk)
	}
	*r = reader{src: src, buf: r.buf}
}

// offset is the file offset of the next unread byte.
func (r *reader) offset() int64 { return r.base + int64(r.pos) }

// more reads more bytes after the unread ones, keeping those. At the end of the file it
// returns io.ErrUnexpectedEOF: a caller asks for more only while inside a value.
func (r *reader) more() error {
	if r.eof {
		return io.ErrUnexpectedEOF
	}
	if r.pos > 0 {
		r.base += int64(r.pos)
		r.end = copy(r.buf, r.buf[r.pos:r.end])
		r.pos = 0
	}
	if r.end == len(r.buf) {
		if len(r.buf) >= maxValue {
			return fmt.Errorf("a value longer than %d MB", maxValue>>20)
		}
		grown := make([]byte, 2*len(r.buf))
		copy(grown, r.buf[:r.end])
		r.buf = grown
	}
	// Fill the whole free space, even from a source that gives a few bytes per read, so a
	// value is parsed again at most once per buffer and reading stays linear.
	start, empty := r.end, 0
	for r.end < len(r.buf) {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if errors.Is(err, io.EOF) {
			r.eof = true
			break
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if empty = empty + 1; n > 0 {
			empty = 0
		} else if empty > 100 {
			return fmt.Errorf("read: %w", io.ErrNoProgress)
		}
	}
	if r.end == start {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// peek skips white space and returns the next byte; ok is false at the end of the file.
func (r *reader) peek() (c byte, ok bool, err error) {
	for {
		for r.pos < r.end {
			switch c := r.buf[r.pos]; c {
			case ' ', '\t', '\r', '\n':
				r.pos++
			default:
				return c, true, nil
			}
		}
		if r.eof {
			return 0, false, nil
		}
		if err := r.more(); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, false, err
		}
	}
}

// parse runs fn on the unread bytes until it has enough of them, and consumes what it used.
// Syntax errors come back with their offset in the file.
func (r *reader) parse(fn func(b []byte) (int, error)) error {
	for {
		n, err := fn(r.buf[r.pos:r.end])
		if errors.Is(err, errShort) {
			if err := r.more(); err != nil {
				if errors.Is(err, io.ErrUnexpectedEOF) {
					return errors.New("the file ends inside a value (truncated JSON)")
				}
				return err
			}
			continue
		}
		if se, ok := err.(*syntaxError); ok {
			return fmt.Errorf("invalid JSON at byte %d: %s", r.offset()+int64(se.at), se.msg)
		}
		if err != nil {
			return err
		}
		r.pos += n
		return nil
	}
}

// next returns the next byte without skipping anything; ok is false at the end of the file.
func (r *reader) next() (c byte, ok bool, err error) {
	for r.pos >= r.end {
		if r.eof {
			return 0, false, nil
		}
		if err := r.more(); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, false, err
		}
	}
	return r.buf[r.pos], true, nil
}

// skipBOM drops a UTF-8 byte order mark, which some editors write at the start of a file.
func (r *reader) skipBOM() error {
	for r.end-r.pos < 3 && !r.eof {
		if err := r.more(); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
	}
	if r.end-r.pos >= 3 && string(r.buf[r.pos:r.pos+3]) == "\xef\xbb\xbf" {
		r.pos += 3
	}
	return nil
}

// syntaxError is invalid JSON at a position of the slice being parsed.
type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func bad(at int, format string, args ...any) error {
	return &syntaxError{at: at, msg: fmt.Sprintf(format, args...)}
}

// typeError is a field value of a type that records cannot hold.
type typeError struct {
	field string
	what  string
}

func (e *typeError) Error() string {
	return fmt.Sprintf("field %s holds %s; values must be strings, numbers or null", safeName(e.field), e.what)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// valueType names the JSON type a value starting with c has, for messages.
func valueType(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '"':
		return "a string"
	}
	if c == '-' || (c >= '0' && c <= '9') {
		return "a number"
	}
	return fmt.Sprintf("the character %q", c)
}

// appendString reads the JSON string starting at b[i] (a '"'), appends its text to dst and
// returns the index after it. UTF-8 is checked once per record by the caller (see checkUTF8).
func appendString(dst, b []byte, i int) ([]byte, int, error) {
	i++
	for {
		j := i + plainLen(b[i:])
		if j == len(b) {
			return dst, j, errShort
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
			return dst, j, bad(j, "control character %#02x inside a string", c)
		}
	}
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
		return dst, i, errShort
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
		r, err := hex4(b, i+2)
		if err != nil {
			return dst, i, err
		}
		start := i
		i += 6
		if utf16.IsSurrogate(r) {
			// A pair is two escapes. A surrogate without its partner is no character: it is
			// refused, as invalid UTF-8 is, rather than stored as U+FFFD.
			switch {
			case i >= len(b), b[i] == '\\' && i+1 >= len(b), b[i] == '\\' && b[i+1] == 'u' && i+6 > len(b):
				return dst, i, errShort
			case b[i] == '\\' && b[i+1] == 'u':
				r2, err := hex4(b, i+2)
				if err != nil {
					return dst, i, err
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return utf8.AppendRune(dst, d), i + 6, nil
				}
			}
			return dst, start, bad(start, "\\u%04x is half of a UTF-16 surrogate pair without its other half", r)
		}
		return utf8.AppendRune(dst, r), i, nil
	default:
		return dst, i, bad(i, "invalid escape \\%c in a string", e)
	}
}

func hex4(b []byte, i int) (rune, error) {
	if i+4 > len(b) {
		return 0, errShort
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
			return 0, bad(i, "invalid \\u escape in a string")
		}
	}
	return r, nil
}

// appendNumber reads the JSON number at b[i] and appends its decimal text: the literal as
// written, or for a literal with an exponent its value in plain decimal notation.
func appendNumber(dst, b []byte, i int) ([]byte, int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if digits() == 0 {
		if i >= len(b) {
			return dst, i, errShort
		}
		return dst, i, bad(i, "invalid number")
	}
	if b[intStart] == '0' && i-intStart > 1 {
		return dst, i, bad(start, "invalid number (leading zero)")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return dst, i, shortOr(b, i, "invalid number")
		}
	}
	exp := false
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		exp = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return dst, i, shortOr(b, i, "invalid number")
		}
	}
	if i >= len(b) {
		return dst, i, errShort // the number may go on in the next read
	}
	if !exp {
		return append(dst, b[start:i]...), i, nil
	}
	f, err := strconv.ParseFloat(string(b[start:i]), 64)
	if err != nil {
		return dst, i, bad(start, "number %s out of range", b[start:i])
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64), i, nil
}

func shortOr(b []byte, i int, msg string) error {
	if i >= len(b) {
		return errShort
	}
	return bad(i, "%s", msg)
}

// literal checks that b[i:] starts with word.
func literal(b []byte, i int, word string) (int, error) {
	for j := 0; j < len(word); j++ {
		if i+j >= len(b) {
			return i, errShort
		}
		if b[i+j] != word[j] {
			return i, bad(i, "invalid literal (want %s)", word)
		}
	}
	return i + len(word), nil
}
