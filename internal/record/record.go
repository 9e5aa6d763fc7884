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

// Record is one record: Values is aligned with Kind.Fields.
type Record struct {
	Kind   *Kind
	Values []Value
	// Extras are the fields the record came with that its kind does not have, in the order
	// they came. The public service adds fields over time: keeping them (stored, exported
	// and answered after the known fields) means an import of tomorrow's answers loses
	// nothing. Most records have none: nil.
	Extras []Extra

	// doc is the record's stored form, and stored says the record is that form, not yet
	// decoded (FromDoc): Values and Extras are then nil.
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
	if p := r.Kind.Pos(field); p >= 0 && p < len(r.Values) {
		return r.Values[p]
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
	r.Values[p] = v
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
	out := Record{Kind: old.Kind, Values: make([]Value, len(old.Kind.Fields))}
	copy(out.Values, old.Values)
	for i, v := range incoming.Values {
		if i < len(out.Values) && replaces(v, out.Values[i]) {
			out.Values[i] = v
		}
	}
	out.Extras = mergeExtras(old.Extras, incoming.Extras)
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
	if a.Kind != b.Kind || len(a.Values) != len(b.Values) || len(a.Extras) != len(b.Extras) {
		return false
	}
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			return false
		}
	}
	for i := range a.Extras {
		if a.Extras[i] != b.Extras[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy whose values can be changed independently: a record still in its
// stored form is decoded (see orEmpty).
func (r Record) Clone() Record {
	r = r.orEmpty()
	v := make([]Value, len(r.Values))
	copy(v, r.Values)
	return Record{Kind: r.Kind, Values: v, Extras: cloneExtras(r.Extras)}
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
