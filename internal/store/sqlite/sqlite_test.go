package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
	"sportsdb/internal/store/storetest"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "test.db"))
}

// openAt opens the store at path, closed when the test ends.
func openAt(t testing.TB, path string) *Store {
	t.Helper()
	return storetest.Opened(t, func(ctx context.Context) (*Store, error) { return Open(ctx, path) })
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
}

// The migrated schema must hold every table and column record.Kinds asks for.
func TestSchemaMatchesKinds(t *testing.T) {
	s := openTemp(t)
	storetest.CheckSchema(t, sqlstore.Std(s.read), `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`)
}

func BenchmarkUpsert(b *testing.B)      { storetest.BenchUpsert(b, openTemp(b)) }
func BenchmarkUpsertLight(b *testing.B) { storetest.BenchUpsertLight(b, openTemp(b)) }
func BenchmarkUpsertMerge(b *testing.B) { storetest.BenchUpsertMerge(b, openTemp(b)) }
func BenchmarkFind(b *testing.B)        { storetest.BenchFind(b, openTemp(b)) }
func BenchmarkGet(b *testing.B)         { storetest.BenchGet(b, openTemp(b)) }

// The API's query shapes must be index lookups, not table scans.
func TestQueriesUseIndexes(t *testing.T) { checkPlans(t, openTemp(t)) }

func checkPlans(t *testing.T, s *Store) {
	t.Helper()
	for name, q := range storetest.LookupQueries() {
		query, args, err := sqlstore.Select(sqlstore.SQLite, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plan := queryPlan(t, s, query, args)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") {
				t.Errorf("%s scans: %v\n%s", name, plan, query)
			}
		}
	}
	for name, q := range storetest.OrderedQueries() {
		query, args, err := sqlstore.Select(sqlstore.SQLite, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if plan := queryPlan(t, s, query, args); strings.Contains(strings.Join(plan, "\n"), "TEMP B-TREE") {
			t.Errorf("%s sorts instead of reading an index in order: %v\n%s", name, plan, query)
		}
	}
}

// A write's history docs are found through the records it wrote, not through every change
// of their kind the feed keeps.
func TestChangeDocsSeekTheirRecords(t *testing.T) {
	s := openTemp(t)
	plan := strings.Join(queryPlan(t, s, sqlstore.ChangeDocsSQL(sqlstore.SQLite, record.Event, 2), []any{int64(10), "event", "1", "2"}), "\n")
	if !strings.Contains(plan, "changes_record (kind=? AND id=? AND seq>?)") {
		t.Errorf("the history docs of two events are not sought by id:\n%s", plan)
	}
}

// A read of the feed for some kinds walks the cursors after its own, in order, to its limit,
// rather than every change of those kinds and a sort.
func TestChangesOfKindsReadInCursorOrder(t *testing.T) {
	s := openTemp(t)
	kinds := []*record.Kind{record.Team, record.LiveScore}
	plan := strings.Join(queryPlan(t, s, sqlstore.ChangesSQL(sqlstore.SQLite, len(kinds)), sqlstore.ChangesArgs(10, 20, kinds, 100)), "\n")
	if !strings.Contains(plan, "USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("the changes of two kinds are not read in cursor order:\n%s", plan)
	}
}

// What a commit prunes is found in the time index, not by walking the feed.
func TestPruneCutoffFromTheTimeIndex(t *testing.T) {
	s := openTemp(t)
	plan := queryPlan(t, s, sqlstore.PruneCutoffSQL(sqlstore.SQLite), []any{"2026-11-30 00:00:00"})
	if !strings.Contains(strings.Join(plan, "\n"), "INDEX changes_time") {
		t.Errorf("the prune's cutoff is not read from the time index: %q", plan)
	}
	for _, step := range plan {
		if strings.Contains(step, " changes") && !strings.Contains(step, "INDEX changes_time") || strings.Contains(step, "TEMP B-TREE") {
			t.Errorf("the prune's cutoff also reads the feed otherwise: %q", step)
		}
	}
}

// queryPlan returns the steps of SQLite's plan for a query.
func queryPlan(t *testing.T, s *Store, query string, args []any) []string {
	t.Helper()
	rows, err := s.read.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}

