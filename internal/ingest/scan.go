package ingest

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"sportsdb/internal/record"
)

// The parsers below work on byte slices of a buffered window over the file. When one runs
// out of bytes before its value ends it returns errShort; the reader then reads more and the
// parser starts that value again. Only values that cross a buffer boundary are parsed twice,
// and no value is ever held in memory beyond the one being read.

var errShort = record.ErrShort

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
			return fmt.Errorf("invalid JSON at byte %d: %s", r.offset()+int64(se.At), se.Msg)
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
type syntaxError = record.SyntaxError

var bad = record.NewSyntaxError

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
