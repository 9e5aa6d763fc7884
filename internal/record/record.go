package record

import (
	"errors"
	"fmt"
	"strings"
)

// Value is one field value: a string, or null when Valid is false. The public service sends
// every v1 value as a string or null; "" and null both mean no value but are kept apart,
// because clients see the difference.
type Value struct {
	S     string
	Valid bool
}

// Str returns a non-null value.
func Str(s string) Value { return Value{S: s, Valid: true} }

// Null is the null value.
var Null = Value{}

// Empty says whether the value carries nothing: null or "".
func (v Value) Empty() bool { return !v.Valid || v.S == "" }

// Record is one record of a kind. Its fields are read with Get and Str, set with Set, SetAt
// and SetExtra; a record read from a store stays in its stored form until one of those, or
// a Clone or Merge, needs its values.
type Record struct {
	Kind *Kind
	// values is aligned with Kind.Fields.
	values []Value
	// extras are the fields the record came with that its kind does not have, in the order
	// they came. The public service adds fields over time: keeping them (stored, exported
	// and answered after the known fields) means an import of tomorrow's answers loses
	// nothing. Most records have none: nil.
	extras []Extra

	// doc is the record's stored form, and stored says the record is that form, not yet
	// decoded (FromDoc): values and extras are then nil.
	doc    string
	stored bool
}

// Extra is a field the kind does not have, and its value.
type Extra struct {
	Name  string
	Value Value
}

// Get returns the value of a field, null for a field the kind does not have.
func (r Record) Get(field string) Value {
	if r.stored {
		if !r.Kind.Has(field) {
			return Null
		}
		return docValue(r.doc, field)
	}
	if p := r.Kind.Pos(field); p >= 0 && p < len(r.values) {
		return r.values[p]
	}
	return Null
}

// Str returns the text of a field, "" for null.
func (r Record) Str(field string) string { return r.Get(field).S }

// Set sets a field; it panics on a field the kind does not have, or on a record still in its
// stored form (Clone gives one that can be set): programming errors.
func (r Record) Set(field string, v Value) {
	if r.stored {
		panic("record: Set on a stored " + r.Kind.Name + " record")
	}
	p := r.Kind.Pos(field)
	if p < 0 {
		panic(fmt.Sprintf("record: %s has no field %s", r.Kind.Name, field))
	}
	r.values[p] = v
}

// SetAt sets the field at position pos of Kind.Fields, for a caller that has looked the
// position up once for many records; it panics where Set does, or on a position out of range.
func (r Record) SetAt(pos int, v Value) {
	if r.stored {
		panic("record: SetAt on a stored " + r.Kind.Name + " record")
	}
	r.values[pos] = v
}

// SetExtra sets a field the kind does not have: a name given twice keeps its first place
// and its last value, as a known field given twice does. It panics on a field the kind has,
// or on a record still in its stored form.
func (r *Record) SetExtra(name string, v Value) {
	if r.stored {
		panic("record: SetExtra on a stored " + r.Kind.Name + " record")
	}
	if r.Kind.Has(name) {
		panic(fmt.Sprintf("record: %s has a field %s: it is no extra", r.Kind.Name, name))
	}
	for i := range r.extras {
		if r.extras[i].Name == name {
			r.extras[i].Value = v
			return
		}
	}
	r.extras = append(r.extras, Extra{Name: name, Value: v})
}

// TakeExtra removes the extra field name and returns its value; ok is false when the record
// has no such extra.
func (r *Record) TakeExtra(name string) (v Value, ok bool) {
	for i := range r.extras {
		if r.extras[i].Name == name {
			v = r.extras[i].Value
			r.extras = append(r.extras[:i:i], r.extras[i+1:]...)
			return v, true
		}
	}
	return Null, false
}