// Another process holding the write lock past the deadline makes a write ErrUnavailable,
// and an expired deadline does the same for a read.
func TestLockedAndLateAreUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite", dsn(path, writeCacheKiB, "_txlock=immediate"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	holder, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	if _, err := holder.Exec(`UPDATE meta SET value = value WHERE name = 'data_version'`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err = s.Write(ctx, func(store.Tx) error { return nil })
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("write while another holds the lock: got %v, want ErrUnavailable", err)
	}
	late, cancelLate := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelLate()
	if _, err := s.Count(late, record.Team); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("read past its deadline: got %v, want ErrUnavailable", err)
	}
	// Reads by key run unwatched (keyed), but not once their context has ended.
	if _, err := s.Get(late, record.Team, "1"); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("get past its deadline: got %v, want ErrUnavailable", err)
	}
	if _, _, err := s.DocsBySeqs(late, record.Team, []int64{1}); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("docs by seq past their deadline: got %v, want ErrUnavailable", err)
	}
}

// A read by key under a context that can still end reads as any other; one under a
// context already cancelled reads nothing.
func TestKeyedReadsFollowTheirContext(t *testing.T) {
	s := openTemp(t)
	team := record.Team.NewRecord()
	team.Set("idTeam", record.Str("7"))
	team.Set("strTeam", record.Str("Kept"))
	if err := s.Write(context.Background(), func(tx store.Tx) error { return tx.Upsert(context.Background(), team) }); err != nil {
		t.Fatal(err)
	}
	live, cancel := context.WithCancel(context.Background())
	got, err := s.Get(live, record.Team, "7")
	if err != nil || got.Str("strTeam") != "Kept" {
		t.Fatalf("get under a live context: %v %v", got, err)
	}
	names, _, err := s.DocsBySeqs(live, record.Team, []int64{1})
	if err != nil || len(names) != 1 || names[0].Str("strTeam") != "Kept" {
		t.Fatalf("docs by seq under a live context: %v %v", names, err)
	}
	cancel()
	if _, err := s.Get(live, record.Team, "7"); !errors.Is(err, context.Canceled) {
		t.Errorf("get under a cancelled context: %v, want context.Canceled", err)
	}
	if _, _, err := s.DocsBySeqs(live, record.Team, []int64{1}); !errors.Is(err, context.Canceled) {
		t.Errorf("docs by seq under a cancelled context: %v, want context.Canceled", err)
	}
	byName := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Eq, Value: "kept"}}}
	if _, err := s.Find(live, byName); !errors.Is(err, context.Canceled) {
		t.Errorf("find by equality under a cancelled context: %v, want context.Canceled", err)
	}
	if got, err := s.Find(context.Background(), byName); err != nil || len(got) != 1 {
		t.Errorf("find by equality: %d records, %v", len(got), err)
	}
}

