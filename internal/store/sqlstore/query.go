// Package sqlstore holds what the SQLite and PostgreSQL stores share: the translation of a
// store.Query into SQL, the columns of a kind's table, the list of embedded migrations, and
// the reads and key store written once over a small Querier interface (DB), with the
// mapping of driver errors (MapErr). The few differences between the two databases in the
// text of a statement are the named fields of Dialect; each backend adapts its driver to
// Querier and names the sentinels of its own error codes.
package sqlstore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Dialect is what differs between the databases in the text of a query.
type Dialect struct {
	// Param is the placeholder of the n-th argument, counted from 1.
	Param func(n int) string
	// Numeric is an expression of col as an integer, or NULL when col does not hold one, so
	// that a stray value never makes a query fail.
	Numeric func(col string) string
	// Prefix is a condition that col starts with v (folded, not escaped).
	Prefix func(b *Builder, col, v string) string
	// Substring, when set, is a condition that narrows a search for needle (folded, not
	// escaped) inside the column named col of k's table to candidate rows found through an
	// index, or "" when no index serves that column or needle. The LIKE of the search still
	// decides, so the candidates may be more than the matches but never fewer.
	Substring func(b *Builder, k *record.Kind, col, needle string) string
	// Time is the argument that stores t in a time column (of the keys table).
	Time func(t time.Time) any
	// Trigram, when set, says whether the column named col of k's table has a trigram index
	// that answers a search inside it (LIKE '%x%') alone. A capped search whose every
	// condition is such a search collects its matches there before sorting them (see
	// materialized).
	Trigram func(k *record.Kind, col string) bool
	// Hold, when set, is a statement that takes a lock on its one argument (a record's kind
	// and id) until the transaction ends (Tx.Hold); "" where transactions that write never
	// run at once (SQLite's one writer, which begins IMMEDIATE).
	Hold string
}

