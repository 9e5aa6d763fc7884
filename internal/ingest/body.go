package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/record"
)

// ErrTrailingData is a JSON body with more after its one value: often NDJSON read as JSON.
var ErrTrailingData = errors.New("more data after the end of the body")

// A body is read in one of three shapes: a response body of the public service (an object
// whose keys hold arrays of records, null, or a message), a bare array of records, or one
// record object alone. NDJSON files hold one record object per line.

// recordFunc receives each parsed record; where says which one it is, for messages.
type recordFunc func(p *objectParser, where func() string) error

// bodyReader reads the records of one file.
type bodyReader struct {
	r        *reader
	obj      *objectParser
	onRecord recordFunc
	// onDelete receives each delete line of NDJSON (see deletes.go).
	onDelete func(k *record.Kind, id string, where func() string) error
	// isRecord says whether a flat object is a record rather than a message body.
	isRecord func(p *objectParser) bool
	// messages are the texts a body carried instead of records.
	messages []string
	key      []byte
}

func newBodyReader(r *reader, obj *objectParser, isRecord func(*objectParser) bool, fn recordFunc) *bodyReader {
	return &bodyReader{r: r, obj: obj, isRecord: isRecord, onRecord: fn}
}

// readJSON reads a response body, a bare array of records or a single record.
func (b *bodyReader) readJSON() error {
	if err := b.r.skipBOM(); err != nil {
		return err
	}
	c, ok, err := b.r.peek()
	switch {
	case err != nil:
		return err
	case !ok:
		return nil // an empty body: the public service's answer to a refused combination
	case c == '[':
		b.r.pos++
		if err := b.readArray("record"); err != nil {
			return err
		}
	case c == '{':
		if err := b.readObject(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("want a JSON object or array, found %s", valueType(c))
	}
	if _, ok, err := b.r.peek(); err != nil || ok {
		if err != nil {
			return err
		}
		return fmt.Errorf("invalid JSON at byte %d: %w", b.r.offset(), ErrTrailingData)
	}
	return nil
}

// readObject reads a top-level object. One whose values are all flat is a single record or
// a message body; one holding arrays is an envelope, read key by key.
func (b *bodyReader) readObject() error {
	err := b.r.parse(b.obj.parse)
	var te *typeError
	switch {
	case err == nil:
		if b.isRecord(b.obj) {
			return b.onRecord(b.obj, func() string { return "record" })
		}
		b.noteMessages()
		return nil
	case errors.As(err, &te) && (te.what == "an array" || te.what == "an object"):
		return b.readEnvelope()
	case te != nil:
		return fmt.Errorf("key %s holds %s; want an array of records, null or a message", safeName(te.field), te.what)
	}
	return err
}

// noteMessages keeps the values of a flat body that is not a record, like
// {"seasons":"Invalid League ID passed"} or {"Message":"No data found"}, as one message.
func (b *bodyReader) noteMessages() {
	text := b.obj.text()
	var parts []string
	for _, f := range b.obj.fields {
		if !f.null {
			parts = append(parts, safeName(f.name)+": "+safeName(text[f.start:f.end]))
		}
	}
	if len(parts) > 0 {
		b.messages = append(b.messages, strings.Join(parts, "; "))
	}
}

func (b *bodyReader) readEnvelope() error {
	b.r.pos++ // the '{' seen by readObject
	for first := true; ; first = false {
		c, err := b.expect("a key or '}'")
		if err != nil {
			return err
		}
		if c == '}' && first {
			b.r.pos++
			return nil
		}
		if c != '"' {
			return b.syntax("want a key, found %s", valueType(c))
		}
		if err := b.r.parse(func(s []byte) (n int, err error) {
			b.key, n, err = record.AppendJSONString(b.key[:0], s, 0)
			return n, err
		}); err != nil {
			return err
		}
		key := string(b.key)
		if c, err = b.expect("':'"); err != nil {
			return err
		}
		if c != ':' {
			return b.syntax("want ':' after key %q", key)
		}
		b.r.pos++
		if err := b.readEnvelopeValue(key); err != nil {
			return err
		}
		if c, err = b.expect("',' or '}'"); err != nil {
			return err
		}
		b.r.pos++
		switch c {
		case '}':
			return nil
		case ',':
		default:
			return b.syntaxAt(b.r.offset()-1, "want ',' or '}' after the value of key %q", key)
		}
	}
}

func (b *bodyReader) readEnvelopeValue(key string) error {
	c, err := b.expect("a value")
	if err != nil {
		return err
	}
	switch c {
	case '[':
		b.r.pos++
		return b.readArray(key)
	case 'n':
		return b.r.parse(func(s []byte) (int, error) { return literal(s, 0, "null") })
	case '"':
		var msg []byte
		if err := b.r.parse(func(s []byte) (n int, err error) {
			msg, n, err = record.AppendJSONString(msg[:0], s, 0)
			return n, err
		}); err != nil {
			return err
		}
		b.messages = append(b.messages, safeName(key)+": "+safeName(string(msg)))
		return nil
	}
	return fmt.Errorf("key %q holds %s; want an array of records, null or a message", key, valueType(c))
}

// readArray reads the records of an array whose '[' has been consumed.
func (b *bodyReader) readArray(label string) error {
	c, err := b.expect("a record or ']'")
	if err != nil {
		return err
	}
	if c == ']' {
		b.r.pos++
		return nil
	}
	for i := 0; ; i++ {
		where := func() string { return fmt.Sprintf("%s[%d]", safeName(label), i) }
		if err := b.r.parse(b.obj.parse); err != nil {
			return &FileError{Where: where(), Err: err}
		}
		if err := b.onRecord(b.obj, where); err != nil {
			return err
		}
		if c, err = b.expect("',' or ']'"); err != nil {
			return err
		}
		b.r.pos++
		switch c {
		case ']':
			return nil
		case ',':
		default:
			return b.syntaxAt(b.r.offset()-1, "want ',' or ']' after %s", where())
		}
	}
}

// expect returns the next byte after white space; the end of the file is an error here.
func (b *bodyReader) expect(want string) (byte, error) {
	c, ok, err := b.r.peek()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("the file ends where %s should be (truncated JSON)", want)
	}
	return c, nil
}

