package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
	"sportsdb/internal/store/storetest"
)

func team(kv ...string) record.Record {
	r := record.Team.NewRecord()
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i], record.Str(kv[i+1]))
	}
	return r
}

func indexNames(t *testing.T, s *Store, table string) map[string]string {
	t.Helper()
	rows, err := s.read.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, create string
		if err := rows.Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		out[name] = create
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func upsertTeams(ctx context.Context, tx store.Tx, from, to int, league string) error {
	for i := from; i < to; i++ {
		r := team("idTeam", strconv.Itoa(i), "strTeam", "Team "+strconv.Itoa(i), "idLeague", league)
		if err := tx.Upsert(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// A large write, failed or not, leaves the kind's indexes as the schema has them, and
// queries use them.
func TestLargeWriteKeepsIndexes(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	want := indexNames(t, s, "team")
	if len(want) != 7 { // five name and league indexes, strTeamShort (searchteams.php?sname=) and team_search
		t.Fatalf("team has %d indexes, want 7: %v", len(want), want)
	}
	boom := errors.New("boom")
	err := s.Write(ctx, func(tx store.Tx) error {
		if err := upsertTeams(ctx, tx, 0, 3000, "1"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed write: got %v", err)
	}
	if n, _ := s.Count(ctx, record.Team); n != 0 {
		t.Errorf("failed large write kept %d teams", n)
	}
	if got := indexNames(t, s, "team"); len(got) != len(want) {
		t.Errorf("after a failed large write: indexes %v, want %v", got, want)
	}
	err = s.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, 0, 3000, "1") })
	if err != nil {
		t.Fatal(err)
	}
	got := indexNames(t, s, "team")
	for name, create := range want {
		if got[name] != create {
			t.Errorf("index %s after a large write: %q, want %q", name, got[name], create)
		}
	}
	checkPlans(t, s)
	var plan string
	q := `EXPLAIN QUERY PLAN SELECT doc FROM team WHERE c_idleague = ? ORDER BY n_strteam`
	if err := s.read.QueryRow(q, "1").Scan(new(int), new(int), new(int), &plan); err != nil {
		t.Fatal(err)
	}
	if plan != "SEARCH team USING INDEX team_c_idleague_n_strteam (c_idleague=?)" {
		t.Errorf("league teams after a large write: plan %q", plan)
	}
	recs, err := s.Find(ctx, store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Eq, Value: "team 2999"}}})
	if err != nil || len(recs) != 1 || recs[0].Str("idTeam") != "2999" {
		t.Errorf("find by name index: %v %v", recs, err)
	}
}

// An upsert must merge into the record an earlier batch of the same write stored, also in a
// table empty when the write began (no stored docs are read there), and into nothing after
// DeleteAll.
func TestUpsertMergesAcrossBatches(t *testing.T) {
	for _, stored := range []bool{false, true} {
		t.Run("stored="+strconv.FormatBool(stored), func(t *testing.T) {
			s := openTemp(t)
			if stored {
				// A table that is not empty takes the path that reads every id.
				put := func(tx store.Tx) error { return upsertTeams(context.Background(), tx, 90000, 90001, "8") }
				if err := s.Write(context.Background(), put); err != nil {
					t.Fatal(err)
				}
			}
			ctx := context.Background()
			err := s.Write(ctx, func(tx store.Tx) error {
				if err := tx.Upsert(ctx, team("idTeam", "1", "strTeam", "Arsenal", "strCountry", "England")); err != nil {
					return err
				}
				if err := upsertTeams(ctx, tx, 2, 2*batchSize+10, "9"); err != nil {
					return err
				}
				return tx.Upsert(ctx, team("idTeam", "1", "strStadium", "Emirates", "strCountry", ""))
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, record.Team, "1")
			if err != nil {
				t.Fatal(err)
			}
			if got.Str("strTeam") != "Arsenal" || got.Str("strStadium") != "Emirates" || got.Str("strCountry") != "England" {
				t.Errorf("merge across batches: %v", got)
			}
			err = s.Write(ctx, func(tx store.Tx) error {
				if err := tx.DeleteAll(ctx, record.Team); err != nil {
					return err
				}
				if err := upsertTeams(ctx, tx, 2, 2*batchSize+10, "9"); err != nil {
					return err
				}
				return tx.Upsert(ctx, team("idTeam", "1", "strStadium", "Emirates"))
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err = s.Get(ctx, record.Team, "1")
			if err != nil {
				t.Fatal(err)
			}
			if got.Get("strTeam").Valid || got.Str("strStadium") != "Emirates" {
				t.Errorf("upsert after DeleteAll merged into a deleted record: %v", got)
			}
			// DeleteAll emptied the table, the record stored before the write included.
			if n, _ := s.Count(ctx, record.Team); n != 2*batchSize+9 {
				t.Errorf("count %d, want %d", n, 2*batchSize+9)
			}
		})
	}
}

// A write committed by another Store on the same file (another process, as an import is)
// shows in DataVersion at once, and so do this store's own writes.
func TestDataVersionSeesOtherStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	ctx := context.Background()
	a := openAt(t, path)
	b := openAt(t, path)
	version := func(s *Store) int64 {
		t.Helper()
		v, err := s.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	prev := version(a)
	if version(a) != prev {
		t.Fatal("data version changed without a write")
	}
	for i := range 5 {
		writer := b
		if i%2 == 1 {
			writer = a
		}
		if err := writer.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, i, i+1, "1") }); err != nil {
			t.Fatal(err)
		}
		got := version(a)
		if got <= prev {
			t.Fatalf("write %d: data version %d, was %d", i, got, prev)
		}
		if other := version(b); other != got {
			t.Fatalf("write %d: stores disagree: %d and %d", i, got, other)
		}
		prev = got
	}
}

