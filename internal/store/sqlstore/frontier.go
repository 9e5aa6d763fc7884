package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/store"
)

// FrontierStatements are the mirror frontier's statements (migrations 0004_mirror_frontier),
// the same on both backends but for the placeholders.
type FrontierStatements struct {
	Add, Set, Due, Get, Stats string
}

const frontierColumns = `url, priority, due_ms, fetched_ms, status, fails, note`

// frontierSQL writes the statements with placeholders made by ph (1-based): "?" or "$n".
func frontierSQL(ph func(int) string) FrontierStatements {
	ps := func(n int) string {
		p := make([]string, n)
		for i := range p {
			p[i] = ph(i + 1)
		}
		return strings.Join(p, ", ")
	}
	insert := `INSERT INTO mirror_frontier (` + frontierColumns + `) VALUES (` + ps(7) + `) ON CONFLICT (url) DO `
	return FrontierStatements{
		Add: insert + `NOTHING`,
		Set: insert + `UPDATE SET due_ms = excluded.due_ms, fetched_ms = excluded.fetched_ms, ` +
			`status = excluded.status, fails = excluded.fails, note = excluded.note`,
		Due: `SELECT ` + frontierColumns + ` FROM mirror_frontier WHERE due_ms <= ` + ph(1) +
			` ORDER BY priority DESC, seq LIMIT ` + ph(2),
		Get: `SELECT ` + frontierColumns + ` FROM mirror_frontier WHERE url = ` + ph(1),
		Stats: `SELECT count(*), count(*) FILTER (WHERE due_ms <= ` + ph(1) + `), ` +
			`count(*) FILTER (WHERE status = 'failed'), ` +
			`coalesce(min(due_ms) FILTER (WHERE due_ms > ` + ph(1) + `), 0) FROM mirror_frontier`,
	}
}

// FrontierArgs are the values of an entry in the order of the Add and Set statements.
func FrontierArgs(e store.FrontierEntry) []any {
	return []any{e.URL, e.Priority, millis(e.Due), millis(e.Fetched), e.Status, e.Fails, e.Note}
}

// ResultRows is what both drivers' own result sets offer (database/sql's and pgx's).
type ResultRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanFrontier reads entries selected with the frontier's columns.
func ScanFrontier(rows ResultRows) ([]store.FrontierEntry, error) {
	var out []store.FrontierEntry
	for rows.Next() {
		e, err := ScanFrontierRow(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ScanFrontierRow reads one entry with scan (a Row's or Rows' Scan).
func ScanFrontierRow(scan func(dest ...any) error) (store.FrontierEntry, error) {
	var e store.FrontierEntry
	var due, fetched int64
	if err := scan(&e.URL, &e.Priority, &due, &fetched, &e.Status, &e.Fails, &e.Note); err != nil {
		return e, fmt.Errorf("frontier: %w", err)
	}
	e.Due, e.Fetched = fromMillis(due), fromMillis(fetched)
	return e, nil
}

// millis is t in Unix milliseconds, 0 for the zero time (due at once, never fetched).
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// Millis is t as the frontier stores it.
func Millis(t time.Time) int64 { return millis(t) }

// FromMillis is a stored time; 0 is the zero time.
func FromMillis(ms int64) time.Time { return fromMillis(ms) }

// FrontierDue returns up to limit entries due at or before t (store.Frontier).
func (db *DB) FrontierDue(ctx context.Context, t time.Time, limit int) ([]store.FrontierEntry, error) {
	rows, err := db.c.Read.Query(ctx, db.frontier.Due, Millis(t), limit)
	if err != nil {
		return nil, fmt.Errorf("%s: frontier: %w", db.c.Name, db.MapErr(err))
	}
	defer rows.Close()
	out, err := ScanFrontier(rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", db.c.Name, db.MapErr(err))
	}
	return out, nil
}

// FrontierGet returns one entry, or store.ErrNotFound.
func (db *DB) FrontierGet(ctx context.Context, url string) (store.FrontierEntry, error) {
	var e store.FrontierEntry
	err := queryRowFunc(ctx, db.c.Read, db.frontier.Get, []any{url}, func(scan func(...any) error) (err error) {
		e, err = ScanFrontierRow(scan)
		return err
	})
	if err != nil {
		return e, fmt.Errorf("%s: frontier %s: %w", db.c.Name, url, db.MapErr(err))
	}
	return e, nil
}

// FrontierStats counts the entries.
func (db *DB) FrontierStats(ctx context.Context, t time.Time) (store.FrontierStats, error) {
	var st store.FrontierStats
	var next int64
	err := queryRowFunc(ctx, db.c.Read, db.frontier.Stats, []any{Millis(t)}, func(scan func(...any) error) error {
		return scan(&st.Total, &st.Due, &st.Failed, &next)
	})
	st.Next = FromMillis(next)
	if err != nil {
		return st, fmt.Errorf("%s: frontier stats: %w", db.c.Name, db.MapErr(err))
	}
	return st, nil
}

// The frontier's statements of each dialect, numbered on SQLite too: a statement uses one
// argument twice, and SQLite's plain "?" would ask for it twice.
var (
	sqliteFrontier   = frontierSQL(func(n int) string { return "?" + strconv.Itoa(n) })
	postgresFrontier = frontierSQL(Postgres.Param)
)

// FrontierFor is the frontier's statements in a backend's placeholders.
func FrontierFor(d Dialect) FrontierStatements {
	if d.Param(1) == "?" {
		return sqliteFrontier
	}
	return postgresFrontier
}
