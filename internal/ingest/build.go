package ingest

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"sportsdb/internal/record"
)

// unknownField is a field a record carried that its kind does not have.
type unknownField struct {
	kind  *record.Kind
	field string
}

// builder turns parsed objects into records of the kind their fields show.
type builder struct {
	// shapes caches, by the field names of a record, its kind and where each field goes:
	// the records of one response share their field list, so detection runs once per
	// response shape. last is the shape of the previous record, checked first.
	shapes  map[string]*shape
	last    *shape
	sig     []byte
	fills   []fill
	unknown map[unknownField]int
}

// shape is a list of field names, the kind it shows (nil: none) and each field's position
// in that kind (fieldComputed, fieldUnknown, or an index into Values).
type shape struct {
	names []string
	kind  *record.Kind
	pos   []int
	// badName is the index of a name that is not valid UTF-8, or -1.
	badName int
}

const (
	fieldUnknown  = -1
	fieldComputed = -2
)

func newBuilder() *builder {
	return &builder{shapes: map[string]*shape{}, unknown: map[unknownField]int{}}
}

// detect returns the shape of the parsed object.
func (b *builder) detect(p *objectParser) *shape {
	if s := b.last; s != nil && len(s.names) == len(p.fields) {
		same := true
		for i, f := range p.fields {
			if f.name != s.names[i] {
				same = false
				break
			}
		}
		if same {
			return s
		}
	}
	b.sig = b.sig[:0]
	for _, f := range p.fields {
		b.sig = append(b.sig, f.name...)
		b.sig = append(b.sig, ',')
	}
	s, ok := b.shapes[string(b.sig)]
	if !ok {
		s = newShape(p.fields)
		if len(b.shapes) >= maxShapes {
			clear(b.shapes)
		}
		b.shapes[string(b.sig)] = s
	}
	b.last = s
	return s
}

func newShape(fields []fieldValue) *shape {
	s := &shape{names: make([]string, len(fields)), pos: make([]int, len(fields)), badName: -1}
	var detect []string
	for i, f := range fields {
		s.names[i] = f.name
		if s.badName < 0 && !utf8.ValidString(f.name) {
			s.badName = i
		}
		if !record.Computed[f.name] {
			detect = append(detect, f.name)
		}
	}
	s.kind = record.Detect(detect)
	for i, f := range fields {
		switch {
		case record.Computed[f.name]:
			s.pos[i] = fieldComputed
		case s.kind == nil:
			s.pos[i] = fieldUnknown
		default:
			s.pos[i] = s.kind.Pos(f.name)
		}
	}
	return s
}

// build makes a record of the parsed object, completed from the request context. Fields
// its kind does not have become the record's extras, in the order they came.
func (b *builder) build(p *objectParser) (record.Record, error) {
	s := b.detect(p)
	if s.badName >= 0 {
		return record.Record{}, fmt.Errorf("field name %s is not valid UTF-8 (the file must be UTF-8)", record.Quote(s.names[s.badName]))
	}
	k := s.kind
	if k == nil {
		return record.Record{}, fmt.Errorf("no record kind has these fields: %s", fieldList(p))
	}
	r := k.NewRecord()
	text := p.text()
	if !isASCII(text) { // else every value is valid UTF-8 as it is
		if err := checkUTF8(p, text); err != nil {
			return record.Record{}, err
		}
	}
	if err := checkNUL(p, text); err != nil {
		return record.Record{}, err
	}
	for i, f := range p.fields {
		v := record.Str(text[f.start:f.end])
		if f.null {
			v = record.Null
		}
		switch pos := s.pos[i]; pos {
		case fieldComputed:
		case fieldUnknown:
			r.SetExtra(f.name, v)
		default:
			r.SetAt(pos, v)
		}
	}
	for _, fl := range b.fills {
		if fl.kind == k && r.Get(fl.field).Empty() {
			r.Set(fl.field, record.Str(fl.value))
		}
	}
	if err := checkIDs(r); err != nil {
		return record.Record{}, err
	}
	// Counted for records that are built only: the parsers of an NDJSON file (see readLines)
	// leave one they cannot build to be read again.
	for _, e := range r.Extras() {
		b.noteUnknown(unknownField{k, e.Name}, 1)
	}
	return r, nil
}

// checkIDs checks that the record has an id and that a lookup can reach it and its
// references.
func checkIDs(r record.Record) error {
	if _, err := r.ID(); err != nil {
		if errors.Is(err, record.ErrNoID) && (r.Kind == record.Season || r.Kind == record.Highlight) {
			return fmt.Errorf("%w; give the request the body answered (--url, or a urls.tsv beside the files)", err)
		}
		return err
	}
	return r.CheckIDs()
}

// checkUTF8 refuses a value that is not valid UTF-8. Stored text must be valid, and
// replacing the bytes would change names silently: a file in another encoding (Latin-1)
// would have every accented letter replaced. The error names the field and where the bytes
// are, for the file to be converted or mended.
func checkUTF8(p *objectParser, text string) error {
	if utf8.ValidString(text) && !splitsRune(p, text) {
		return nil // one pass over the whole text instead of one call a field
	}
	for _, f := range p.fields {
		v := text[f.start:f.end]
		if utf8.ValidString(v) {
			continue
		}
		at := invalidAt(v)
		return fmt.Errorf("field %s holds invalid UTF-8: byte %#02x at byte %d of the value %s (the file must be UTF-8)",
			safeName(f.name), v[at], at, record.Quote(v))
	}
	return nil
}

// splitsRune says whether a value starts or ends inside a character of text: then the
// values are not valid UTF-8 each, even where their concatenation is.
func splitsRune(p *objectParser, text string) bool {
	for _, f := range p.fields {
		if f.start == f.end {
			continue
		}
		if !utf8.RuneStart(text[f.start]) || (f.end < len(text) && !utf8.RuneStart(text[f.end])) {
			return true
		}
	}
	return false
}

// checkNUL refuses a NUL character (\u0000) in a value: PostgreSQL cannot store one in
// text, so it is refused on every database, and an import that works on one works on both.
func checkNUL(p *objectParser, text string) error {
	if strings.IndexByte(text, 0) < 0 {
		return nil
	}
	for _, f := range p.fields {
		if at := strings.IndexByte(text[f.start:f.end], 0); at >= 0 {
			return fmt.Errorf("field %s holds a NUL character (\\u0000) at byte %d of its value, which the database cannot store", safeName(f.name), at)
		}
	}
	return nil
}

// invalidAt is the offset of the first byte of s that is not valid UTF-8.
func invalidAt(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// maxShapes and maxUnknown bound the tables a file of ever new field names would grow.
const (
	maxShapes  = 1024
	maxUnknown = 256
)

// noteUnknown counts n values of a field the kind does not have.
func (b *builder) noteUnknown(uf unknownField, n int) {
	if _, seen := b.unknown[uf]; !seen && len(b.unknown) >= maxUnknown {
		uf.field = "(more fields)"
	}
	b.unknown[uf] += n
}

// fieldList names the fields of a parsed object, shortened for a message.
func fieldList(p *objectParser) string {
	if len(p.fields) == 0 {
		return "(none, the object is empty)"
	}
	var names []string
	for i, f := range p.fields {
		if i == 8 {
			names = append(names, fmt.Sprintf("and %d more", len(p.fields)-i))
			break
		}
		names = append(names, safeName(f.name))
	}
	return strings.Join(names, ", ")
}
