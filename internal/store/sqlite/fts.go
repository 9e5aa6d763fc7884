package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// ftsColumns are the index columns of each kind that have a trigram index, in the table
// <kind>_fts (migration 0002). A search inside any other column scans its table.
var ftsColumns = map[*record.Kind][]string{
	record.Team:   {"n_strteam", "l_strteamalternate"},
	record.Player: {"n_strplayer"},
	record.Venue:  {"n_strvenue", "l_strvenuealternate"},
	record.League: {"n_strleague", "l_strleaguealternate"},
	record.TV:     {"n_strchannel"},
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

// A search reads its candidates from the trigram index, then every candidate's row, and
// sorts them before the limit applies: its cost grows with the candidates. The plain scan
// walks the table (or an index) in the query's order and stops at the limit: when the
// needle is frequent, it reaches the limit after a few rows. The store picks the scan when
// the candidates exceed about sqrt(limit * rows / scanPerLookup), where the costs of the
// two ways meet if the candidates spread evenly over the order.
const scanPerLookup = 4

// ftsLookup is one needle of a query that the trigram index can look up; the statement
// takes its candidates' rowids as a JSON array in the argument that is the lookup itself.
type ftsLookup struct {
	kind        *record.Kind
	col, needle string
}

// selectSQL is the statement answering q, and the trigram lookups whose candidates its
// arguments still miss (see resolve). A lookup finds the rows holding some trigrams of
// the needle (see trigramQuery), case folded beyond ASCII: every row the LIKE on the table
// matches, maybe more. That LIKE, which stays in the statement, decides.
func selectSQL(q store.Query) (string, []any, []*ftsLookup, error) {
	var lookups []*ftsLookup
	d := sqlstore.SQLite
	d.Substring = func(b *sqlstore.Builder, k *record.Kind, col, needle string) string {
		if !slices.Contains(ftsColumns[k], col) || !trigramNeedle(needle) {
			return ""
		}
		l := &ftsLookup{k, col, needle}
		lookups = append(lookups, l)
		return "seq IN (SELECT value FROM json_each(" + b.Arg(l) + "))"
	}
	query, args, err := sqlstore.Select(d, q)
	return query, args, lookups, err
}

// resolve looks the needles up in the trigram indexes, in the read transaction the query
// then runs in, and puts their candidates in args. When q has a limit and a needle has
// more candidates than the scan would read, it returns the plain scan instead.
func resolve(ctx context.Context, tx *sql.Tx, q store.Query, query string, args []any, lookups []*ftsLookup) (string, []any, error) {
	enough := int64(-1) // no limit
	if q.Limit > 0 {
		var rows int64
		// max(seq) reads one b-tree leaf, where count(*) would read the table; rows
		// deleted since only make it larger.
		err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM `+sqlstore.Table(q.Kind)).Scan(&rows)
		if err != nil {
			return "", nil, fmt.Errorf("rows of %s: %w", q.Kind.Name, mapErr(err))
		}
		enough = int64(math.Sqrt(float64(q.Limit) * float64(rows) / scanPerLookup))
	}
	found := map[*ftsLookup]string{}
	for _, l := range lookups {
		ids, n, err := candidates(ctx, tx, l, enough)
		if err != nil {
			return "", nil, err
		}
		if enough >= 0 && n >= enough {
			query, args, err := sqlstore.Select(sqlstore.SQLite, q)
			return query, args, err
		}
		found[l] = ids
	}
	for i, a := range args {
		if l, ok := a.(*ftsLookup); ok {
			args[i] = found[l]
		}
	}
	return query, args, nil
}

// candidates are the rowids the index finds for a needle, at most limit (-1: all), as a
// JSON array, and how many there are.
func candidates(ctx context.Context, tx *sql.Tx, l *ftsLookup, limit int64) (string, int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rowid FROM `+l.kind.Name+`_fts WHERE `+l.col+` MATCH ? LIMIT ?`,
		trigramQuery(l.needle), limit)
	if err != nil {
		return "", 0, fmt.Errorf("candidates in %s.%s: %w", l.kind.Name, l.col, mapErr(err))
	}
	defer rows.Close()
	ids := []byte{'['}
	var n int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return "", 0, fmt.Errorf("candidates in %s.%s: %w", l.kind.Name, l.col, mapErr(err))
		}
		if n > 0 {
			ids = append(ids, ',')
		}
		ids = strconv.AppendInt(ids, id, 10)
		n++
	}
	if err := rows.Err(); err != nil {
		return "", 0, fmt.Errorf("candidates in %s.%s: %w", l.kind.Name, l.col, mapErr(err))
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
	for k, n := range t.ftsRows {
		if n < optimizeAfter {
			continue
		}
		fts := k.Name + "_fts"
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO `+fts+` (`+fts+`) VALUES ('optimize')`); err != nil {
			return fmt.Errorf("merge %s: %w", fts, mapErr(err))
		}
	}
	return nil
}
