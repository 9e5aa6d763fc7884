package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
	"sportsdb/internal/store/storetest"
)

// Substring searches of three characters or more must read the trigram index, not the
// kind's table.
func TestSubstringUsesTrigramIndex(t *testing.T) {
	s := openTemp(t)
	for name, q := range storetest.SubstringQueries() {
		for _, d := range []sqlstore.Dialect{indexOnly, {}} {
			plan := explain(t, s, d, q)
			for _, step := range plan {
				if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, " VIRTUAL TABLE") {
					t.Errorf("%s scans: %v", name, plan)
				}
			}
			if !slices.ContainsFunc(plan, func(step string) bool { return strings.Contains(step, "VIRTUAL TABLE") }) {
				t.Errorf("%s does not use the index: %v", name, plan)
			}
		}
	}
	short := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "ma"}}}
	if plan := explain(t, s, sqlstore.Dialect{}, short); slices.ContainsFunc(plan, func(step string) bool { return strings.Contains(step, "VIRTUAL") }) {
		t.Errorf("two characters must scan, the index cannot find them: %v", plan)
	}
}

// indexOnly is SQLite's dialect with a substring search always narrowed by the trigram
// index, in a subquery: the index path of Find without its choice of the scan.
var indexOnly = func() sqlstore.Dialect {
	d := sqlstore.SQLite
	d.Substring = func(b *sqlstore.Builder, k *record.Kind, col, needle string) string {
		if !slices.Contains(ftsColumns[k], col) || !trigramNeedle(needle) {
			return ""
		}
		return "seq IN (SELECT rowid FROM " + k.Name + "_fts WHERE " + col + " MATCH " + b.Arg(trigramQuery(needle)) + ")"
	}
	return d
}()

// findSQL is the statement Find runs for q, with its arguments.
func findSQL(t testing.TB, s *Store, q store.Query) (string, []any) {
	t.Helper()
	query, args, lookups, _, err := selectSQL(q, s.ordered[q.Kind])
	if err != nil {
		t.Fatal(err)
	}
	if len(lookups) == 0 {
		return query, args
	}
	tx, err := s.read.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	query, args, _, err = s.resolve(context.Background(), tx, q, query, args, lookups)
	if err != nil {
		t.Fatal(err)
	}
	return query, args
}

// explain is the plan of q in dialect d, or in Find's when d is the zero Dialect.
func explain(t *testing.T, s *Store, d sqlstore.Dialect, q store.Query) []string {
	t.Helper()
	var query string
	var args []any
	if d.Param == nil {
		query, args = findSQL(t, s, q)
	} else {
		var err error
		if query, args, err = sqlstore.Select(d, q); err != nil {
			t.Fatal(err)
		}
	}
	return queryPlan(t, s, query, args)
}

