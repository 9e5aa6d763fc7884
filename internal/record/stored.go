package record

import (
	"unicode/utf8"
)

// A record read from a store is kept as its stored form, its doc, until something needs its
// values: most answers only write records out, and the full view of a record is its doc
// with null put in for the fields it lacks (a doc holds the non-null fields in field order,
// escaped as answers escape). So a list answer copies docs into the answer instead of
// decoding every record and encoding it again. Get reads one field from the doc; Decoded,
// Clone, Merge and the writes decode it whole.

// FromDoc returns the record of kind k whose stored form is doc, not decoded: its values and
// extras stay nil until Decoded. doc must be a string the record may keep (a database
// driver's fresh string, or a copy). A doc that does not decode is an error of Decoded and
// AppendView; Get reads its fields as null.
func FromDoc(k *Kind, doc string) Record { return Record{Kind: k, doc: doc, stored: true} }

// Stored says whether the record is still its stored form (FromDoc), not decoded.
func (r Record) Stored() bool { return r.stored }

// Decoded returns the record with its values: r itself unless it is a stored form.
func (r Record) Decoded() (Record, error) {
	if !r.stored {
		return r, nil
	}
	return DecodeDocString(r.Kind, r.doc)
}

// docValue reads one field of a doc without decoding the others, stopping at the field: null
// when the doc does not have it or does not parse. The store writes each field once; of a
// doc that repeats one (which decoding reads as its last value), the first value is read.
func docValue(s string, field string) Value {
	in := unsafeBytes(s)
	i, end, ok := openObject(in)
	var scratch [128]byte
	for ok && !end {
		name, n, err := readName(in, i)
		if err != nil {
			return Null
		}
		val, null, n, err := readValue(in, n)
		if err != nil {
			return Null
		}
		key := in[name.a:name.b]
		if name.esc {
			if key, err = appendUnescaped(scratch[:0], key); err != nil {
				return Null
			}
		}
		if string(key) == field {
			switch {
			case null:
				return Null
			case !val.esc:
				return Str(s[val.a:val.b])
			}
			u, err := appendUnescaped(nil, in[val.a:val.b])
			if err != nil {
				return Null
			}
			return Str(string(u))
		}
		i, end, ok = nextMember(in, n)
	}
	return Null
}

// appendDocFull appends the full view of the record stored as s, copying the doc's values
// rather than decoding them: fields the doc lacks are written null, extras follow the
// fields. ok is false, and b comes back as it was given, when the doc is not as the store
// writes docs (fields out of order, a field after an extra, an escaped name, bad JSON): the
// caller then decodes it, which writes the same answer or finds the error.
func appendDocFull(b []byte, k *Kind, s string, numericIDs bool) (_ []byte, ok bool) {
	keys := k.Views[FullView].keys
	in := unsafeBytes(s)
	i, empty, ok := openObject(in)
	if !ok {
		return b, false
	}
	out := append(b, '{')
	next := 0 // the next field of the kind to write
	written := false
	sep := func() {
		if written {
			out = append(out, ',')
		}
		written = true
	}
	nulls := func(upto int) {
		for ; next < upto; next++ {
			sep()
			out = append(out, keys[next]...)
			out = append(out, "null"...)
		}
	}
	for !empty {
		var field string
		if next < len(keys) && len(s)-i >= len(keys[next]) && s[i:i+len(keys[next])] == keys[next] {
			// The common case: the doc's next field is the kind's next one, written as the
			// store writes it, colon included.
			field = k.Fields[next]
			sep()
			out = append(out, keys[next]...)
			next++
			i += len(keys[next-1])
		} else {
			name, n, err := readName(in, i)
			if err != nil || name.esc {
				return b, false
			}
			field = s[name.a:name.b]
			p := k.Pos(field)
			if p >= 0 && p < next {
				return b, false // out of order, or a field after an extra: decode it
			}
			if p < 0 {
				p = len(keys) // an extra: every field comes first
			}
			nulls(p)
			sep()
			if p < len(keys) {
				out = append(out, keys[p]...)
				next = p + 1
			} else {
				out = append(AppendString(out, field), ':')
			}
			i = n
		}
		i = skipSpace(in, i)
		switch {
		case len(s)-i >= 4 && s[i:i+4] == "null":
			out = append(out, "null"...)
			i += 4
		case numericIDs && isIDField(field):
			a, e, esc, n, err := stringSpan(in, i)
			if err != nil {
				return b, false
			}
			if !esc && isDigits(s[a:e]) {
				out = append(out, s[a:e]...)
				i = n
				break
			}
			if out, i, ok = appendCanonical(out, s, i); !ok {
				return b, false
			}
		default:
			if out, i, ok = appendCanonical(out, s, i); !ok {
				return b, false
			}
		}
		if i, empty, ok = nextMember(in, i); !ok {
			return b, false
		}
	}
	nulls(len(keys))
	return append(out, '}'), true
}

