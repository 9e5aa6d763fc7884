package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"sportsdb/internal/record"
)

// The reads of an in-memory name index (internal/store/nameindex): every row's seq, id and
// some index columns, and the docs of chosen rows by seq. Each is one statement, so it reads
// one snapshot, and each returns the data version of that snapshot (the meta row), so the
// index knows exactly which version it holds and whether the docs it reads belong to it.

// versionSQL is the data version, as a subquery.
const versionSQL = `(SELECT value FROM meta WHERE name = 'data_version')`

// IndexRows calls fn with the seq, id and the named index columns of every record of k, in
// seq order, and returns the data version the rows are of. vals is reused
// between calls. It has no deadline of its own, like Scan.
func (db *DB) IndexRows(ctx context.Context, k *record.Kind, cols []string, fn func(seq int64, id string, vals []string) error) (int64, error) {
	// meta LEFT JOIN the table: one row with the version even when the table is empty.
	sel := []string{"m.value", "coalesce(t.seq, 0)", "coalesce(t.id, '')"}
	for _, c := range cols {
		sel = append(sel, "coalesce(t."+quote(c)+", '')")
	}
	query := `SELECT ` + strings.Join(sel, ", ") + ` FROM meta m LEFT JOIN ` + Table(k) + ` t ON 1 = 1 WHERE m.name = 'data_version' ORDER BY t.seq`
	rows, err := db.c.Read.Query(ctx, query)
	if err != nil {
		return 0, fmt.Errorf("%s: index rows of %s: %w", db.c.Name, k.Name, db.MapErr(err))
	}
	defer rows.Close()
	var version, seq int64
	var id string
	vals := make([]string, len(cols))
	dest := []any{&version, &seq, &id}
	for i := range vals {
		dest = append(dest, &vals[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return 0, fmt.Errorf("%s: index rows of %s: %w", db.c.Name, k.Name, db.MapErr(err))
		}
		if seq == 0 {
			continue // the empty table's one row
		}
		if err := fn(seq, id, vals); err != nil {
			return 0, err
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("%s: index rows of %s: %w", db.c.Name, k.Name, db.MapErr(err))
	}
	return version, nil
}

// DocsBySeqs returns the records of k whose seqs are given, in that order (a missing seq is
// left out), and the data version they are of: 0 when none was found.
func (db *DB) DocsBySeqs(ctx context.Context, k *record.Kind, seqs []int64) ([]record.Record, int64, error) {
	return db.DocsBySeqsWith(ctx, db.c.Read.Query, k, seqs)
}

// DocsBySeqsWith is DocsBySeqs running its statement with query: a backend's prepared
// statements, say.
func (db *DB) DocsBySeqsWith(ctx context.Context, query QueryFunc, k *record.Kind, seqs []int64) ([]record.Record, int64, error) {
	if len(seqs) == 0 {
		return nil, 0, nil
	}
	t := Table(k)
	var stmt string
	var arg any
	if db.c.Dialect.Param(1) == "?" { // SQLite: the seqs as a JSON array
		b := make([]byte, 0, len(seqs)*8)
		b = append(b, '[')
		for i, s := range seqs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, s, 10)
		}
		arg = string(append(b, ']'))
		stmt = `SELECT ` + t + `.doc, ` + versionSQL + ` FROM json_each(?) CROSS JOIN ` + t + ` ON ` + t + `.seq = json_each.value ORDER BY json_each.key`
	} else {
		arg = seqs
		stmt = `SELECT t.doc, ` + versionSQL + ` FROM unnest($1::bigint[]) WITH ORDINALITY AS k(seq, i) JOIN ` + t + ` t ON t.seq = k.seq ORDER BY k.i`
	}
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	rows, err := query(ctx, stmt, arg)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: docs of %s: %w", db.c.Name, k.Name, db.MapErr(err))
	}
	defer rows.Close()
	out := make([]record.Record, 0, len(seqs))
	var version int64
	for rows.Next() {
		var doc docColumn
		if err := rows.Scan(&doc, &version); err != nil {
			return nil, 0, fmt.Errorf("%s: docs of %s: %w", db.c.Name, k.Name, db.MapErr(err))
		}
		out = append(out, doc.record(k))
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: docs of %s: %w", db.c.Name, k.Name, db.MapErr(err))
	}
	return out, version, nil
}