// The index path and the plain scan must answer alike, on every searched kind and column.
func TestTrigramAnswersAsScan(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	names := []string{"Madrid Arena", "Sky Sports Main", "Estádio do Dragão", "100% Skyline", `Quote's "Place"`,
		"São Paulo", "Kane Harry", "Harry Kane", "Tōkyō Dome", "Premier,League", "sky_blue", "SKY BLUE"}
	err := s.Write(ctx, func(tx store.Tx) error {
		for i, n := range names {
			id := string(rune('a' + i))
			for _, r := range []record.Record{
				record.Team.NewRecord(), record.Player.NewRecord(), record.Venue.NewRecord(),
				record.League.NewRecord(), record.TV.NewRecord(),
			} {
				r.Set(r.Kind.Key[0], record.Str(id))
				for _, ix := range ftsIndexes(r.Kind) {
					r.Set(ix.Field, record.Str(n+","+names[(i+1)%len(names)]))
				}
				if err := tx.Upsert(ctx, r); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	needles := []string{"sky", "SKY", "ky ", "harry kane", "ão", "sao", "o'", `"place"`, "0%", "100%", "y_b", "tokyo",
		"premier", "league", "r,l", "dome", "xyz", "a", "madrid arena,sky"}
	for k := range ftsColumns {
		for _, ix := range ftsIndexes(k) {
			ops := []store.Op{store.Contains}
			if ix.Norm == record.List {
				ops = []store.Op{store.ListContains, store.ListHas}
			}
			for _, op := range ops {
				for _, n := range needles {
					for _, limit := range []int{0, 5, 20} {
						q := store.Query{Kind: k, Where: []store.Cond{{Field: ix.Field, Norm: ix.Norm, Op: op, Value: n}}, Limit: limit}
						if limit == 20 {
							// Sorted by name, as the API's searches are.
							q.OrderBy = []store.Order{{Field: ftsIndexes(k)[0].Field, Norm: record.Name}}
						}
						want := findIDs(t, s, sqlstore.SQLite, q)
						if got := findIDs(t, s, indexOnly, q); !slices.Equal(got, want) {
							t.Errorf("%s %s %d %q limit %d: index %v, scan %v", k.Name, ix.Field, op, n, limit, got, want)
						}
						recs, err := s.Find(ctx, q)
						if err != nil {
							t.Fatal(err)
						}
						if got := recIDs(t, recs); !slices.Equal(got, want) {
							t.Errorf("%s %s %d %q limit %d: find %v, scan %v", k.Name, ix.Field, op, n, limit, got, want)
						}
					}
				}
			}
		}
	}
}

func recIDs(t testing.TB, recs []record.Record) []string {
	t.Helper()
	var out []string
	for _, r := range recs {
		id, err := r.ID()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

// ftsIndexes are the kind's indexes that have a trigram index.
func ftsIndexes(k *record.Kind) []record.Index {
	var out []record.Index
	for _, ix := range k.Indexed {
		if slices.Contains(ftsColumns[k], ix.Column()) {
			out = append(out, ix)
		}
	}
	return out
}

func findIDs(t testing.TB, s *Store, d sqlstore.Dialect, q store.Query) []string {
	t.Helper()
	query, args, err := sqlstore.Select(d, q)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.read.Query(query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	var out []string
	err = s.EachRecord(sqlstore.StdRows(rows), q.Kind, func(r record.Record) error {
		id, err := r.ID()
		out = append(out, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every column ftsColumns names is in its kind's trigram table, and the table indexes rows
// that were stored before the migration created it.
func TestMigrationFillsTrigramIndex(t *testing.T) {
	path := t.TempDir() + "/old.db"
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	team := record.Team.NewRecord()
	team.Set("idTeam", record.Str("1"))
	team.Set("strTeam", record.Str("Arsenal"))
	if err := s.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, team) }); err != nil {
		t.Fatal(err)
	}
	// Back to the schema before 0002, with the row stored.
	undo := `DELETE FROM schema_migrations WHERE version = '0002_fts';`
	for k := range ftsColumns {
		undo += `DROP TABLE ` + k.Name + `_fts; DROP TRIGGER ` + k.Name + `_fts_insert; DROP TRIGGER ` + k.Name +
			`_fts_delete; DROP TRIGGER ` + k.Name + `_fts_update;`
	}
	if _, err := s.write.Exec(undo); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for k, cols := range ftsColumns {
		for _, c := range cols {
			var n int
			if err := s.read.QueryRow(`SELECT count(*) FROM pragma_table_info('`+k.Name+`_fts') WHERE name = ?`, c).Scan(&n); err != nil || n != 1 {
				t.Errorf("%s_fts has no column %s (%v)", k.Name, c, err)
			}
		}
	}
	q := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "sena"}}}
	if got := findIDs(t, s, indexOnly, q); !slices.Equal(got, []string{"1"}) {
		t.Errorf("row stored before the migration: got %v, want [1]", got)
	}
}

// With a limit, a frequent needle goes to the scan, which stops at the limit; a rare one, or
// a search without a limit, to the index. Both answer alike.
func TestFrequentNeedleScans(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	writeTeams(t, s, 2000, func(i int, r record.Record) {
		name := "Common Club " + strconv.Itoa(i)
		if i%200 == 7 {
			name = "Rare Club " + strconv.Itoa(i)
		}
		r.Set("strTeam", record.Str(name))
	})
	search := func(needle string, limit int) store.Query {
		return store.Query{Kind: record.Team, Limit: limit, OrderBy: []store.Order{{Field: "strTeam", Norm: record.Name}},
			Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: needle}}}
	}
	for _, c := range []struct {
		q     store.Query
		index bool
	}{
		{search("common", 10), false},
		{search("rare", 10), true},
		{search("common", 0), true},
		{search("club 1", 5), false},
		{search("club 1999", 5), true},
	} {
		query, _ := findSQL(t, s, c.q)
		if got := strings.Contains(query, "json_each"); got != c.index {
			t.Errorf("%q limit %d: index %v, want %v", c.q.Where[0].Value, c.q.Limit, got, c.index)
		}
		recs, err := s.Find(ctx, c.q)
		if err != nil {
			t.Fatal(err)
		}
		got := recIDs(t, recs)
		if want := findIDs(t, s, sqlstore.SQLite, c.q); !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%q limit %d: got %v, want %v", c.q.Where[0].Value, c.q.Limit, got, want)
		}
	}
}

// A needle frequent in the table but searched within a few leagues (a typo's three letters
// among the teams of the leagues a file name names) reads the leagues' teams through their
// index, testing the needle on each, rather than the needle's candidates; a needle rarer
// than the leagues' teams still takes the trigram index.
func TestSearchWithinFewValuesReadsTheirIndex(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	writeTeams(t, s, 2000, func(i int, r record.Record) {
		r.Set("idLeague", record.Str(strconv.Itoa(i%100)))
		name := "Other Club " + strconv.Itoa(i)
		if i%2 == 0 {
			name = "Belediye Club " + strconv.Itoa(i)
		}
		if i == 1001 {
			name = "Rarest Club"
		}
		r.Set("strTeam", record.Str(name))
	})
	if _, err := s.write.ExecContext(ctx, `ANALYZE team`); err != nil {
		t.Fatal(err)
	}
	search := func(needle string) store.Query {
		return store.Query{Kind: record.Team, Limit: 200, Where: []store.Cond{
			{Or: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: needle}}},
			{Or: []store.Cond{{Field: "idLeague", Op: store.Eq, Value: "2"}, {Field: "idLeague", Op: store.Eq, Value: "1"}}},
		}}
	}
	for _, c := range []struct {
		needle string
		lookup bool
	}{
		{"bel", false},
		{"rarest", true},
	} {
		q := search(c.needle)
		query, args := findSQL(t, s, q)
		if got := strings.Contains(query, "json_each"); got != c.lookup {
			t.Errorf("%q: trigram lookup %v, want %v", c.needle, got, c.lookup)
		}
		if plan := strings.Join(queryPlan(t, s, query, args), "; "); !c.lookup && !strings.Contains(plan, "c_idleague") {
			t.Errorf("%q: plan %s, want the index of idLeague", c.needle, plan)
		}
		recs, err := s.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got := recIDs(t, recs)
		slices.Sort(got)
		want := findIDs(t, s, sqlstore.SQLite, q)
		slices.Sort(want)
		if !slices.Equal(got, want) || (c.needle == "bel" && len(got) != 20) {
			t.Errorf("%q: got %v, want %v", c.needle, got, want)
		}
	}
}

