// Package record defines the record kinds of the sports database as data: for each kind its
// fields in the order the public service sends them, its id, the fields queries use, and the
// views (subsets of fields, in wire order) that endpoints answer with.
package record

import (
	"fmt"
	"strings"
)

// Norm says how an indexed field is kept for matching.
type Norm int

const (
	// Exact keeps the value as it is.
	Exact Norm = iota
	// Name keeps a folded copy (see Fold) for case- and accent-insensitive matching and sorting.
	Name
	// List keeps a folded copy of a comma separated list as ",a,b,c," so one item can be matched.
	List
)

// Index is a field that queries filter or sort on; the stores keep it in a column of its own.
type Index struct {
	Field string
	Norm  Norm
}

// Column is the storage column of an indexed field.
func (ix Index) Column() string {
	switch ix.Norm {
	case Name:
		return "n_" + strings.ToLower(ix.Field)
	case List:
		return "l_" + strings.ToLower(ix.Field)
	}
	return "c_" + strings.ToLower(ix.Field)
}

// Kind is one kind of record.
type Kind struct {
	// Name is the kind's name, also its table name.
	Name string
	// Fields lists every field the kind can hold, in the order of the fullest v1 view.
	Fields []string
	// Key names the fields whose values, joined by "|", form the record's id.
	Key []string
	// Indexed are the fields queries use.
	Indexed []Index
	// Views are the named field lists endpoints answer with; "full" is always Fields.
	Views map[string]*View
	// Searched are the storage columns (Index.Column) of the names searched inside
	// (Contains, ListContains, ListHas) that the stores index for it: SQLite's trigram tables
	// and narrow search indexes, PostgreSQL's trigram indexes, the in-memory name index. A
	// search inside any other column scans.
	Searched []string

	pos map[string]int
	// idPos are the positions of the id fields CheckIDs checks.
	idPos []int
}

// Pos is the position of field in Fields, or -1.
func (k *Kind) Pos(field string) int {
	if p, ok := k.pos[field]; ok {
		return p
	}
	return -1
}

// Has says whether the kind has the field.
func (k *Kind) Has(field string) bool { _, ok := k.pos[field]; return ok }

// IndexOf returns the index definition of an indexed field.
func (k *Kind) IndexOf(field string, norm Norm) (Index, bool) {
	for _, ix := range k.Indexed {
		if ix.Field == field && ix.Norm == norm {
			return ix, true
		}
	}
	return Index{}, false
}

// View returns the named view; it panics on an unknown name, which is a programming error.
func (k *Kind) View(name string) *View {
	v, ok := k.Views[name]
	if !ok {
		panic(fmt.Sprintf("record: kind %s has no view %q", k.Name, name))
	}
	return v
}

// NewRecord returns an empty record of the kind: every field null.
func (k *Kind) NewRecord() Record {
	return Record{Kind: k, values: make([]Value, len(k.Fields))}
}

// FullView names the view of every field, which answers also end with the record's extras.
const FullView = "full"

// View is an ordered subset of a kind's fields.
type View struct {
	Name   string
	Fields []string
	pos    []int
	// keys are the fields as an answer writes them, "name":, and fixed the bytes a record in
	// the view takes besides its values: braces, keys and commas.
	keys  []string
	fixed int
}

// Size is about the length of the record in the view (AppendView): exact when nothing needs
// escaping and the record has no extras. Answers size their buffer with it once.
func (v *View) Size(r Record) int {
	if r.stored {
		// Not known without reading the doc. The full view is the doc and the nulls of
		// the fields it lacks: allow a quarter of the keys for those. A narrower view
		// is its keys and about 32 bytes a value, at most that: the doc may be far larger
		// (a player's descriptions), and an answer buffer that large is garbage to collect.
		full := len(r.doc) + v.fixed/4
		if v.Name == FullView {
			return full
		}
		return min(full, v.fixed+32*len(v.pos))
	}
	n := v.fixed
	for _, p := range v.pos {
		if p < len(r.values) && r.values[p].Valid {
			n += len(r.values[p].S) + 2
		} else {
			n += len("null")
		}
	}
	if v.Name == FullView {
		for _, e := range r.extras {
			n += len(e.Name) + len(e.Value.S) + 8
		}
	}
	return n
}

// ListSize is about the length of the records in the view, comma separated (see Size).
func (v *View) ListSize(recs []Record) int {
	n := 0
	for _, r := range recs {
		n += v.Size(r) + 1
	}
	return n
}

func newKind(name string, fields []string, key []string, indexed []Index, views map[string][]string) *Kind {
	k := &Kind{Name: name, Fields: fields, Key: key, Indexed: indexed, Views: map[string]*View{}, pos: map[string]int{}}
	for i, f := range fields {
		if _, dup := k.pos[f]; dup {
			panic("record: duplicate field " + f + " in " + name)
		}
		k.pos[f] = i
	}
	for _, f := range key {
		if !k.Has(f) {
			panic("record: key field " + f + " not in " + name)
		}
	}
	for _, ix := range indexed {
		if !k.Has(ix.Field) {
			panic("record: indexed field " + ix.Field + " not in " + name)
		}
	}
	k.idPos = idPositions(k)
	if views == nil {
		views = map[string][]string{}
	}
	if _, ok := views[FullView]; !ok {
		views[FullView] = fields
	}
	for vn, vf := range views {
		v := &View{Name: vn, Fields: vf, pos: make([]int, len(vf)), keys: make([]string, len(vf)), fixed: 2 + max(0, len(vf)-1)}
		for i, f := range vf {
			p := k.Pos(f)
			if p < 0 {
				panic("record: view " + vn + " of " + name + " names unknown field " + f)
			}
			v.pos[i] = p
			v.keys[i] = string(append(AppendString(nil, f), ':'))
			v.fixed += len(v.keys[i])
		}
		k.Views[vn] = v
	}
	return k
}
