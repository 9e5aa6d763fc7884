package sqlite

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
	"sportsdb/internal/store/storetest"
)

// BenchmarkSearch measures, in CPU time, the API's substring searches on a generated dataset, through the
// trigram index and through the plain scan, and reports their latency percentiles. It runs
// on the database named by SPORTSDB_BENCH_DB (e.g. the small dataset of bench/run.sh),
// which opening it migrates when it is older than the store.
func BenchmarkSearch(b *testing.B) {
	src := os.Getenv("SPORTSDB_BENCH_DB")
	if src == "" {
		b.Skip("SPORTSDB_BENCH_DB names no database")
	}
	s, err := Open(context.Background(), src)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	queries := searchQueries(b, s)
	// Each query runs every way in turn, timed in CPU time of its thread: on a machine busy
	// with other work, wall time says more about the neighbours than about the query.
	ways := []struct {
		name string
		find func(store.Query)
		took []time.Duration
	}{
		{name: "store", find: func(q store.Query) {
			if _, err := s.Find(context.Background(), q); err != nil {
				b.Fatal(err)
			}
		}},
		{name: "index", find: func(q store.Query) { findIDs(b, s, indexOnly, q) }},
		{name: "scan", find: func(q store.Query) { findIDs(b, s, sqlstore.SQLite, q) }},
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		// Rotated, so no way always comes first to a cold page cache.
		for n := range ways {
			w := (n + i) % len(ways)
			start := storetest.ThreadCPU()
			ways[w].find(q)
			ways[w].took = append(ways[w].took, storetest.ThreadCPU()-start)
		}
	}
	for _, w := range ways {
		report(b, w.name, w.took)
	}
}

func report(b *testing.B, name string, took []time.Duration) {
	slices.Sort(took)
	for _, p := range []int{50, 99} {
		b.ReportMetric(float64(took[len(took)*p/100].Microseconds())/1000, name+"-p"+strconv.Itoa(p)+"-ms")
	}
}

// searchQueries are the shapes of the API's name searches (teams by name or alternate,
// players, venues, channels), with needles cut from stored names.
func searchQueries(b *testing.B, s *Store) []store.Query {
	b.Helper()
	const N, L = record.Name, record.List
	contains := func(f string, n record.Norm, v string) store.Cond {
		o := store.Contains
		if n == L {
			o = store.ListContains
		}
		return store.Cond{Field: f, Norm: n, Op: o, Value: v}
	}
	var out []store.Query
	for _, k := range []*record.Kind{record.Team, record.Player, record.Venue, record.TV} {
		col := ftsColumns[k][0]
		rows, err := s.read.Query(`SELECT ` + col + ` FROM ` + k.Name + ` WHERE ` + col + ` <> '' AND seq % 97 = 13 LIMIT 40`)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				b.Fatal(err)
			}
			// The whole name, its first word (as bench/loadgen searches) and its last word (a
			// surname, a town).
			words := strings.Fields(name)
			for _, needle := range []string{name, words[0], words[len(words)-1]} {
				field := ftsIndexes(k)[0].Field
				q := store.Query{Kind: k, Where: []store.Cond{contains(field, N, needle)}, Limit: 50,
					OrderBy: []store.Order{{Field: field, Norm: N}}}
				if idx := ftsIndexes(k); len(idx) > 1 {
					q.Where = []store.Cond{{Or: []store.Cond{contains(field, N, needle), contains(idx[1].Field, L, needle)}}}
				}
				out = append(out, q)
			}
		}
		rows.Close()
	}
	if len(out) == 0 {
		b.Fatal("no names to search for")
	}
	return out
}