// The rows per value of sqlite_stat1 are read only for a search with equalities on an
// indexed column: a plain substring search, the most frequent, pays for the row count alone
// when the data changed.
func TestPlainSearchLeavesRowsPerValueUnread(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	writeTeams(t, s, 50, func(i int, r record.Record) {
		r.Set("idLeague", record.Str(strconv.Itoa(i%5)))
		r.Set("strTeam", record.Str("Club "+strconv.Itoa(i)))
	})
	if _, err := s.write.ExecContext(ctx, `ANALYZE team`); err != nil {
		t.Fatal(err)
	}
	perValue := func() map[string]int64 {
		s.rowCounts.mu.Lock()
		defer s.rowCounts.mu.Unlock()
		return s.rowCounts.kinds[record.Team].perValue
	}
	contains := store.Cond{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "club"}
	if _, err := s.Find(ctx, store.Query{Kind: record.Team, Limit: 10, Where: []store.Cond{contains}}); err != nil {
		t.Fatal(err)
	}
	if got := perValue(); got != nil {
		t.Errorf("rows per value after a search without equalities: %v, want unread", got)
	}
	q := store.Query{Kind: record.Team, Limit: 10, Where: []store.Cond{contains, {Field: "idLeague", Op: store.Eq, Value: "1"}}}
	if _, err := s.Find(ctx, q); err != nil {
		t.Fatal(err)
	}
	if got := perValue(); len(got) == 0 {
		t.Errorf("rows per value after a search within a league: %v, want those of the indexes", got)
	}
}

