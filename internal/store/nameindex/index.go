package nameindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"index/suffixarray"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Columns are the index columns held in memory for each kind: its searched names
// (record.Kind.Searched), which the SQLite store's trigram indexes hold too.
var Columns = searchedColumns()

func searchedColumns() map[*record.Kind][]string {
	m := map[*record.Kind][]string{}
	for _, k := range record.Kinds {
		if len(k.Searched) > 0 {
			m[k] = k.Searched
		}
	}
	return m
}

// maxHits bounds the occurrences of a needle the index collects: a needle more frequent
// than that (a letter, a syllable) is left to the database, whose scan in the query's
// order stops at the cap after a few rows. Short needles that are rare enough (two
// letters of a club's initials) are the index's: the database has no trigram for them and
// scans the whole table.
const maxHits = 50_000

// blockShift sizes the blocks of column.blocks: 64 bytes, a few names.
const blockShift = 6

// index is every held column at one data version.
type index struct {
	version int64
	kinds   map[*record.Kind]*kindIndex
	// used is set once the index has answered a search.
	used atomic.Bool
}

// kindIndex holds one kind's records, as rows numbered in seq order.
type kindIndex struct {
	seqs   []int64
	idRank []int32 // dense rank of each row's id in the store's id order
	idN    int     // distinct ids
	cols   map[string]*column
}

// column is one index column of every row: the values, each after a NUL, in one buffer
// ("\x00v0\x00v1...\x00"), with a suffix array over it, and the sort rank of each row's value.
type column struct {
	buf    []byte
	seps   []int32 // seps[i]: offset of the NUL before row i's value
	blocks []int32 // blocks[j]: the row of offset j<<blockShift
	sa     *suffixarray.Index
	rank   []int32 // dense rank of each row's value, byte-wise
	groups int     // distinct values
}

// errUnfit: the rows hold what the index cannot separate (a NUL in a value).
var errUnfit = errors.New("a value holds NUL")

// newColumn starts an empty column.
func newColumn() *column { return &column{} }

// add appends the value of the next row.
func (c *column) add(v string) error {
	if strings.IndexByte(v, 0) >= 0 {
		return errUnfit
	}
	if len(c.buf)+len(v)+2 > 1<<31-1 {
		return fmt.Errorf("names of over %d bytes", len(c.buf))
	}
	c.seps = append(c.seps, int32(len(c.buf)))
	c.buf = append(c.buf, 0)
	c.buf = append(c.buf, v...)
	return nil
}

// value is row i's value.
func (c *column) value(i int) []byte {
	end := len(c.buf) - 1 // the last NUL
	if i+1 < len(c.seps) {
		end = int(c.seps[i+1])
	}
	return c.buf[c.seps[i]+1 : end]
}

// finish ends the buffer and builds the lookup tables, the suffix array and the ranks.
func (c *column) finish() {
	c.buf = append(c.buf, 0)
	c.buf = slices.Clip(c.buf)
	c.seps = slices.Clip(c.seps)
	c.blocks = make([]int32, (len(c.buf)>>blockShift)+1)
	row := int32(0)
	for j := range c.blocks {
		off := int32(j << blockShift)
		for int(row)+1 < len(c.seps) && c.seps[row+1] <= off {
			row++
		}
		c.blocks[j] = row
	}
	c.sa = suffixarray.New(c.buf)
	c.rank, c.groups = denseRank(len(c.seps), func(a, b int) int { return bytes.Compare(c.value(a), c.value(b)) })
}

// denseRank ranks n rows by cmp: equal rows share a rank, ranks count from 0 without gaps.
func denseRank(n int, cmp func(a, b int) int) ([]int32, int) {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp(int(a), int(b)) })
	rank := make([]int32, n)
	g := 0
	for i, r := range order {
		if i > 0 && cmp(int(order[i-1]), int(r)) != 0 {
			g++
		}
		rank[r] = int32(g)
	}
	if n == 0 {
		return rank, 0
	}
	return rank, g + 1
}

// rowOf is the row whose value (or the NUL before it) holds offset off.
func (c *column) rowOf(off int) int32 {
	r := c.blocks[off>>blockShift]
	for int(r)+1 < len(c.seps) && int(c.seps[r+1]) <= off {
		r++
	}
	return r
}

// rowSet is a set of rows in increasing order. A needle has at most maxHits occurrences, so a
// set is a short list where a bit per row of the kind (hundreds of thousands of players at full scale) cost an
// allocation and a clear of the whole kind for each condition of each search.
type rowSet []int32

