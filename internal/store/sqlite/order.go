package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// Ordered reads. With the statistics of ANALYZE, SQLite's planner answered "the latest ten
// events of a league" (eventspastleague.php, schedule/previous/league) by reading every
// event of the league through (idLeague, strSeason, intRound) and sorting them all, where
// (idLeague, strTimestamp) gives them in time order and the limit ends the read after ten:
// it prices the sort of the keys that follow strTimestamp (the ids of events that start
// together) like a whole sort, and read many times the rows the limit keeps.
// So a query whose equality conditions are the leading columns of an index, and whose first
// sort key is that index's next column, names the index (INDEXED BY). Such an index reads
// exactly the rows those conditions select, in order, so no other plan reads fewer.

// tableIndex is an index of a kind's table: its name and its leading plain columns (up to
// the first expression).
type tableIndex struct {
	name string
	cols []string
}

// readIndexes reads the indexes of each kind's table from the schema.
func readIndexes(ctx context.Context, db *sql.DB) (map[*record.Kind][]tableIndex, error) {
	out := map[*record.Kind][]tableIndex{}
	for _, k := range record.Kinds {
		names, err := strings1(ctx, db, `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? ORDER BY name`, k.Name)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			// An expression's column has no name: the index's plain prefix ends before it.
			cols, err := strings1(ctx, db, `SELECT coalesce(name, '') FROM pragma_index_info(?) ORDER BY seqno`, name)
			if err != nil {
				return nil, err
			}
			if i := slices.Index(cols, ""); i >= 0 {
				cols = cols[:i]
			}
			out[k] = append(out[k], tableIndex{name: name, cols: cols})
		}
	}
	return out, nil
}

// strings1 is the first column of a query's rows.
func strings1(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// orderedIndex is the index of ixs whose leading columns are those of q's equality
// conditions and whose next column is q's first sort key, or "".
func orderedIndex(ixs []tableIndex, q store.Query) string {
	first, ok := sortColumn(q)
	if !ok {
		return ""
	}
	var eq []string
	for _, c := range q.Where {
		if len(c.Or) > 0 || c.Op != store.Eq {
			continue
		}
		ix, ok := q.Kind.IndexOf(c.Field, c.Norm)
		if !ok || strings.ContainsRune(c.Value, 0) { // a NUL value is written as 1 = 0
			return ""
		}
		if !slices.Contains(eq, ix.Column()) {
			eq = append(eq, ix.Column())
		}
	}
	if len(eq) == 0 {
		return ""
	}
	for _, t := range ixs {
		if len(t.cols) > len(eq) && t.cols[len(eq)] == first &&
			!slices.ContainsFunc(t.cols[:len(eq)], func(c string) bool { return !slices.Contains(eq, c) }) {
			return t.name
		}
	}
	return ""
}

// sortColumn is the index column of q's first sort key, when an index can give its rows in
// that order (not a numeric sort).
func sortColumn(q store.Query) (string, bool) {
	if q.Kind == nil || len(q.OrderBy) == 0 || q.OrderBy[0].Numeric {
		return "", false
	}
	ix, ok := q.Kind.IndexOf(q.OrderBy[0].Field, q.OrderBy[0].Norm)
	if !ok {
		return "", false
	}
	return ix.Column(), true
}

// fromOrdered is the FROM of q's statement: its table, with the ordered index if it has one.
func fromOrdered(ixs []tableIndex, q store.Query) string {
	if q.Kind == nil {
		return "" // the statement is refused for it (sqlstore.SelectFrom)
	}
	from := sqlstore.Table(q.Kind)
	if ix := orderedIndex(ixs, q); ix != "" {
		from += ` INDEXED BY "` + ix + `"`
	}
	return from
}

// branchIndexes says whether q can be read per branch (sqlstore.SelectBranches): it has a
// limit and one Or, each of whose branches is an equality on the leading column of an index
// whose next column is q's first sort key, and every other condition is on that sort key, so
// the branches read their indexes alone. It returns the Or's place and each branch's table
// with its index.
//
// A team's events are those it plays at home or away. With a limit, SQLite read every such
// row through the two indexes (a multi-index OR), doc and all, and sorted them to keep the
// latest ten, where (idHomeTeam, strTimestamp) and (idAwayTeam, strTimestamp) each give their
// rows in time order: read per branch, each branch stops at the limit, and a team's events
// are answered markedly faster (docs/PERFORMANCE.md).
func branchIndexes(ixs []tableIndex, q store.Query) (or int, from []string, ok bool) {
	if q.Limit <= 0 {
		return 0, nil, false
	}
	x, ok := sortColumn(q)
	if !ok {
		return 0, nil, false
	}
	or = -1
	for i, c := range q.Where {
		if len(c.Or) == 0 {
			if ix, ok := q.Kind.IndexOf(c.Field, c.Norm); !ok || ix.Column() != x || sqlstore.SubstringOnly(c) {
				return 0, nil, false // a search would take a trigram lookup
			}
			continue
		}
		if or >= 0 {
			return 0, nil, false
		}
		or = i
	}
	if or < 0 {
		return 0, nil, false
	}
	t := sqlstore.Table(q.Kind)
	for _, b := range q.Where[or].Or {
		if len(b.Or) > 0 || b.Op != store.Eq || strings.ContainsRune(b.Value, 0) {
			return 0, nil, false
		}
		ix, ok := q.Kind.IndexOf(b.Field, b.Norm)
		if !ok {
			return 0, nil, false
		}
		i := slices.IndexFunc(ixs, func(t tableIndex) bool {
			return len(t.cols) > 1 && t.cols[0] == ix.Column() && t.cols[1] == x
		})
		if i < 0 {
			return 0, nil, false
		}
		from = append(from, t+` INDEXED BY "`+ixs[i].name+`"`)
	}
	return or, from, true
}
