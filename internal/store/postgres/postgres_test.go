package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/sqlstore"
	"sportsdb/internal/store/storetest"
)

func openFresh(t testing.TB) *Store {
	t.Helper()
	dsn := pgtest.FreshSchema(t)
	return storetest.Opened(t, func(ctx context.Context) (*Store, error) { return Open(ctx, dsn) })
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openFresh(t) })
}

// The migrated schema must hold every table and column record.Kinds asks for.
func TestSchemaMatchesKinds(t *testing.T) {
	s := openFresh(t)
	storetest.CheckSchema(t, querier{s.pool}, `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`)
}

// Migrating twice, or opening a migrated database, changes nothing.
func TestMigrateIsIdempotent(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	ctx := context.Background()
	for range 2 {
		if err := Migrate(ctx, dsn); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if want := len(mustMigrations(t)); n != want {
		t.Errorf("schema_migrations has %d rows, want %d", n, want)
	}
}

// Every query shape can be answered from an index, substring searches from trigram indexes.
// Seq scans are turned off so the planner shows what it can do, not what is cheapest on
// empty tables.
func TestQueriesUseIndexes(t *testing.T) {
	explain := planner(t, `SET enable_seqscan = off`)
	plan := func(name string, q store.Query) string {
		query, args, err := sqlstore.Select(sqlstore.Postgres, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return explain(name, query, args...)
	}
	check := func(name string, q store.Query, want string) {
		if text := plan(name, q); strings.Contains(text, "Seq Scan") || !strings.Contains(text, want) {
			t.Errorf("%s: want a plan using %q:\n%s", name, want, text)
		}
	}
	for name, q := range storetest.LookupQueries() {
		check(name, q, "Index")
	}
	for name, q := range storetest.SubstringQueries() {
		check(name, q, "_trgm")
	}
	for name, q := range storetest.OrderedQueries() {
		if text := plan(name, q); strings.Contains(text, "Sort") {
			t.Errorf("%s: sorts instead of reading an index in order:\n%s", name, text)
		}
	}
}

// A write's history docs are found through the records it wrote, not through every change
// of their kind the feed keeps, also in the generic plan a prepared statement comes to.
func TestChangeDocsSeekTheirRecords(t *testing.T) {
	// Seq scans are off, as in TestQueriesUseIndexes: the tables are nearly empty.
	explain := planner(t, `SET plan_cache_mode = force_generic_plan`, `SET enable_seqscan = off`)
	plan := explain("history docs", sqlstore.ChangeDocsSQL(sqlstore.Postgres, record.Event, 2), int64(10), "event", "1", "2")
	if !strings.Contains(plan, "changes_record") || !strings.Contains(plan, "(id = ANY") {
		t.Errorf("the history docs of two events are not sought by id:\n%s", plan)
	}
}

// A read of the feed for some kinds reads the cursors after its own, rather than every
// change of those kinds, also in a generic plan.
func TestChangesOfKindsReadInCursorOrder(t *testing.T) {
	explain := planner(t, `SET plan_cache_mode = force_generic_plan`, `SET enable_seqscan = off`)
	kinds := []*record.Kind{record.Team, record.LiveScore}
	plan := explain("changes of two kinds", sqlstore.ChangesSQL(sqlstore.Postgres, len(kinds)), sqlstore.ChangesArgs(10, 20, kinds, 100)...)
	if !strings.Contains(plan, "changes_pkey") || strings.Contains(plan, "changes_record") {
		t.Errorf("the changes of two kinds are not read by cursor:\n%s", plan)
	}
}

// What a commit prunes is found in the time index, not by walking the feed backwards, also
// in a generic plan.
func TestPruneCutoffFromTheTimeIndex(t *testing.T) {
	explain := planner(t, `SET plan_cache_mode = force_generic_plan`, `SET enable_seqscan = off`)
	plan := explain("prune cutoff", sqlstore.PruneCutoffSQL(sqlstore.Postgres), "2026-11-30 00:00:00")
	if !strings.Contains(plan, "changes_time") || strings.Contains(plan, "changes_pkey") {
		t.Errorf("the prune's cutoff is not read from the time index:\n%s", plan)
	}
}

// planner returns what EXPLAIN says of a query on a fresh store, on a connection of its own
// with the settings run first.
func planner(t *testing.T, settings ...string) func(name, query string, args ...any) string {
	t.Helper()
	s := openFresh(t)
	ctx := context.Background()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.Exec(ctx, `RESET ALL`)
		conn.Release()
	})
	for _, q := range settings {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	return func(name, query string, args ...any) string {
		t.Helper()
		rows, err := conn.Query(ctx, "EXPLAIN "+query, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return strings.Join(lines, "\n")
	}
}

func mustMigrations(t *testing.T) []sqlstore.Migration {
	t.Helper()
	ms, err := sqlstore.Migrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func BenchmarkUpsert(b *testing.B)      { storetest.BenchUpsert(b, openFresh(b)) }
func BenchmarkUpsertLight(b *testing.B) { storetest.BenchUpsertLight(b, openFresh(b)) }
func BenchmarkUpsertMerge(b *testing.B) { storetest.BenchUpsertMerge(b, openFresh(b)) }
func BenchmarkFind(b *testing.B)        { storetest.BenchFind(b, openFresh(b)) }
func BenchmarkGet(b *testing.B)         { storetest.BenchGet(b, openFresh(b)) }

// A write that fills a table leaves it analyzed: the planner knows how many rows it holds and
// how its index columns spread, as it would not until autovacuum came round (or ever, with
// autovacuum off).
func TestBulkWriteAnalyzes(t *testing.T) {
	s := openFresh(t)
	ctx := context.Background()
	const n = sqlstore.AnalyzeAfter + 500
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range n {
			e := record.Event.NewRecord()
			e.Set("idEvent", record.Str(fmt.Sprint(i+1)))
			e.Set("idHomeTeam", record.Str(fmt.Sprint(i%300)))
			if err := tx.Upsert(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var tuples float64
	var distinct float64
	err = s.pool.QueryRow(ctx, `SELECT c.reltuples, coalesce((SELECT n_distinct FROM pg_stats s
		WHERE s.schemaname = current_schema() AND s.tablename = 'event' AND s.attname = 'c_idhometeam'), 0)
		FROM pg_class c WHERE c.oid = 'event'::regclass`).Scan(&tuples, &distinct)
	if err != nil {
		t.Fatal(err)
	}
	if tuples != n || distinct != 300 {
		t.Errorf("after writing %d events of 300 home teams, the planner counts %.0f rows and %.0f home teams", n, tuples, distinct)
	}
}

// A write that fills a table it found empty builds that table's secondary indexes after the
// rows: dropped during the write, the same indexes are there after the commit, and a write
// that fails leaves them as they were.
func TestBulkWriteDefersIndexes(t *testing.T) {
	s := openFresh(t)
	ctx := context.Background()
	indexes := func() string {
		t.Helper()
		var defs string
		err := s.pool.QueryRow(ctx, `SELECT string_agg(indexdef, E'\n' ORDER BY indexname) FROM pg_indexes
			WHERE schemaname = current_schema() AND tablename = 'event'`).Scan(&defs)
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	before := indexes()
	if !strings.Contains(before, "c_idhometeam") {
		t.Fatalf("the event table has no index on its home team:\n%s", before)
	}
	fill := func(fail error) error {
		return s.Write(ctx, func(w store.Tx) error {
			for i := range deferIndexesAfter + 500 {
				e := record.Event.NewRecord()
				e.Set("idEvent", record.Str(fmt.Sprint(i+1)))
				e.Set("idHomeTeam", record.Str(fmt.Sprint(i%300)))
				if err := w.Upsert(ctx, e); err != nil {
					return err
				}
			}
			if w.(*tx).deferral.Pending() == 0 {
				t.Error("the write kept the event table's indexes up while it filled the table")
			}
			return fail
		})
	}
	failed := errors.New("the import failed")
	if err := fill(failed); !errors.Is(err, failed) {
		t.Fatalf("a failing write returned %v", err)
	}
	if got := indexes(); got != before {
		t.Errorf("after a failed write the indexes are\n%s\nnot\n%s", got, before)
	}
	if err := fill(nil); err != nil {
		t.Fatal(err)
	}
	if got := indexes(); got != before {
		t.Errorf("after the write the indexes are\n%s\nnot\n%s", got, before)
	}
	recs, err := s.Find(ctx, store.Query{Kind: record.Event, Where: []store.Cond{{Field: "idHomeTeam", Norm: record.Exact, Op: store.Eq, Value: "7"}}})
	if want := (deferIndexesAfter + 500 + 299 - 7) / 300; err != nil || len(recs) != want {
		t.Errorf("events of home team 7: %d, %v; want %d", len(recs), err, want)
	}
}

// Every connection plans its prepared statements once, for any values, unless the address
// sets plan_cache_mode itself.
func TestGenericPlans(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	ctx := context.Background()
	for _, c := range []struct{ dsn, want string }{
		{dsn, "force_generic_plan"},
		{pgtest.WithParam(dsn, "plan_cache_mode", "auto"), "auto"},
	} {
		s, err := Open(ctx, c.dsn)
		if err != nil {
			t.Fatal(err)
		}
		var mode string
		err = s.pool.QueryRow(ctx, `SHOW plan_cache_mode`).Scan(&mode)
		s.Close()
		if err != nil || mode != c.want {
			t.Errorf("plan_cache_mode %q (%v), want %q", mode, err, c.want)
		}
	}
}

func TestServerMajor(t *testing.T) {
	for v, want := range map[string]int{"15.20 (Debian 15.20-0+deb12u1)": 15, "9.6.24": 9, "17beta1": 17, "12": 12, "": 0, "x": 0} {
		if got := serverMajor(v); got != want {
			t.Errorf("serverMajor(%q) = %d, want %d", v, got, want)
		}
	}
}