// SQLite is the dialect of SQLite.
var SQLite = Dialect{
	Param: func(int) string { return "?" },
	Numeric: func(col string) string {
		// GLOB checks the text is an optional '-' and 1 to 18 digits, so CAST cannot overflow.
		return "(CASE WHEN " + col + " GLOB '[0-9]*' AND " + col + " NOT GLOB '*[^0-9]*' AND length(" + col + ") <= 18" +
			" OR " + col + " GLOB '-[0-9]*' AND substr(" + col + ", 2) NOT GLOB '*[^0-9]*' AND length(" + col + ") <= 19" +
			" THEN CAST(" + col + " AS INTEGER) END)"
	},
	// A range instead of LIKE: SQLite's LIKE is case-insensitive and cannot use the index of a
	// BINARY column. No UTF-8 text contains the byte 0xFF, so it bounds every continuation.
	Prefix: func(b *Builder, col, v string) string {
		return "(" + col + " >= " + b.Arg(v) + " AND " + col + " < " + b.Arg(v+"\xff") + ")"
	},
	// Fixed-width UTC text, so that times sort as text.
	Time: func(t time.Time) any { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") },
}

// Postgres is the dialect of PostgreSQL. Columns use the "C" collation, so LIKE 'x%' can use
// a btree index and text sorts byte-wise as on SQLite.
var Postgres = Dialect{
	Param: func(n int) string { return "$" + strconv.Itoa(n) },
	Numeric: func(col string) string {
		return "(CASE WHEN " + col + " ~ '^-?[0-9]{1,18}$' THEN " + col + "::bigint END)"
	},
	Prefix: func(b *Builder, col, v string) string {
		return col + " LIKE " + b.Arg(EscapeLike(v)+"%") + ` ESCAPE '\'`
	},
	Time: func(t time.Time) any { return t.UTC() },
	// The searched columns have pg_trgm GIN indexes (postgres migration 0001); those of the
	// small sport and country tables too, which a scan answers as fast.
	Trigram: func(k *record.Kind, col string) bool { return slices.Contains(k.Searched, col) },
	// An advisory lock, which holds an id that no row has yet (a create) as well as one that
	// has. Its two-key form is apart from the one-key locks (the migrations'); two records
	// whose names hash alike merely wait for each other.
	Hold: `SELECT pg_advisory_xact_lock(41, hashtext($1))`,
}

// Builder collects the text and arguments of one statement.
type Builder struct {
	d    Dialect
	sb   strings.Builder
	args []any
}

// Arg adds an argument and returns its placeholder.
func (b *Builder) Arg(v any) string {
	b.args = append(b.args, v)
	return b.d.Param(len(b.args))
}

// EscapeLike escapes the LIKE metacharacters of a user value, for use with ESCAPE '\'.
func EscapeLike(s string) string {
	if !strings.ContainsAny(s, `%_\`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Select translates a query into a statement selecting the doc column of the records it
// asks for, or returns an error wrapping store.ErrBadQuery.
func Select(d Dialect, q store.Query) (string, []any, error) {
	if q.Kind == nil {
		return "", nil, fmt.Errorf("%w: query names no kind", store.ErrBadQuery)
	}
	return selectFrom(d, q, "doc", Table(q.Kind))
}

// SelectFrom is Select from the table as from names it (the table itself, or with an index
// to use).
func SelectFrom(d Dialect, q store.Query, from string) (string, []any, error) {
	if q.Kind == nil {
		return "", nil, fmt.Errorf("%w: query names no kind", store.ErrBadQuery)
	}
	return selectFrom(d, q, "doc", from)
}

// SelectSeqs is Select of the seq column only, from the table as from names it (the table
// itself, or with an index to use): a search that reads many rows to keep a few can sort and
// cut them on a narrow index and read the docs of only those it keeps.
func SelectSeqs(d Dialect, q store.Query, from string) (string, []any, error) {
	if q.Kind == nil {
		return "", nil, fmt.Errorf("%w: query names no kind", store.ErrBadQuery)
	}
	return selectFrom(d, q, "seq", from)
}

// SelectBranches is Select of a query with a limit whose condition q.Where[or] is an Or, each
// of whose branches an index reads in the order of q's first sort key: from[i] is the table
// as it names branch i's index. Each branch selects, on its index, its rows whose first sort
// value is up to that of its Limit-th row (all of them when it has fewer), ties included;
// those rows are then sorted and cut. A row of the answer is among the first Limit of its
// branch by that value, so the branches keep every row the answer holds, and the statement
// answers what Select's does, reading a few index entries per branch where Select's reads
// every selected row, doc and all, to sort them.
//
// The first sort key must be an index's column, not numeric, and not the id.
func SelectBranches(d Dialect, q store.Query, or int, from []string) (string, []any, error) {
	if q.Kind == nil || q.Limit <= 0 || len(q.OrderBy) == 0 || or < 0 || or >= len(q.Where) ||
		len(q.Where[or].Or) != len(from) || q.OrderBy[0].Numeric {
		return "", nil, fmt.Errorf("%w: no branches to read", store.ErrBadQuery)
	}
	first := q.OrderBy[0]
	ix, ok := q.Kind.IndexOf(first.Field, first.Norm)
	if !ok {
		return "", nil, notIndexed(q.Kind, first.Field, first.Norm)
	}
	x := quote(ix.Column())
	dir, bound := "", "<="
	if first.Desc {
		dir, bound = " DESC", ">="
	}
	b := &Builder{d: d}
	t := Table(q.Kind)
	b.sb.WriteString("SELECT doc FROM " + t + " WHERE seq IN (SELECT seq FROM " + t + " WHERE seq IN (")
	for i, branch := range q.Where[or].Or {
		if i > 0 {
			b.sb.WriteString(" UNION ALL ")
		}
		sub := store.Query{Kind: q.Kind, Where: slices.Concat(q.Where[:or], []store.Cond{branch}, q.Where[or+1:])}
		b.sb.WriteString("SELECT seq FROM " + from[i])
		if err := b.where(sub); err != nil {
			return "", nil, err
		}
		b.sb.WriteString(" AND " + x + " " + bound + " coalesce((SELECT " + x + " FROM " + from[i])
		if err := b.where(sub); err != nil {
			return "", nil, err
		}
		b.sb.WriteString(" ORDER BY " + x + dir + " LIMIT 1 OFFSET " + strconv.Itoa(q.Limit-1) + "), " + x + ")")
	}
	// The rows are sorted and cut by their seqs and sort keys alone, then their docs are read
	// and sorted again: a sort with a limit keeps its rows in a b-tree, where a doc of
	// kilobytes costs a rebalance.
	b.sb.WriteString(")")
	if err := b.orderLimit(q); err != nil {
		return "", nil, err
	}
	b.sb.WriteString(")")
	all := q
	all.Limit = 0
	if err := b.orderLimit(all); err != nil {
		return "", nil, err
	}
	return b.sb.String(), b.args, nil
}

// QueryColumns are the index columns that q's conditions and sort keys read.
func QueryColumns(q store.Query) ([]string, error) {
	var cols []string
	var walk func(c store.Cond) error
	walk = func(c store.Cond) error {
		for _, sub := range c.Or {
			if err := walk(sub); err != nil {
				return err
			}
		}
		if len(c.Or) > 0 {
			return nil
		}
		ix, ok := q.Kind.IndexOf(c.Field, c.Norm)
		if !ok {
			return notIndexed(q.Kind, c.Field, c.Norm)
		}
		cols = append(cols, ix.Column())
		return nil
	}
	for _, c := range q.Where {
		if err := walk(c); err != nil {
			return nil, err
		}
	}
	for _, o := range q.OrderBy {
		ix, ok := q.Kind.IndexOf(o.Field, o.Norm)
		if !ok {
			return nil, notIndexed(q.Kind, o.Field, o.Norm)
		}
		cols = append(cols, ix.Column())
	}
	return cols, nil
}

func selectFrom(d Dialect, q store.Query, col, from string) (string, []any, error) {
	if q.Limit < 0 {
		return "", nil, fmt.Errorf("%w: negative limit %d", store.ErrBadQuery, q.Limit)
	}
	b := &Builder{d: d}
	if col == "doc" && trigramSearch(d, q) {
		return b.materialized(q)
	}
	b.sb.WriteString("SELECT " + col + " FROM " + from)
	if err := b.where(q); err != nil {
		return "", nil, err
	}
	if err := b.orderLimit(q); err != nil {
		return "", nil, err
	}
	return b.sb.String(), b.args, nil
}

// trigramSearch says whether q is a capped search whose every condition is a search inside
// a column with a trigram index (Dialect.Trigram) for a needle of 3 characters or more.
func trigramSearch(d Dialect, q store.Query) bool {
	if d.Trigram == nil || q.Limit == 0 || len(q.Where) == 0 {
		return false
	}
	var ok func(c store.Cond) bool
	ok = func(c store.Cond) bool {
		if len(c.Or) > 0 {
			return !slices.ContainsFunc(c.Or, func(sub store.Cond) bool { return !ok(sub) })
		}
		ix, found := q.Kind.IndexOf(c.Field, c.Norm)
		return found && SubstringOnly(c) && d.Trigram(q.Kind, ix.Column()) && utf8.RuneCountInString(c.Value) >= 3
	}
	return !slices.ContainsFunc(q.Where, func(c store.Cond) bool { return !ok(c) })
}

// SubstringOnly says whether c, or every branch of it, is a search inside a name or list.
func SubstringOnly(c store.Cond) bool {
	if len(c.Or) > 0 {
		return !slices.ContainsFunc(c.Or, func(sub store.Cond) bool { return !SubstringOnly(sub) })
	}
	return c.Op == store.Contains || c.Op == store.ListContains || c.Op == store.ListHas
}

// materialized is the statement of a trigramSearch: its matches, collected through the
// trigram indexes with their seq and sort columns only, sorted and cut, then the docs of
// those kept, in that order. Left to itself, PostgreSQL's planner walks the sort column's
// btree and reads each row's heap tuple until the limit is reached, expecting the matches
// spread evenly; a common first name (thousands of players, all in one part of the
// alphabet) then reads up to every row of the table, past the read deadline.
func (b *Builder) materialized(q store.Query) (string, []any, error) {
	t := Table(q.Kind)
	b.sb.WriteString("WITH m AS MATERIALIZED (SELECT seq")
	var cols []string
	for _, o := range q.OrderBy {
		col, ok := orderColumn(q.Kind, o) // an index's column, or id
		if !ok {
			return "", nil, notIndexed(q.Kind, o.Field, o.Norm)
		}
		if !slices.Contains(cols, col) {
			cols = append(cols, col)
			b.sb.WriteString(", " + col)
		}
	}
	b.sb.WriteString(" FROM " + t)
	if err := b.where(q); err != nil {
		return "", nil, err
	}
	b.sb.WriteString(") SELECT t.doc FROM unnest(ARRAY(SELECT seq FROM m")
	if err := b.orderLimit(q); err != nil {
		return "", nil, err
	}
	b.sb.WriteString(")) WITH ORDINALITY AS k(seq, i) JOIN " + t + " t ON t.seq = k.seq ORDER BY k.i")
	return b.sb.String(), b.args, nil
}

// where writes q's conditions.
func (b *Builder) where(q store.Query) error {
	for i, c := range q.Where {
		if i == 0 {
			b.sb.WriteString(" WHERE ")
		} else {
			b.sb.WriteString(" AND ")
		}
		if err := b.cond(q.Kind, c); err != nil {
			return err
		}
	}
	return nil
}

// orderLimit writes q's sort keys, then seq, and its limit.
func (b *Builder) orderLimit(q store.Query) error {
	b.sb.WriteString(" ORDER BY ")
	for _, o := range q.OrderBy {
		col, ok := orderColumn(q.Kind, o)
		if !ok {
			return notIndexed(q.Kind, o.Field, o.Norm)
		}
		if col == "id" {
			// Ids are canonical integers: by length, then as text, is their numeric order,
			// and cheaper to compute than a checked cast.
			if o.Desc {
				b.sb.WriteString("length(id) DESC, id DESC, ")
			} else {
				b.sb.WriteString("length(id), id, ")
			}
			continue
		}
		if o.Numeric {
			// Values that are not numbers sort after the numbers, either way.
			col = b.d.Numeric(col)
			b.sb.WriteString(col + " IS NULL, ")
		}
		b.sb.WriteString(col)
		if o.Desc {
			b.sb.WriteString(" DESC")
		}
		b.sb.WriteString(", ")
	}
	b.sb.WriteString("seq")
	if q.Limit > 0 {
		b.sb.WriteString(" LIMIT " + strconv.Itoa(q.Limit))
	}
	return nil
}

// orderColumn is the column an order sorts on: the field's index, or the id column when the
// field is the kind's one key field (the public service orders many lists by id).
func orderColumn(k *record.Kind, o store.Order) (string, bool) {
	if ix, ok := k.IndexOf(o.Field, o.Norm); ok {
		return quote(ix.Column()), true
	}
	if len(k.Key) == 1 && k.Key[0] == o.Field && o.Norm == record.Exact {
		return "id", true
	}
	return "", false
}

func notIndexed(k *record.Kind, field string, n record.Norm) error {
	return fmt.Errorf("%w: %s has no %s index on %q", store.ErrBadQuery, k.Name, normName(n), field)
}

func normName(n record.Norm) string {
	switch n {
	case record.Exact:
		return "exact"
	case record.Name:
		return "name"
	case record.List:
		return "list"
	}
	return "unknown (" + strconv.Itoa(int(n)) + ")"
}

func (b *Builder) cond(k *record.Kind, c store.Cond) error {
	if len(c.Or) > 0 {
		b.sb.WriteString("(")
		for i, sub := range c.Or {
			if i > 0 {
				b.sb.WriteString(" OR ")
			}
			if err := b.cond(k, sub); err != nil {
				return err
			}
		}
		b.sb.WriteString(")")
		return nil
	}
	ix, ok := k.IndexOf(c.Field, c.Norm)
	if !ok {
		return notIndexed(k, c.Field, c.Norm)
	}
	if !applies(c.Op, c.Norm) {
		return fmt.Errorf("%w: operator %d does not apply to the %s index on %s.%s",
			store.ErrBadQuery, c.Op, normName(c.Norm), k.Name, c.Field)
	}
	name := ix.Column()
	col := quote(name)
	v := c.Value
	if c.Norm != record.Exact {
		v = record.Fold(v)
	}
	if c.Op != store.NotEmpty && strings.ContainsRune(c.Value, 0) {
		// PostgreSQL text cannot hold NUL, so such a value matches nothing there; it matches
		// nothing on SQLite either, so both answer alike and neither sends it to the database.
		b.sb.WriteString("1 = 0")
		return nil
	}
	switch c.Op {
	case store.Eq:
		if c.Norm == record.List {
			v = record.FoldList(c.Value)
		}
		b.sb.WriteString(col + " = " + b.Arg(v))
	case store.Contains:
		b.like(k, name, v, "%"+EscapeLike(v)+"%")
	case store.Prefix:
		b.sb.WriteString(b.d.Prefix(b, col, v))
	case store.ListHas, store.ListContains:
		b.listCond(k, name, c.Op, v)
	case store.Gt, store.Ge, store.Lt, store.Le:
		b.sb.WriteString(col + " " + [...]string{"", "", "", "", "", ">", ">=", "<", "<="}[c.Op] + " " + b.Arg(v))
	case store.NotEmpty:
		b.sb.WriteString(col + " <> ''")
	}
	return nil
}

// listCond matches one item of a column kept as ",a,b,c,". An item never holds a comma, so
// neither does a value that can match one.
func (b *Builder) listCond(k *record.Kind, name string, op store.Op, v string) {
	if strings.Contains(v, ",") || (op == store.ListHas && v == "") {
		b.sb.WriteString("1 = 0")
		return
	}
	if op == store.ListContains {
		b.like(k, name, v, "%"+EscapeLike(v)+"%")
		return
	}
	b.like(k, name, ","+v+",", "%,"+EscapeLike(v)+",%")
}

// like is a search for needle inside the column named name, as pattern, narrowed first by
// the dialect's substring index when it has one.
func (b *Builder) like(k *record.Kind, name, needle, pattern string) {
	var narrow string
	if b.d.Substring != nil {
		// Before the LIKE's argument: SQLite's placeholders are positional.
		narrow = b.d.Substring(b, k, name, needle)
	}
	like := quote(name) + " LIKE " + b.Arg(pattern) + ` ESCAPE '\'`
	if narrow == "" {
		b.sb.WriteString(like)
		return
	}
	b.sb.WriteString("(" + narrow + " AND " + like + ")")
}

// applies says whether an operator makes sense on a column of that norm.
func applies(op store.Op, n record.Norm) bool {
	switch op {
	case store.Eq, store.NotEmpty:
		return n == record.Exact || n == record.Name || n == record.List
	case store.Contains, store.Prefix:
		return n == record.Name
	case store.ListHas, store.ListContains:
		return n == record.List
	case store.Gt, store.Ge, store.Lt, store.Le:
		return n == record.Exact || n == record.Name
	}
	return false
}