// CheckFields says whether the record has a value, null or not, for every field of its
// kind. A Record literal has none: records are made with Kind.NewRecord, FromDoc or a decode.
func (r Record) CheckFields() error {
	if r.stored || len(r.values) == len(r.Kind.Fields) {
		return nil
	}
	return fmt.Errorf("%s record has %d values for %d fields", r.Kind.Name, len(r.values), len(r.Kind.Fields))
}

// Extras returns the fields the record has that its kind does not have, in the order they
// came (nil for most records); the caller must not change them.
func (r Record) Extras() []Extra {
	return r.orEmpty().extras
}

// ErrNoID is returned for a record whose id fields are empty.
var ErrNoID = errors.New("record has no id")

// ID is the record's id: its key fields joined by "|".
func (r Record) ID() (string, error) {
	parts := make([]string, len(r.Kind.Key))
	for i, f := range r.Kind.Key {
		v := r.Get(f)
		if v.Empty() {
			return "", fmt.Errorf("%s: %w (%s is empty)", r.Kind.Name, ErrNoID, f)
		}
		parts[i] = v.S
	}
	return strings.Join(parts, "|"), nil
}

// Merge returns old updated by incoming: a value of incoming replaces the stored one unless it
// is null, and "" replaces only null. So a summary or partial record never erases what a
// fuller record already set. Extras follow the same rule; those incoming does not mention
// are kept, and new ones come after the old ones.
func Merge(old, incoming Record) Record {
	old, incoming = old.orEmpty(), incoming.orEmpty()
	out := Record{Kind: old.Kind, values: make([]Value, len(old.Kind.Fields))}
	copy(out.values, old.values)
	for i, v := range incoming.values {
		if i < len(out.values) && replaces(v, out.values[i]) {
			out.values[i] = v
		}
	}
	out.extras = mergeExtras(old.extras, incoming.extras)
	return out
}

// replaces says whether an incoming value takes the place of the stored one (see Merge).
func replaces(incoming, stored Value) bool {
	return incoming.Valid && (incoming.S != "" || !stored.Valid)
}

func mergeExtras(old, incoming []Extra) []Extra {
	if len(incoming) == 0 {
		return cloneExtras(old)
	}
	out := make([]Extra, len(old), len(old)+len(incoming))
	copy(out, old)
next:
	for _, e := range incoming {
		for i := range out {
			if out[i].Name == e.Name {
				if replaces(e.Value, out[i].Value) {
					out[i].Value = e.Value
				}
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

func cloneExtras(es []Extra) []Extra {
	if len(es) == 0 {
		return nil
	}
	return append([]Extra(nil), es...)
}

// Equal says whether two records hold the same values, extras included.
func Equal(a, b Record) bool {
	a, errA := a.Decoded()
	b, errB := b.Decoded()
	if errA != nil || errB != nil {
		return false
	}
	if a.Kind != b.Kind || len(a.values) != len(b.values) || len(a.extras) != len(b.extras) {
		return false
	}
	for i := range a.values {
		if a.values[i] != b.values[i] {
			return false
		}
	}
	for i := range a.extras {
		if a.extras[i] != b.extras[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy whose values can be changed independently: a record still in its
// stored form is decoded (see orEmpty).
func (r Record) Clone() Record {
	r = r.orEmpty()
	v := make([]Value, len(r.values))
	copy(v, r.values)
	return Record{Kind: r.Kind, values: v, extras: cloneExtras(r.extras)}
}

// orEmpty is the record decoded, or, for a stored form that does not decode, a record of its
// kind with every field null. Readers of such a doc meet its error where they write it
// (AppendView) or decode it (Decoded).
func (r Record) orEmpty() Record {
	d, err := r.Decoded()
	if err != nil {
		return r.Kind.NewRecord()
	}
	return d
}

// String is the record's kind and its full view, for messages.
func (r Record) String() string {
	if r.Kind == nil {
		return "record{}"
	}
	b, err := AppendView([]byte(r.Kind.Name+" "), r, r.Kind.View(FullView), false)
	if err != nil {
		return r.Kind.Name + " (" + err.Error() + ") " + r.doc
	}
	return string(b)
}
