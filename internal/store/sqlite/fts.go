package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// ftsColumns are the searched columns of each kind (record.Kind.Searched), which have a
// trigram index in the table <kind>_fts (migration 0002). A search inside any other column
// scans its table.
var ftsColumns = map[*record.Kind][]string{}

func init() {
	for _, k := range record.Kinds {
		if k.Searched != nil {
			ftsColumns[k] = k.Searched
		}
	}
}

// minTrigram is the shortest needle a trigram index can find: shorter ones scan.
const minTrigram = 3

// maxTrigrams bounds the trigrams a lookup asks for.
const maxTrigrams = 4

// trigramQuery asks the index for the rows holding a few trigrams of the needle, spread
// over it without overlap where it is long enough. Every trigram of a name is a list of
// rows to intersect, and the common ones ("an ", "ard") are long: all of them one after
// the other (a phrase) cost three times as much at full scale for about the same rows.
func trigramQuery(needle string) string {
	runes := []rune(needle)
	last := len(runes) - minTrigram
	n := min(maxTrigrams, (len(runes)+minTrigram-1)/minTrigram)
	terms := make([]string, 0, n)
	for i := range n {
		at := 0
		if n > 1 {
			at = i * last / (n - 1)
		}
		t := string(runes[at : at+minTrigram])
		terms = append(terms, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " AND ")
}

// trigramNeedle says whether the index can find needle: it needs at least minTrigram
// characters, and valid UTF-8 so that the index splits it into the same characters as the
// stored text.
func trigramNeedle(needle string) bool {
	return utf8.ValidString(needle) && utf8.RuneCountInString(needle) >= minTrigram
}

// A search reads its candidates from the trigram index, then every candidate's indexed
// names (on the narrow index of migration 0009 when it has a limit, else its row), and
// sorts them before the limit applies: its cost grows with the candidates. The plain scan
// walks the table (or an index) in the query's order and stops at the limit: when the
// needle is frequent, it reaches the limit after a few rows. The store picks the scan when
// the candidates exceed about sqrt(limit * rows / scanPerLookup), where the costs of the
// two ways meet if the candidates spread evenly over the order. On the narrow index a
// candidate costs less than a scanned row, hence a constant below 1: searches of frequent
// first names among a full-scale dataset's players cost least with it.
const scanPerLookup = 0.25

// ftsLookup is one needle of a query that the trigram index can look up; the statement
// takes its candidates' rowids as a JSON array in the argument that is the lookup itself.
type ftsLookup struct {
	kind        *record.Kind
	col, needle string
}

// seqIndexName names the index of migration 0009 that holds seq and the searched columns of a
// kind with a trigram index.
func seqIndexName(k *record.Kind) string { return k.Name + "_search" }

// seqIndex is the narrow index that answers every condition and sort key of q, if any. It
// serves only queries whose every condition narrows by substring, alone or in an OR with
// others that do: an equality in an OR would read its own index, which the narrow index
// would keep it from.
func seqIndex(q store.Query) (string, bool) {
	searched := ftsColumns[q.Kind]
	if searched == nil || q.Limit == 0 {
		// Without a limit every matching doc is read anyway.
		return "", false
	}
	for _, c := range q.Where {
		if !sqlstore.SubstringOnly(c) {
			return "", false
		}
	}
	cols, err := sqlstore.QueryColumns(q)
	if err != nil {
		return "", false
	}
	for _, c := range cols {
		if !slices.Contains(searched, c) {
			return "", false
		}
	}
	return seqIndexName(q.Kind), true
}

// selectSQL is the statement answering q, and the trigram lookups whose candidates its
// arguments still miss (see resolve). A lookup finds the rows holding some trigrams of
// the needle (see trigramQuery), case folded beyond ASCII: every row the LIKE on the table
// matches, maybe more. That LIKE, which stays in the statement, decides.
//
// When q has a limit and a narrow index answers it (seqIndex), and q has lookups, the
// statement selects the seqs of the records on that index, and seqs is true: the caller
// reads their docs with docsSQL.
func selectSQL(q store.Query, ordered []tableIndex) (query string, args []any, lookups []*ftsLookup, seqs bool, err error) {
	d := sqlstore.SQLite
	d.Substring = func(b *sqlstore.Builder, k *record.Kind, col, needle string) string {
		if !slices.Contains(ftsColumns[k], col) || !trigramNeedle(needle) {
			return ""
		}
		l := &ftsLookup{k, col, needle}
		lookups = append(lookups, l)
		return "seq IN (SELECT value FROM json_each(" + b.Arg(l) + "))"
	}
	if ix, ok := seqIndex(q); ok {
		query, args, err = sqlstore.SelectSeqs(d, q, sqlstore.Table(q.Kind)+" INDEXED BY "+ix)
		if err != nil || len(lookups) > 0 {
			return query, args, lookups, true, err
		}
		lookups = nil // a plain query: the table's own indexes serve it
	}
	if or, from, ok := branchIndexes(ordered, q); ok {
		query, args, err = sqlstore.SelectBranches(d, q, or, from)
		return query, args, nil, false, err
	}
	query, args, err = sqlstore.SelectFrom(d, q, fromOrdered(ordered, q))
	return query, args, lookups, false, err
}

// docsSQL reads the docs of the records whose seqs are its argument, a JSON array, in the
// array's order.
func docsSQL(k *record.Kind) string {
	t := sqlstore.Table(k)
	return `SELECT doc FROM json_each(?) CROSS JOIN ` + t + ` ON ` + t + `.seq = json_each.value ORDER BY json_each.key`
}

// resolve looks the needles up in the trigram indexes, in the read transaction the query
// then runs in, and puts their candidates in args. When q has a limit and a needle has
// more candidates than the scan would read, or more than the rows q's equalities select
// (equalityRows), it returns the plain statement instead, which selects docs. The scan's
// cost is judged from about how many rows q's kind has (rowEstimate).
func (s *Store) resolve(ctx context.Context, tx *sql.Tx, q store.Query, query string, args []any, lookups []*ftsLookup) (string, []any, bool, error) {
	enough := int64(-1) // no limit
	if q.Limit > 0 {
		rows, err := s.rowEstimate(ctx, tx, q.Kind)
		if err != nil {
			return "", nil, false, err
		}
		enough = int64(math.Sqrt(float64(q.Limit) * float64(rows) / scanPerLookup))
	}
	eq, err := s.equalityRows(ctx, tx, q)
	if err != nil {
		return "", nil, false, err
	}
	if eq >= 0 && (enough < 0 || eq < enough) {
		enough = eq
	}
	found := map[*ftsLookup]string{}
	for _, l := range lookups {
		ids, n, err := s.candidates(ctx, tx, l, enough)
		if err != nil {
			return "", nil, false, err
		}
		if enough >= 0 && n >= enough {
			query, args, err := sqlstore.Select(sqlstore.SQLite, q)
			return query, args, true, err
		}
		found[l] = ids
	}
	for i, a := range args {
		if l, ok := a.(*ftsLookup); ok {
			args[i] = found[l]
		}
	}
	return query, args, false, nil
}

// rowCounts remembers the statistics of each kind at a data version (kindStats): the
// choices between the index, the scan and an equality's index need only their order of
// magnitude, and reading them was one statement more (of four or five) per search.
type rowCounts struct {
	mu      sync.Mutex
	version int64
	kinds   map[*record.Kind]kindStats
}

// kindStats are about how many rows a kind's table has, and, for each column leading one of
// its indexes, the fewest rows a value of it holds on average by sqlite_stat1 (ANALYZE, run
// after large writes; none without it). perValue is nil until a search with equalities
// asks for it: it takes two statements more, and most searches have none.
type kindStats struct {
	rows     int64
	perValue map[string]int64
}

// rowEstimate is about how many rows k's table has (kindStats).
func (s *Store) rowEstimate(ctx context.Context, tx *sql.Tx, k *record.Kind) (int64, error) {
	st, err := s.kindStats(ctx, tx, k, false)
	return st.rows, err
}

// kindStats reads k's statistics in tx when the data changed since the last read, the rows
// per value also when perValue is set and they were not read at this version. max(seq)
// reads one b-tree leaf, where count(*) would read the table; rows deleted since only make
// it larger.
func (s *Store) kindStats(ctx context.Context, tx *sql.Tx, k *record.Kind, perValue bool) (kindStats, error) {
	v, err := s.version.get(ctx)
	if err != nil {
		return kindStats{}, fmt.Errorf("statistics of %s: %w", k.Name, err)
	}
	c := &s.rowCounts
	c.mu.Lock()
	st, ok := c.kinds[k]
	if c.version != v {
		st, ok = kindStats{}, false
	}
	c.mu.Unlock()
	if ok && (!perValue || st.perValue != nil) {
		return st, nil
	}
	if !ok {
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM `+sqlstore.Table(k)).Scan(&st.rows); err != nil {
			return kindStats{}, fmt.Errorf("rows of %s: %w", k.Name, mapErr(err))
		}
	}
	if perValue && st.perValue == nil {
		if st.perValue, err = readRowsPerValue(ctx, tx, k, s.ordered[k]); err != nil {
			return kindStats{}, fmt.Errorf("statistics of %s: %w", k.Name, mapErr(err))
		}
	}
	c.mu.Lock()
	if c.version != v || c.kinds == nil {
		c.version, c.kinds = v, map[*record.Kind]kindStats{}
	}
	if old, ok := c.kinds[k]; ok && st.perValue == nil {
		st.perValue = old.perValue // read meanwhile by a search with equalities
	}
	c.kinds[k] = st
	c.mu.Unlock()
	return st, nil
}

// A search that also narrows by equalities on an index's leading column (the teams of a
// few leagues holding "bel") can read that index's rows for those values and test the
// needle on each, instead of looking the needle up: a frequent trigram ("bel" is in
// thousands of team names at full scale) is a long list of candidates, where a league
// holds a few dozen teams. So the lookup stops once its candidates outnumber the rows the
// equalities select, and the plain statement runs, which SQLite reads through that index.

// equalityRows is about how many rows the most selective condition of q made of
// equalities on one column selects (kindStats.perValue); -1 when no condition is such or
// there are no statistics.
func (s *Store) equalityRows(ctx context.Context, tx *sql.Tx, q store.Query) (int64, error) {
	best := int64(-1)
	var perValue map[string]int64
	for _, c := range q.Where {
		col, values, ok := equalityColumn(q.Kind, c)
		if !ok {
			continue
		}
		if perValue == nil {
			st, err := s.kindStats(ctx, tx, q.Kind, true)
			if err != nil {
				return 0, err
			}
			perValue = st.perValue
		}
		if n, ok := perValue[col]; ok && (best < 0 || n*values < best) {
			best = n * values
		}
	}
	return best, nil
}

// equalityColumn is the column c compares by equality alone, and with how many values.
func equalityColumn(k *record.Kind, c store.Cond) (string, int64, bool) {
	alts := c.Or
	if len(alts) == 0 {
		alts = []store.Cond{c}
	}
	col := ""
	for _, a := range alts {
		if len(a.Or) > 0 || a.Op != store.Eq || a.Norm == record.List {
			return "", 0, false
		}
		ix, ok := k.IndexOf(a.Field, a.Norm)
		if !ok || (col != "" && ix.Column() != col) {
			return "", 0, false
		}
		col = ix.Column()
	}
	return col, int64(len(alts)), true
}

// readRowsPerValue reads kindStats.perValue from sqlite_stat1, whose stat of an index is
// "rows rows-per-first-column-value ...".
func readRowsPerValue(ctx context.Context, tx *sql.Tx, k *record.Kind, ixs []tableIndex) (map[string]int64, error) {
	per := map[string]int64{}
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'`).Scan(&exists); err != nil || exists == 0 {
		return per, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?`, k.Name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var idx, stat sql.NullString
		if err := rows.Scan(&idx, &stat); err != nil {
			return nil, err
		}
		f := strings.Fields(stat.String)
		i := slices.IndexFunc(ixs, func(ix tableIndex) bool { return ix.name == idx.String })
		if len(f) < 2 || i < 0 || len(ixs[i].cols) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		if col := ixs[i].cols[0]; per[col] == 0 || n < per[col] {
			per[col] = n
		}
	}
	return per, rows.Err()
}

// candidates are the rowids the index finds for a needle, at most limit (-1: all), as a
// JSON array, and how many there are.
func (s *Store) candidates(ctx context.Context, tx *sql.Tx, l *ftsLookup, limit int64) (string, int64, error) {
	rows, err := s.stmts.query(ctx, tx, `SELECT rowid FROM `+l.kind.Name+`_fts WHERE `+l.col+` MATCH ? LIMIT ?`,
		trigramQuery(l.needle), limit)
	if err != nil {
		return "", 0, fmt.Errorf("candidates in %s.%s: %w", l.kind.Name, l.col, mapErr(err))
	}
	ids, n, err := jsonInts(rows)
	if err != nil {
		return "", 0, fmt.Errorf("candidates in %s.%s: %w", l.kind.Name, l.col, err)
	}
	return ids, n, nil
}

// jsonInts reads the integers of rows' one column into a JSON array, says how many there
// are, and closes rows.
func jsonInts(rows *sql.Rows) (string, int64, error) {
	defer rows.Close()
	ids := []byte{'['}
	var n int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return "", 0, mapErr(err)
		}
		if n > 0 {
			ids = append(ids, ',')
		}
		ids = strconv.AppendInt(ids, id, 10)
		n++
	}
	if err := rows.Err(); err != nil {
		return "", 0, mapErr(err)
	}
	return string(append(ids, ']')), n, nil
}

// optimizeAfter rows written to a kind in one transaction make it merge its trigram index.
const optimizeAfter = 5000

// optimizeFTS merges the trigram index of every kind the transaction wrote many rows to.
// Rows written one by one leave the index in many small segments, and a lookup reads every
// segment for each trigram of the needle: merged, a lookup costs a third to a sixth as much.
// A few rows at a time do not need it (the index merges its smallest segments as it goes).
func (t *tx) optimizeFTS(ctx context.Context) error {
	for k, n := range t.Written {
		if n < optimizeAfter || ftsColumns[k] == nil {
			continue
		}
		fts := k.Name + "_fts"
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO `+fts+` (`+fts+`) VALUES ('optimize')`); err != nil {
			return fmt.Errorf("merge %s: %w", fts, mapErr(err))
		}
	}
	return nil
}
