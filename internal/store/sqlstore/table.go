package sqlstore

import (
	"errors"
	"strings"

	"sportsdb/internal/record"
)

// Table is the quoted table name of a kind.
func Table(k *record.Kind) string { return quote(k.Name) }

func quote(ident string) string { return `"` + ident + `"` }

// Columns are the columns a kind's table must have: seq, id, doc and one per index.
func Columns(k *record.Kind) []string {
	cols := []string{"seq", "id", "doc"}
	for _, ix := range k.Indexed {
		cols = append(cols, ix.Column())
	}
	return cols
}

// Row is a record as it is written: id, doc and the index values in k.Indexed order.
type Row struct {
	ID    string
	Doc   string
	Index []string
	// Was is the stored record the row changes (no Kind: there was none), when WasKnown; a
	// replace does not read the stored record, and leaves it unknown. The change feed takes
	// its index values (ChangeSet.Wrote), only while it keeps them.
	Was      record.Record
	WasKnown bool
}

// AnalyzeAfter is how many rows a write must store in one table for the backend to refresh
// that table's planner statistics before it commits: without them, both databases planned
// a full-scale dataset's queries badly (docs/PERFORMANCE.md).
const AnalyzeAfter = 10_000

// NewRow computes the stored form of a record.
func NewRow(r record.Record) (Row, error) {
	r, id, err := writable(r)
	if err != nil {
		return Row{}, err
	}
	return Row{ID: id, Doc: string(record.EncodeDoc(r)), Index: IndexValues(r)}, nil
}

// writable is a record to write, decoded, and its id; or why it cannot be written.
func writable(r record.Record) (record.Record, string, error) {
	if r.Kind == nil {
		return r, "", errors.New("record has no kind")
	}
	r, err := r.Decoded()
	if err != nil {
		return r, "", err
	}
	if err := r.CheckFields(); err != nil {
		return r, "", err
	}
	id, err := r.ID()
	return r, id, err
}

// IndexValues are what a record keeps in its kind's index columns, in k.Indexed order.
func IndexValues(r record.Record) []string {
	vs := make([]string, len(r.Kind.Indexed))
	for i, ix := range r.Kind.Indexed {
		vs[i] = ix.IndexValue(r.Get(ix.Field))
	}
	return vs
}

// AppendArgs appends the row's values to args in the order of the columns of InsertColumns.
func (r Row) AppendArgs(args []any) []any {
	args = append(args, r.ID, r.Doc)
	for _, v := range r.Index {
		args = append(args, v)
	}
	return args
}

// InsertColumns is the column list of an insert, without seq.
func InsertColumns(k *record.Kind) string {
	cols := []string{"id", "doc"}
	for _, ix := range k.Indexed {
		cols = append(cols, quote(ix.Column()))
	}
	return strings.Join(cols, ", ")
}

// UpdateExcluded is the SET list of an upsert that takes every column from the new row.
func UpdateExcluded(k *record.Kind) string {
	sets := []string{"doc = excluded.doc"}
	for _, ix := range k.Indexed {
		c := quote(ix.Column())
		sets = append(sets, c+" = excluded."+c)
	}
	return strings.Join(sets, ", ")
}

// Params is a list of n placeholders starting at argument first.
func Params(d Dialect, first, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = d.Param(first + i)
	}
	return strings.Join(ps, ", ")
}