// writeTeams writes n teams with ids 0 to n-1, each as fill sets it, in one transaction.
func writeTeams(t *testing.T, s *Store, n int, fill func(i int, r record.Record)) {
	t.Helper()
	ctx := context.Background()
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range n {
			r := record.Team.NewRecord()
			r.Set("idTeam", record.Str(strconv.Itoa(i)))
			fill(i, r)
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTrigramQuery(t *testing.T) {
	for needle, want := range map[string]string{
		"abc":                         `"abc"`,
		"abcd":                        `"abc" AND "bcd"`,
		"aaron harris":                `"aar" AND "on " AND "har" AND "ris"`,
		`o"ne`:                        `"o""n" AND """ne"`,
		"东京都":                         `"东京都"`,
		"a very long needle of words": `"a v" AND "ong" AND "le " AND "rds"`,
	} {
		if got := trigramQuery(needle); got != want {
			t.Errorf("trigramQuery(%q) = %s, want %s", needle, got, want)
		}
	}
}

// The triggers and the merge after a large write keep every trigram index equal to its
// table: FTS5's integrity check compares them, row by row.
func TestTrigramIndexesStayInStep(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	player := func(i int, name string) record.Record {
		r := record.Player.NewRecord()
		r.Set("idPlayer", record.Str(strconv.Itoa(i)))
		r.Set("strPlayer", record.Str(name))
		return r
	}
	write := func(fn func(tx store.Tx) error) {
		t.Helper()
		if err := s.Write(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	write(func(tx store.Tx) error {
		for i := range optimizeAfter + 1 {
			if err := tx.Upsert(ctx, player(i, "Player Número "+strconv.Itoa(i)+" FC")); err != nil {
				return err
			}
		}
		return nil
	})
	write(func(tx store.Tx) error {
		if err := tx.Upsert(ctx, player(7, "Renamed Seven")); err != nil {
			return err
		}
		if err := tx.Replace(ctx, player(8, "Replaced Eight")); err != nil {
			return err
		}
		r := player(9, "")
		r.Set("strNationality", record.Str("Wales"))
		return tx.Upsert(ctx, r)
	})
	write(func(tx store.Tx) error {
		team := record.Team.NewRecord()
		team.Set("idTeam", record.Str("1"))
		team.Set("strTeam", record.Str("Gone Soon"))
		if err := tx.Upsert(ctx, team); err != nil {
			return err
		}
		return tx.DeleteAll(ctx, record.Team)
	})
	for k := range ftsColumns {
		fts := k.Name + "_fts"
		if _, err := s.write.Exec(`INSERT INTO ` + fts + ` (` + fts + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("%s: %v", fts, err)
		}
	}
	for needle, want := range map[string][]string{"renamed": {"7"}, "numero 8 fc": nil, "eight": {"8"}, "numero 9 fc": {"9"}, "numero 5000 fc": {"5000"}} {
		q := store.Query{Kind: record.Player, Where: []store.Cond{{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: needle}}}
		recs, err := s.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got := recIDs(t, recs); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", needle, got, want)
		}
	}
}