func (b *bodyReader) syntax(format string, args ...any) error {
	return b.syntaxAt(b.r.offset(), format, args...)
}

func (b *bodyReader) syntaxAt(off int64, format string, args ...any) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", off, fmt.Sprintf(format, args...))
}

// readLines reads NDJSON from the start of the given line.
func (b *bodyReader) readLines(line int) error {
	for {
		c, ok, err := b.r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch c {
		case '\n':
			line++
			b.r.pos++
			continue
		case ' ', '\t', '\r':
			b.r.pos++
			continue
		}
		start := line
		where := func() string { return fmt.Sprintf("line %d", start) }
		if done, err := b.readDelete(where); done || err != nil {
			if err == nil {
				err = b.endOfLine()
				if err != nil {
					err = &FileError{Where: where(), Err: err}
				}
			}
			if err != nil {
				return err
			}
			continue
		}
		err = b.r.parse(func(s []byte) (int, error) {
			n, err := b.obj.parse(s)
			if err == nil {
				line += bytes.Count(s[:n], []byte{'\n'})
			}
			return n, err
		})
		if err != nil {
			if b.truncatedLine() {
				err = errTruncatedLine
			}
			return &FileError{Where: where(), Err: err}
		}
		if err := b.onRecord(b.obj, where); err != nil {
			return err
		}
		if err := b.endOfLine(); err != nil {
			return &FileError{Where: where(), Err: err}
		}
	}
}

// readDelete reads a delete line at the reader's position, if one starts there, and hands
// it to onDelete; done says it did.
func (b *bodyReader) readDelete(where func() string) (done bool, err error) {
	if b.onDelete == nil {
		return false, nil
	}
	isDelete := false
	if err := b.r.parse(func(s []byte) (int, error) {
		yes, short := isDeleteStart(s)
		if short && !b.r.eof {
			return 0, errShort
		}
		isDelete = yes && !short
		return 0, nil
	}); err != nil {
		return false, &FileError{Where: where(), Err: err}
	}
	if !isDelete {
		return false, nil
	}
	var k *record.Kind
	var id string
	if err := b.r.parse(func(s []byte) (n int, err error) {
		k, id, n, err = parseDelete(s, b.r.eof)
		return n, err
	}); err != nil {
		return true, &FileError{Where: where(), Err: err}
	}
	return true, b.onDelete(k, id, where)
}

var errTruncatedLine = errors.New("the line is truncated: it ends inside its record, and the next line starts another record")

// truncatedLine says whether the record that failed to parse at the reader's position is a
// line cut short (a file cut mid-record, then appended to): its line alone ends inside the
// record, and the next line that is not blank starts another record. Read on into that
// line, such a record fails with an error about the next record's text, which misleads.
func (b *bodyReader) truncatedLine() bool {
	s := b.r.buf[b.r.pos:b.r.end]
	nl := bytes.IndexByte(s, '\n')
	if nl < 0 {
		return false
	}
	if _, err := newObjectParser().parse(s[:nl]); !errors.Is(err, errShort) {
		return false
	}
	rest := bytes.TrimLeft(s[nl+1:], " \t\r\n")
	return len(rest) > 0 && rest[0] == '{'
}

// endOfLine checks that nothing but white space follows a record on its line.
func (b *bodyReader) endOfLine() error {
	for {
		c, ok, err := b.r.next()
		if err != nil || !ok || c == '\n' {
			return err
		}
		if c != ' ' && c != '\t' && c != '\r' {
			return fmt.Errorf("invalid JSON at byte %d: more than one value on the line (NDJSON holds one record per line)", b.r.offset())
		}
		b.r.pos++
	}
}