// newRowSet is the set of the rows of hits (in any order, repeated), of a kind of n rows.
func newRowSet(hits []int32, n int) rowSet {
	if len(hits) < n/64 {
		slices.Sort(hits)
		return slices.Compact(hits)
	}
	// Many hits: a bit per row puts them in order in one pass over the kind.
	words := make([]uint64, (n+63)/64)
	for _, r := range hits {
		words[r>>6] |= 1 << (uint(r) & 63)
	}
	set := hits[:0]
	for w, word := range words {
		for word != 0 {
			set = append(set, int32(w<<6+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return set
}

// and is the rows in both sets, in s's storage.
func (s rowSet) and(t rowSet) rowSet {
	out, j := s[:0], 0
	for _, r := range s {
		for j < len(t) && t[j] < r {
			j++
		}
		if j < len(t) && t[j] == r {
			out = append(out, r)
		}
	}
	return out
}

// or is the rows in either set.
func (s rowSet) or(t rowSet) rowSet {
	out := make(rowSet, 0, len(s)+len(t))
	i, j := 0, 0
	for i < len(s) || j < len(t) {
		switch {
		case j == len(t) || (i < len(s) && s[i] < t[j]):
			out = append(out, s[i])
			i++
		case i == len(s) || t[j] < s[i]:
			out = append(out, t[j])
			j++
		default:
			out = append(out, s[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// answer is the seqs of the records q selects, in q's order, cut at its limit; ok is false
// when the index cannot answer q exactly (the database must).
func (ix *index) answer(q store.Query) (seqs []int64, ok bool) {
	rows, ok := ix.rows(q)
	if !ok {
		return nil, false
	}
	ki := ix.kinds[q.Kind]
	seqs = make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = ki.seqs[r]
	}
	return seqs, true
}

// rows is the rows of the records q selects, in q's order, cut at its limit; ok is false
// when the index cannot answer q exactly.
func (ix *index) rows(q store.Query) (rows []int32, ok bool) {
	ki := ix.kinds[q.Kind]
	if ki == nil || len(q.Where) == 0 || q.Limit < 0 {
		return nil, false
	}
	keyOf, ok := ki.order(q)
	if !ok {
		return nil, false
	}
	var set rowSet
	for _, c := range q.Where {
		s, ok := ki.match(q.Kind, c)
		if !ok {
			return nil, false
		}
		if set == nil {
			set = s
			continue
		}
		set = set.and(s)
	}
	if len(q.OrderBy) == 0 && q.Limit > 0 && len(set) > q.Limit {
		set = set[:q.Limit] // rows come in seq order: the first ones are the answer
	}
	keys := make([]uint64, len(set))
	for i, r := range set {
		keys[i] = keyOf(r)
	}
	keys = smallest(keys, q.Limit)
	rows = make([]int32, len(keys))
	mask := uint64(1)<<bits.Len(uint(len(ki.seqs))) - 1
	for i, k := range keys {
		rows[i] = int32(k & mask)
	}
	return rows, true
}

// order returns the sort key of a row in q's order (its OrderBy, then seq), or false when
// the index holds no rank for one of the keys or the ranks do not fit 64 bits.
func (ki *kindIndex) order(q store.Query) (func(int32) uint64, bool) {
	rowBits := bits.Len(uint(len(ki.seqs)))
	type part struct {
		rank  []int32
		width int
		top   int32 // groups-1, to invert a descending key
		desc  bool
	}
	var parts []part
	used := rowBits
	for _, o := range q.OrderBy {
		var p part
		if ix, found := q.Kind.IndexOf(o.Field, o.Norm); found {
			c := ki.cols[ix.Column()]
			if c == nil || o.Numeric {
				return nil, false
			}
			p = part{rank: c.rank, width: bits.Len(uint(c.groups)), top: int32(c.groups - 1)}
		} else if len(q.Kind.Key) == 1 && q.Kind.Key[0] == o.Field && o.Norm == record.Exact {
			p = part{rank: ki.idRank, width: bits.Len(uint(ki.idN)), top: int32(ki.idN - 1)}
		} else {
			return nil, false
		}
		p.desc = o.Desc
		used += p.width
		parts = append(parts, p)
	}
	if used > 64 {
		return nil, false
	}
	return func(r int32) uint64 {
		var k uint64
		for _, p := range parts {
			g := p.rank[r]
			if p.desc {
				g = p.top - g
			}
			k = k<<p.width | uint64(g)
		}
		return k<<rowBits | uint64(r)
	}, true
}

// match is the set of rows a condition selects, or false when the index cannot tell.
func (ki *kindIndex) match(k *record.Kind, c store.Cond) (rowSet, bool) {
	if len(c.Or) > 0 {
		var set rowSet
		for _, sub := range c.Or {
			s, ok := ki.match(k, sub)
			if !ok {
				return nil, false
			}
			if set == nil {
				set = s
				continue
			}
			set = set.or(s)
		}
		return set, true
	}
	ix, found := k.IndexOf(c.Field, c.Norm)
	if !found {
		return nil, false // the database reports the bad query
	}
	col := ki.cols[ix.Column()]
	if col == nil {
		return nil, false
	}
	if strings.IndexByte(c.Value, 0) >= 0 {
		if c.Op == store.NotEmpty {
			return nil, false
		}
		return rowSet{}, true // matches nothing, as in the database
	}
	pat, ok := pattern(c)
	if !ok {
		return nil, false
	}
	if pat == "" {
		return rowSet{}, true
	}
	hits := col.sa.Lookup([]byte(pat), maxHits+1)
	if len(hits) > maxHits {
		return nil, false
	}
	rows := make([]int32, len(hits))
	for i, off := range hits {
		rows[i] = col.rowOf(off)
	}
	return newRowSet(rows, len(ki.seqs)), true
}

// pattern is what a condition looks for in a column's buffer: "" when it matches nothing,
// false when the index does not answer it (an operator it does not hold, an empty needle).
func pattern(c store.Cond) (string, bool) {
	var pat string
	switch {
	case c.Op == store.Eq && c.Norm == record.Name:
		pat = wrap(record.Fold(c.Value), "\x00")
	case c.Op == store.Eq && c.Norm == record.List:
		pat = wrap(record.FoldList(c.Value), "\x00")
	case c.Op == store.Contains && c.Norm == record.Name:
		pat = record.Fold(c.Value)
	case c.Op == store.Prefix && c.Norm == record.Name:
		if v := record.Fold(c.Value); v != "" {
			pat = "\x00" + v
		}
	case c.Op == store.ListHas && c.Norm == record.List:
		v := record.Fold(c.Value)
		if v == "" || strings.Contains(v, ",") {
			return "", true
		}
		pat = "," + v + ","
	case c.Op == store.ListContains && c.Norm == record.List:
		v := record.Fold(c.Value)
		if strings.Contains(v, ",") {
			return "", true
		}
		pat = v
	default:
		return "", false
	}
	if pat == "" || !utf8.ValidString(pat) {
		return "", false
	}
	return pat, true
}

// wrap puts v between two separators, or is "" when v is empty (the database decides).
func wrap(v, sep string) string {
	if v == "" {
		return ""
	}
	return sep + v + sep
}

// smallest returns the n smallest keys in order (all of them when n is 0).
func smallest(keys []uint64, n int) []uint64 {
	if n == 0 || len(keys) <= n {
		slices.Sort(keys)
		return keys
	}
	// A max-heap of the n smallest seen so far.
	h := keys[:n]
	for i := n/2 - 1; i >= 0; i-- {
		down(h, i)
	}
	for _, k := range keys[n:] {
		if k < h[0] {
			h[0] = k
			down(h, 0)
		}
	}
	slices.Sort(h)
	return h
}

func down(h []uint64, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		if r := l + 1; r < len(h) && h[r] > h[l] {
			l = r
		}
		if h[i] >= h[l] {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
}

// build reads every held column of every kind, all at one data version: when the version
// moves while it reads, it starts over (a few times).
func build(ctx context.Context, src Source) (*index, error) {
	for range 3 {
		ix := &index{version: -1, kinds: map[*record.Kind]*kindIndex{}}
		same := true
		for k, cols := range Columns {
			ki, v, err := buildKind(ctx, src, k, cols)
			if errors.Is(err, errUnfit) {
				continue // the database answers that kind's searches
			}
			if err != nil {
				return nil, err
			}
			if ix.version >= 0 && v != ix.version {
				same = false
				break
			}
			ix.version = v
			ix.kinds[k] = ki
		}
		if same {
			return ix, nil
		}
	}
	return nil, errors.New("name index: the data kept changing while it was read")
}

// buildKind reads one kind's rows straight into the column buffers (rows come in seq
// order), keeping no row: the build holds little more than the index it makes.
func buildKind(ctx context.Context, src Source, k *record.Kind, cols []string) (*kindIndex, int64, error) {
	ki := &kindIndex{cols: map[string]*column{}}
	ids := newColumn() // the ids, to rank them
	cs := make([]*column, len(cols))
	for i, name := range cols {
		cs[i] = newColumn()
		ki.cols[name] = cs[i]
	}
	v, err := src.IndexRows(ctx, k, cols, func(seq int64, id string, vals []string) error {
		if n := len(ki.seqs); n > 0 && ki.seqs[n-1] >= seq {
			return fmt.Errorf("rows out of seq order (%d after %d)", seq, ki.seqs[n-1])
		}
		ki.seqs = append(ki.seqs, seq)
		if err := ids.add(id); err != nil {
			return err
		}
		for i, c := range cs {
			if err := c.add(vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("name index of %s: %w", k.Name, err)
	}
	ki.seqs = slices.Clip(ki.seqs)
	for _, c := range cs {
		c.finish()
	}
	// The store's id order: by length, then as text (ids are canonical integers).
	ids.buf = append(ids.buf, 0)
	ki.idRank, ki.idN = denseRank(len(ids.seps), func(a, b int) int {
		x, y := ids.value(a), ids.value(b)
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		return bytes.Compare(x, y)
	})
	return ki, v, nil
}

// size is about how many bytes the index holds.
func (ix *index) size() int {
	n := 0
	for _, ki := range ix.kinds {
		n += len(ki.seqs)*8 + len(ki.idRank)*4
		for _, c := range ki.cols {
			n += len(c.buf)*5 + len(c.seps)*4 + len(c.blocks)*4 + len(c.rank)*4 // the suffix array: 4 bytes a byte
		}
	}
	return n
}
