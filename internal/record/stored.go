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

// FromDoc returns the record of kind k whose stored form is doc, not decoded: its Values and
// Extras stay nil until Decoded. doc must be a string the record may keep (a database
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
	b := unsafeBytes(s)
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Null
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return Null
	}
	var scratch [128]byte
	for {
		a, e, esc, n, err := stringSpan(b, i)
		if err != nil {
			return Null
		}
		name := b[a:e]
		if esc {
			if name, err = appendUnescaped(scratch[:0], name); err != nil {
				return Null
			}
		}
		match := string(name) == field
		i = skipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return Null
		}
		i = skipSpace(b, i+1)
		if i+4 <= len(b) && s[i:i+4] == "null" {
			if match {
				return Null
			}
			i += 4
		} else {
			a, e, esc, n, err := stringSpan(b, i)
			if err != nil {
				return Null
			}
			switch {
			case !match:
			case !esc:
				return Str(s[a:e])
			default:
				u, err := appendUnescaped(nil, b[a:e])
				if err != nil {
					return Null
				}
				return Str(string(u))
			}
			i = n
		}
		var end, ok bool
		if i, end, ok = nextMember(b, i); !ok || end {
			return Null
		}
	}
}

// appendDocFull appends the full view of the record stored as s, copying the doc's values
// rather than decoding them: fields the doc lacks are written null, extras follow the
// fields. ok is false, and b comes back as it was given, when the doc is not as the store
// writes docs (fields out of order, a field after an extra, an escaped name, bad JSON): the
// caller then decodes it, which writes the same answer or finds the error.
func appendDocFull(b []byte, k *Kind, s string, numericIDs bool) (_ []byte, ok bool) {
	keys := k.Views[FullView].keys
	in := unsafeBytes(s)
	out := b
	i := skipSpace(in, 0)
	if i >= len(in) || in[i] != '{' {
		return b, false
	}
	out = append(out, '{')
	i = skipSpace(in, i+1)
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
	empty := i < len(in) && in[i] == '}'
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
			a, e, esc, n, err := stringSpan(in, i)
			if err != nil || esc {
				return b, false
			}
			field = s[a:e]
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
			i = skipSpace(in, n)
			if i >= len(in) || in[i] != ':' {
				return b, false
			}
			i++
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
		var end bool
		if i, end, ok = nextMember(in, i); !ok {
			return b, false
		}
		if end {
			break
		}
	}
	if next < len(keys) {
		nulls(len(keys))
	}
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
	i := skipSpace(in, 0)
	if i >= len(in) || in[i] != '{' {
		return b, false
	}
	i = skipSpace(in, i+1)
	next := 0
	for empty := i < len(in) && in[i] == '}'; !empty; {
		p := -1
		if next < len(keys) && len(s)-i >= len(keys[next]) && s[i:i+len(keys[next])] == keys[next] {
			p, i = next, i+len(keys[next])
		} else {
			a, e, esc, n, err := stringSpan(in, i)
			if err != nil || esc {
				return b, false
			}
			p = k.Pos(s[a:e])
			i = skipSpace(in, n)
			if i >= len(in) || in[i] != ':' {
				return b, false
			}
			i++
		}
		i = skipSpace(in, i)
		if p >= 0 {
			if at[p] >= 0 {
				return b, false
			}
			at[p], next = int32(i), p+1
		}
		if len(s)-i >= 4 && s[i:i+4] == "null" {
			i += 4
		} else {
			a, e, esc, n, err := stringSpan(in, i)
			if err != nil {
				return b, false
			}
			if esc { // a value outside the view fails the doc's decoding as well
				if _, err := appendUnescaped(scratch[:0], in[a:e]); err != nil {
					return b, false
				}
			}
			i = n
		}
		var end bool
		if i, end, ok = nextMember(in, i); !ok {
			return b, false
		}
		if end {
			break
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