func TestByKeys(t *testing.T) {
	eq := func(f, v string) store.Cond { return store.Cond{Field: f, Op: store.Eq, Value: v} }
	for _, c := range []struct {
		name  string
		where []store.Cond
		want  bool
	}{
		{"no condition", nil, false},
		{"one equality", []store.Cond{eq("idLeague", "4328")}, true},
		{"equalities and alternatives", []store.Cond{eq("strSeason", "2025-2026"), {Or: []store.Cond{eq("idHomeTeam", "1"), eq("idAwayTeam", "1")}}}, true},
		{"a range beside an equality", []store.Cond{eq("idHomeTeam", "1"), {Field: "dateEvent", Op: store.Ge, Value: "2026-01-01"}}, false},
		{"a substring in an alternative", []store.Cond{{Or: []store.Cond{eq("strTeam", "a"), {Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "a"}}}}, false},
		{"a list item", []store.Cond{{Field: "strTeamAlternate", Norm: record.List, Op: store.ListHas, Value: "a"}}, false},
	} {
		if got := byKeys(store.Query{Kind: record.Event, Where: c.where}); got != c.want {
			t.Errorf("%s: byKeys %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOpenRejectsNonFiles(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file:x.db?mode=memory"} {
		if s, err := Open(context.Background(), p); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

// A file name with URI metacharacters is a plain file name.
func TestOpenOddFileName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a?b#c%d.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not created under its own name: %v", err)
	}
}

// The readers' page caches are bounded, whichever connection of the pool answers, and the
// writer's is large only while it writes: SQLite's caches share one pool as large as all
// their limits together (see readCacheKiB).
func TestReadCacheIsBounded(t *testing.T) {
	s := openTemp(t)
	writer := func() int {
		t.Helper()
		var kib int
		if err := s.write.QueryRow(`PRAGMA cache_size`).Scan(&kib); err != nil {
			t.Fatal(err)
		}
		return kib
	}
	if kib := writer(); kib != -readCacheKiB {
		t.Errorf("writer cache_size after open %d, want %d", kib, -readCacheKiB)
	}
	var during int
	err := s.Write(context.Background(), func(t store.Tx) error {
		return t.(*tx).tx.QueryRow(`PRAGMA cache_size`).Scan(&during)
	})
	if err != nil || during != -writeCacheKiB {
		t.Errorf("writer cache_size during a write %d (%v), want %d", during, err, -writeCacheKiB)
	}
	if kib := writer(); kib != -readCacheKiB {
		t.Errorf("writer cache_size after a write %d, want %d", kib, -readCacheKiB)
	}
	for range 3 {
		var kib int
		if err := s.read.QueryRow(`PRAGMA cache_size`).Scan(&kib); err != nil {
			t.Fatal(err)
		}
		if kib != -readCacheKiB {
			t.Errorf("reader cache_size %d, want %d", kib, -readCacheKiB)
		}
	}
}

// PoolStats counts a query that found every connection of a pool in use, and its wait: the
// writer pool has one connection, held here while another query asks for it.
func TestPoolStatsCountWaits(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	before := s.PoolStats()
	if len(before) != 4 || before[0].Pool != "read" || before[1].Pool != "write" || before[1].MaxOpen != 1 ||
		before[2].Pool != "version" || before[2].MaxOpen != 1 || before[3].Pool != "changes" || before[3].MaxOpen != changesConns {
		t.Fatalf("pools %+v, want read, then write and version with one connection each, then changes", before)
	}
	held, err := s.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if w := s.PoolStats()[1]; w.InUse != 1 || w.Idle != 0 {
		t.Errorf("writer pool with its connection held: %+v, want 1 in use, 0 idle", w)
	}
	done := make(chan error, 1)
	go func() { done <- s.write.PingContext(ctx) }()
	// The pool counts a wait as the query starts waiting; it tells of it no other way. The
	// bound only turns a hang into a failure.
	for deadline := time.Now().Add(30 * time.Second); s.PoolStats()[1].Waits == before[1].Waits; {
		if time.Now().After(deadline) {
			t.Fatal("the query never waited for the held connection")
		}
		runtime.Gosched()
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	after := s.PoolStats()[1]
	if after.Waits != before[1].Waits+1 {
		t.Errorf("writer pool waits %d after one blocked query, want %d", after.Waits, before[1].Waits+1)
	}
	if got := after.WaitTime - before[1].WaitTime; got <= 0 {
		t.Errorf("writer pool waited %v for a held connection, want more than nothing", got)
	}
	if after.InUse != 0 || after.Idle != 1 {
		t.Errorf("writer pool after: %+v, want its one connection idle", after)
	}
}

// The change feed is read from a pool of its own: with every read connection held (answers
// being computed), the feed's reads, which every request whose data version moved waits
// for, still answer at once.
func TestFeedReadsDoNotWaitForTheReadPool(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for range s.readConns {
		c, err := s.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	if w := s.PoolStats()[0]; w.InUse != s.readConns {
		t.Fatalf("read pool %+v, want all %d connections in use", w, s.readConns)
	}
	// The bound only turns a wait for a read connection into a failure.
	short, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := s.LatestCursor(short); err != nil {
		t.Errorf("LatestCursor with the read pool in use: %v", err)
	}
	if _, _, err := s.Changes(short, 0, nil, 10); err != nil {
		t.Errorf("Changes with the read pool in use: %v", err)
	}
}
