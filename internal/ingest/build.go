package ingest

import (
	"errors"
	"fmt"
	"strings"

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
	names   []string
	kind    *record.Kind
	pos     []int
	unknown bool // some field is fieldUnknown
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
	s := &shape{names: make([]string, len(fields)), pos: make([]int, len(fields))}
	var detect []string
	for i, f := range fields {
		s.names[i] = f.name
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
		s.unknown = s.unknown || s.pos[i] == fieldUnknown
	}
	return s
}

// build makes a record of the parsed object, completed from the request context.
func (b *builder) build(p *objectParser) (record.Record, error) {
	s := b.detect(p)
	k := s.kind
	if k == nil {
		return record.Record{}, fmt.Errorf("no record kind has these fields: %s", fieldList(p))
	}
	r := k.NewRecord()
	text := p.text()
	ascii := isASCII(text) // then every value is valid UTF-8 as it is
	for i, f := range p.fields {
		switch pos := s.pos[i]; {
		case pos == fieldComputed, pos == fieldUnknown:
		case f.null:
			r.Values[pos] = record.Null
		case ascii:
			r.Values[pos] = record.Str(text[f.start:f.end])
		default:
			r.Values[pos] = record.Str(fixUTF8(text[f.start:f.end]))
		}
	}
	for _, fl := range b.fills {
		if fl.kind == k && r.Values[k.Pos(fl.field)].Empty() {
			r.Set(fl.field, record.Str(fl.value))
		}
	}
	if _, err := r.ID(); err != nil {
		if errors.Is(err, record.ErrNoID) && (k == record.Season || k == record.Highlight) {
			return record.Record{}, fmt.Errorf("%w; give the request the body answered (--url, or a urls.tsv beside the files)", err)
		}
		return record.Record{}, err
	}
	// Counted for records that are built only: the parsers of an NDJSON file (see readLines)
	// leave one they cannot build to be read again.
	if s.unknown {
		for i, f := range p.fields {
			if s.pos[i] == fieldUnknown {
				b.noteUnknown(unknownField{k, f.name}, 1)
			}
		}
	}
	return r, nil
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
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}