// appendDocView appends the record stored as s in a view other than the full one, copying
// the doc's values as appendDocFull does: a first pass finds where each field's value
// starts, a second writes the view's fields in its order. ok is false, and b comes back as
// it was given, when the doc is not as the store writes docs (a field repeated, an escaped
// name, bad JSON).
func appendDocView(b []byte, k *Kind, v *View, s string, numericIDs bool) (_ []byte, ok bool) {
	keys := k.Views[FullView].keys
	var local [96]int32
	at := local[:0]
	if len(keys) > len(local) {
		at = make([]int32, 0, len(keys))
	}
	at = at[:len(keys)]
	for p := range at {
		at[p] = -1
	}
	var scratch [256]byte
	in := unsafeBytes(s)
	i, end, ok := openObject(in)
	if !ok {
		return b, false
	}
	for next := 0; !end; {
		name, n, err := readName(in, i)
		if err != nil || name.esc {
			return b, false
		}
		p := next
		if next >= len(k.Fields) || s[name.a:name.b] != k.Fields[next] {
			p = k.Pos(s[name.a:name.b])
		}
		if p >= 0 {
			if at[p] >= 0 {
				return b, false
			}
			at[p], next = int32(n), p+1
		}
		val, null, n, err := readValue(in, n)
		if err != nil {
			return b, false
		}
		if !null && val.esc { // a value outside the view fails the doc's decoding as well
			if _, err := appendUnescaped(scratch[:0], in[val.a:val.b]); err != nil {
				return b, false
			}
		}
		if i, end, ok = nextMember(in, n); !ok {
			return b, false
		}
	}
	out := append(b, '{')
	for j, f := range v.Fields {
		if j > 0 {
			out = append(out, ',')
		}
		out = append(out, v.keys[j]...)
		i := int(at[v.pos[j]])
		switch {
		case i < 0 || (len(s)-i >= 4 && s[i:i+4] == "null"):
			out = append(out, "null"...)
		case numericIDs && isIDField(f):
			a, e, esc, _, _ := stringSpan(in, i)
			if !esc && isDigits(s[a:e]) {
				out = append(out, s[a:e]...)
				break
			}
			fallthrough
		default:
			if out, _, ok = appendCanonical(out, s, i); !ok {
				return b, false
			}
		}
	}
	return append(out, '}'), true
}

// openObject reads the opening brace of a doc: the index of its first member, or end for an
// empty object; ok is false for anything else.
func openObject(s []byte) (i int, end, ok bool) {
	i = skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return i, false, false
	}
	i = skipSpace(s, i+1)
	return i, i < len(s) && s[i] == '}', true
}

// readName reads a member's name and its colon at s[i]: the name's content is
// s[name.a:name.b], escaped when name.esc; next is where the value starts.
func readName(s []byte, i int) (name span, next int, err error) {
	a, e, esc, n, err := stringSpan(s, i)
	if err != nil {
		return span{}, i, err
	}
	i = skipSpace(s, n)
	if i >= len(s) || s[i] != ':' {
		return span{}, i, errSyntax
	}
	return span{a: a, b: e, esc: esc}, skipSpace(s, i+1), nil
}

// readValue reads a member's value at s[i], null or a string whose content is
// s[val.a:val.b], and returns the index after it.
func readValue(s []byte, i int) (val span, null bool, next int, err error) {
	if i+4 <= len(s) && string(s[i:i+4]) == "null" {
		return span{}, true, i + 4, nil
	}
	a, e, esc, n, err := stringSpan(s, i)
	if err != nil {
		return span{}, false, i, err
	}
	return span{a: a, b: e, esc: esc}, false, n, nil
}

// nextMember reads what follows a member of an object at s[i]: the start of the next member
// after a comma, or end at the closing brace; ok is false for anything else.
func nextMember(s []byte, i int) (next int, end, ok bool) {
	i = skipSpace(s, i)
	switch {
	case i >= len(s):
		return i, false, false
	case s[i] == '}':
		return i, true, true
	case s[i] != ',':
		return i, false, false
	}
	return skipSpace(s, i+1), false, true
}

// appendCanonical appends the JSON string at s[i] as AppendString writes its content,
// copying the runs that are already written that way, and returns the index after it. ok is
// false for a string that does not parse.
func appendCanonical(out []byte, s string, i int) (_ []byte, next int, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return out, i, false
	}
	start := len(out)
	out = append(out, '"')
	j := i + 1
	for {
		n := plainPrefix(s[j:])
		out = append(out, s[j:j+n]...)
		j += n
		if j >= len(s) {
			return out, j, false
		}
		switch c := s[j]; {
		case c == '"':
			return append(out, '"'), j + 1, true
		case c == '/':
			out = append(out, '\\', '/')
			j++
		case c == '\\' && j+1 < len(s) && isShortEscape(s[j+1]):
			out = append(out, c, s[j+1])
			j += 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size == 1 {
				return reencode(out[:start], s, i)
			}
			out = append(out, s[j:j+size]...)
			j += size
		default:
			// Another escape, or a control character: written by the decoder's rules.
			return reencode(out[:start], s, i)
		}
	}
}

// isShortEscape says whether \c is an escape AppendString writes as it is.
func isShortEscape(c byte) bool {
	return c == '"' || c == '\\' || c == '/' || c == 'n' || c == 'r' || c == 't'
}

// reencode appends the JSON string at s[i] decoded and encoded again: what DecodeDoc and
// AppendString make of it.
func reencode(out []byte, s string, i int) ([]byte, int, bool) {
	in := unsafeBytes(s)
	a, e, esc, n, err := stringSpan(in, i)
	if err != nil {
		return out, i, false
	}
	if !esc {
		return AppendString(out, s[a:e]), n, true
	}
	u, err := appendUnescaped(nil, in[a:e])
	if err != nil {
		return out, i, false
	}
	return AppendString(out, string(u)), n, true
}

// Footprint is about how many bytes r holds: its doc, or its values and extras.
func (r Record) Footprint() int {
	n := 64 + len(r.doc)
	for _, v := range r.values {
		n += 24 + len(v.S)
	}
	for _, e := range r.extras {
		n += 48 + len(e.Name) + len(e.Value.S)
	}
	return n
}