func BenchmarkDataVersion(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.DataVersion(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDataVersionParallel(b *testing.B) { storetest.BenchDataVersion(b, openTemp(b)) }

// An insert that fails on the insert goroutine fails the Write, keeps nothing, and leaves
// the store usable.
func TestWriteCanceledMidwayKeepsNothing(t *testing.T) {
	s := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	err := s.Write(ctx, func(tx store.Tx) error {
		if err := upsertTeams(ctx, tx, 0, 3*batchSize, "1"); err != nil {
			return err
		}
		cancel()
		return upsertTeams(ctx, tx, 3*batchSize, 6*batchSize, "1")
	})
	if err == nil {
		t.Fatal("canceled write succeeded")
	}
	bg := context.Background()
	if n, err := s.Count(bg, record.Team); err != nil || n != 0 {
		t.Errorf("canceled write kept %d teams (%v)", n, err)
	}
	if err := s.Write(bg, func(tx store.Tx) error { return upsertTeams(bg, tx, 0, 10, "1") }); err != nil {
		t.Fatalf("write after a canceled one: %v", err)
	}
	if n, _ := s.Count(bg, record.Team); n != 10 {
		t.Errorf("count %d, want 10", n)
	}
}

// A write that stores many rows in a table leaves the planner statistics of that table, so
// that a league's season is read through the season's index; a small write leaves none.
func TestBulkWriteAnalyzes(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	write := func(n, from int) {
		t.Helper()
		err := s.Write(ctx, func(tx store.Tx) error {
			for i := from; i < from+n; i++ {
				e := record.Event.NewRecord()
				e.Set("idEvent", record.Str(strconv.Itoa(i+1)))
				e.Set("idLeague", record.Str(strconv.Itoa(4000+i%3)))
				e.Set("strSeason", record.Str(strconv.Itoa(2000+i%40)))
				e.Set("strTimestamp", record.Str(fmt.Sprintf("%d-01-01T%05d", 2000+i%40, i)))
				if err := tx.Upsert(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	stats := func() string {
		t.Helper()
		var stat string
		err := s.write.QueryRowContext(ctx, `SELECT coalesce((SELECT stat FROM sqlite_stat1 WHERE tbl = 'event' AND idx = 'event_c_idleague_c_strseason_c_intround'), '')`).Scan(&stat)
		if err != nil && !strings.Contains(err.Error(), "no such table") {
			t.Fatal(err)
		}
		return stat
	}
	write(sqlstore.AnalyzeAfter-1, 0)
	if got := stats(); got != "" {
		t.Fatalf("after %d rows: statistics %q, want none", sqlstore.AnalyzeAfter-1, got)
	}
	write(sqlstore.AnalyzeAfter, sqlstore.AnalyzeAfter)
	// 19,999 events, 3 leagues, 40 seasons, 120 pairs of them: about 6,667 a league and
	// 167 a league's season.
	if got := stats(); got != "19999 6667 167 167" {
		t.Errorf("statistics %q, want 19999 6667 167 167", got)
	}
	rows, err := s.write.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT doc FROM event WHERE c_idleague = '4001' AND c_strseason = '2001' ORDER BY c_strtimestamp, seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	plan := ""
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan += detail + "; "
	}
	if !strings.Contains(plan, "event_c_idleague_c_strseason_c_intround (c_idleague=? AND c_strseason=?)") {
		t.Errorf("a league's season is read by %q", plan)
	}
	// ANALYZE kept samples of the values (the library is built to), and the write dropped them.
	if n := samples(t, s); n != 0 {
		t.Errorf("%d samples of values kept after the write", n)
	}
}

// samples counts the rows of sqlite_stat4, failing the test when ANALYZE never made it.
func samples(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.write.QueryRowContext(context.Background(), `SELECT count(*) FROM sqlite_stat4`).Scan(&n); err != nil {
		t.Fatalf("samples: %v", err)
	}
	return n
}

// A file analyzed with samples of the values (by an earlier version, or by hand) loses them
// when it is opened, before any reader loads the statistics; its other statistics stay.
func TestOpenDropsSamples(t *testing.T) {
	path := filepath.Join(t.TempDir(), "samples.db")
	s := openAt(t, path)
	ctx := context.Background()
	err := s.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, 0, 500, "1") })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	if n := samples(t, s); n == 0 {
		t.Fatal("ANALYZE kept no samples: this test checks nothing")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	if n := samples(t, s); n != 0 {
		t.Errorf("%d samples after open, want none", n)
	}
	var stat1 int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'team'`).Scan(&stat1); err != nil || stat1 == 0 {
		t.Errorf("statistics of team: %d rows (%v), want some", stat1, err)
	}
}
