package nameindex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/storetest"
)

// backends open a new, empty store of each database (PostgreSQL when the test server is
// named).
var backends = []struct {
	name string
	open func(t *testing.T) store.Store
}{
	{"sqlite", func(t *testing.T) store.Store { return openDSN(t, filepath.Join(t.TempDir(), "x.db")) }},
	{"postgres", func(t *testing.T) store.Store { return openDSN(t, pgtest.FreshSchema(t)) }},
}

func openDSN(t *testing.T, dsn string) store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// wrapped is a store whose searches the index answers, rebuilt inside the Find that finds
// it stale.
func wrapped(t *testing.T, st store.Store) *Store {
	t.Helper()
	s, ok := Wrap(st, Options{Sync: true}).(*Store)
	if !ok {
		t.Fatalf("%T cannot feed a name index", st)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The store suite passes on the decorated store of both databases.
func TestStoreSuite(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) store.Store { return wrapped(t, b.open(t)) })
		})
	}
}

// Words of the names of the random records: accents, case, a ligature, spaces, a comma.
var words = []string{"Jo", "John", "Johnson", "Jöhn", "Ana", "Anna", "Hernández", "HERNANDEZ", "Mañana",
	"Øster", "Straße", "Strasse", "Łódź", "van", "de", "la", "Real", "Club", "United", "FC", "Saint-Étienne",
	"O'Neil", "Zoë", "Žilina", "Ab", "A", "Æsir", "x_y", "100%", "under_score", "İstanbul", "Ångström"}

func randomName(r *rand.Rand) string {
	n := 1 + r.IntN(3)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	return strings.Join(ws, " ")
}

func randomRecords(r *rand.Rand, n int) []record.Record {
	var out []record.Record
	for i := range n {
		id := fmt.Sprint(1000 + r.IntN(100000))
		alt := []string{}
		for range r.IntN(3) {
			alt = append(alt, randomName(r))
		}
		t := record.Team.NewRecord()
		t.Set("idTeam", record.Str(id))
		t.Set("strTeam", record.Str(randomName(r)))
		if len(alt) > 0 || i%5 == 0 {
			t.Set("strTeamAlternate", record.Str(strings.Join(alt, ", ")))
		}
		p := record.Player.NewRecord()
		p.Set("idPlayer", record.Str(id))
		p.Set("strPlayer", record.Str(randomName(r)))
		out = append(out, t, p)
	}
	return out
}

// randomNeedle is a needle of a search: a stored name, its first word, an inner substring
// (maybe a cut character), one or two letters, an accented or upper-cased form, or nothing
// stored.
func randomNeedle(r *rand.Rand) string {
	name := randomName(r)
	switch r.IntN(8) {
	case 0:
		return name
	case 1:
		w, _, _ := strings.Cut(name, " ")
		return w
	case 2:
		if len(name) < 3 {
			return name
		}
		i := r.IntN(len(name) - 2)
		return name[i : i+2+r.IntN(len(name)-i-1)]
	case 3:
		return name[:1+r.IntN(min(2, len(name)))]
	case 4:
		return strings.ToUpper(name)
	case 5:
		return "zzq" + name
	case 6:
		return "  " + strings.ReplaceAll(name, " ", "_") + " "
	}
	return words[r.IntN(len(words))]
}

func randomQuery(r *rand.Rand) store.Query {
	needle := randomNeedle(r)
	if r.IntN(2) == 0 {
		ops := []store.Cond{
			{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: needle},
			{Field: "strPlayer", Norm: record.Name, Op: store.Eq, Value: needle},
			{Field: "strPlayer", Norm: record.Name, Op: store.Prefix, Value: needle},
		}
		q := store.Query{Kind: record.Player, Where: []store.Cond{ops[r.IntN(len(ops))]}}
		orders := [][]store.Order{nil, {{Field: "strPlayer", Norm: record.Name}},
			{{Field: "strPlayer", Norm: record.Name, Desc: true}}, {{Field: "idPlayer", Numeric: true}},
			{{Field: "strPlayer", Norm: record.Name}, {Field: "idPlayer", Desc: true}}}
		q.OrderBy = orders[r.IntN(len(orders))]
		q.Limit = []int{0, 1, 5, 50}[r.IntN(4)]
		return q
	}
	name := []store.Cond{
		{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: needle},
		{Field: "strTeam", Norm: record.Name, Op: store.Eq, Value: needle},
	}[r.IntN(2)]
	alt := []store.Cond{
		{Field: "strTeamAlternate", Norm: record.List, Op: store.ListContains, Value: needle},
		{Field: "strTeamAlternate", Norm: record.List, Op: store.ListHas, Value: needle},
		{Field: "strTeamAlternate", Norm: record.List, Op: store.Eq, Value: needle},
	}[r.IntN(3)]
	var where []store.Cond
	switch r.IntN(3) {
	case 0:
		where = []store.Cond{name}
	case 1:
		where = []store.Cond{{Or: []store.Cond{name, alt}}}
	default:
		where = []store.Cond{name, alt}
	}
	orders := [][]store.Order{nil, {{Field: "strTeam", Norm: record.Name}}, {{Field: "idTeam", Numeric: true, Desc: true}}}
	return store.Query{Kind: record.Team, Where: where, OrderBy: orders[r.IntN(len(orders))], Limit: []int{0, 3, 20}[r.IntN(3)]}
}

// putPlayer writes a player with that id and name, in a transaction of its own.
func putPlayer(t *testing.T, st store.Store, id, name string) {
	t.Helper()
	ctx := context.Background()
	p := record.Player.NewRecord()
	p.Set("idPlayer", record.Str(id))
	p.Set("strPlayer", record.Str(name))
	if err := st.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, p) }); err != nil {
		t.Fatal(err)
	}
}

func idsOf(t *testing.T, recs []record.Record) []string {
	t.Helper()
	out := make([]string, len(recs))
	for i, rec := range recs {
		id, err := rec.ID()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = id + "=" + string(record.EncodeDoc(rec))
	}
	return out
}

// Random searches answered by the index are the database's answers, record for record and
// in the same order; most of them are answered by the index.
func TestIndexAnswersAsDatabase(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := b.open(t)
			s := wrapped(t, st)
			r := rand.New(rand.NewPCG(1, 2))
			recs := randomRecords(r, 600)
			if err := st.Write(ctx, func(tx store.Tx) error {
				for _, rec := range recs {
					if err := tx.Upsert(ctx, rec); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			matched := 0
			for range 1500 {
				q := randomQuery(r)
				want, err := st.Find(ctx, q)
				if err != nil {
					t.Fatalf("%+v: database: %v", q, err)
				}
				got, err := s.Find(ctx, q)
				if err != nil {
					t.Fatalf("%+v: index: %v", q, err)
				}
				if g, w := idsOf(t, got), idsOf(t, want); !slices.Equal(g, w) {
					t.Fatalf("%+v:\nindex    %d %q\ndatabase %d %q", q, len(g), g, len(w), w)
				}
				if len(want) > 0 {
					matched++
				}
			}
			t.Logf("%d answered by the index, %d by the database, %d found something", s.Answered.Load(), s.Delegated.Load(), matched)
			if n := s.Answered.Load(); n < 900 || matched < 300 {
				t.Errorf("the index answered %d of 1500 searches, %d found something: the test does not exercise it", n, matched)
			}
		})
	}
}

// After a write, no search is answered from the index of the data before it.
func TestNoStaleAnswer(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := b.open(t)
			s := Wrap(st, Options{}).(*Store) // background builds, as the server has
			t.Cleanup(func() { s.Close() })
			search := func(needle string) []string {
				t.Helper()
				recs, err := s.Find(ctx, store.Query{Kind: record.Player, Where: []store.Cond{
					{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: needle}}})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, r := range recs {
					out = append(out, r.Str("strPlayer"))
				}
				return out
			}
			putPlayer(t, st, "1", "Lionel Messi")
			putPlayer(t, st, "2", "Cristiano Ronaldo")
			if _, err := s.Build(ctx); err != nil {
				t.Fatal(err)
			}
			if got := search("messi"); !slices.Equal(got, []string{"Lionel Messi"}) || s.Answered.Load() != 1 {
				t.Fatalf("before the write: %q, %d answered by the index", got, s.Answered.Load())
			}
			putPlayer(t, st, "1", "Lionel Andrés Messi") // a match changed
			putPlayer(t, st, "3", "Messias Silva")       // a new match
			if got := search("messi"); !slices.Equal(got, []string{"Lionel Andrés Messi", "Messias Silva"}) {
				t.Fatalf("after the write: %q", got)
			}
			putPlayer(t, st, "4", "Gianluigi Buffon") // a match where the index has none
			if got := search("buffon"); !slices.Equal(got, []string{"Gianluigi Buffon"}) {
				t.Fatalf("after the write: %q", got)
			}
		})
	}
}

// A kind whose names hold what the index cannot separate (NUL, which SQLite stores) is left
// to the database; the other kinds are still the index's.
func TestNulInStoredName(t *testing.T) {
	ctx := context.Background()
	st := backends[0].open(t)
	s := wrapped(t, st)
	p := record.Player.NewRecord()
	p.Set("idPlayer", record.Str("1"))
	p.Set("strPlayer", record.Str("Ana\x00Bell"))
	team := record.Team.NewRecord()
	team.Set("idTeam", record.Str("2"))
	team.Set("strTeam", record.Str("Ana United"))
	if err := st.Write(ctx, func(tx store.Tx) error {
		if err := tx.Upsert(ctx, p); err != nil {
			return err
		}
		return tx.Upsert(ctx, team)
	}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []store.Query{
		{Kind: record.Player, Where: []store.Cond{{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: "bell"}}},
		{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: "ana"}}},
	} {
		got, err := s.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := idsOf(t, got), idsOf(t, want); !slices.Equal(g, w) {
			t.Errorf("%s: %q, the database %q", q.Kind.Name, g, w)
		}
	}
	if a, d := s.Answered.Load(), s.Delegated.Load(); a != 1 || d != 1 {
		t.Errorf("%d answered by the index, %d by the database; want 1 and 1", a, d)
	}
}

// TestNamesNeverStale: FindNames gives the folded names of a query's rows at the index's
// version, and RecordsBySeqs reads them only while the data is still at that version (no
// rows: while the version is still it); after a write it says !ok and the index is dropped.
func TestNamesNeverStale(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := b.open(t)
			s := Wrap(st, Options{}).(*Store)
			t.Cleanup(func() { s.Close() })
			putPlayer(t, st, "1", "Lionel Messi")
			putPlayer(t, st, "2", "Messias Silva")
			putPlayer(t, st, "3", "Cristiano Ronaldo")
			if _, err := s.Build(ctx); err != nil {
				t.Fatal(err)
			}
			q := func(needle string) store.Query {
				return store.Query{Kind: record.Player, Where: []store.Cond{
					{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: needle}},
					OrderBy: []store.Order{{Field: "strPlayer", Norm: record.Name, Desc: true}}}
			}
			n, ok, err := s.FindNames(ctx, q("MESSI"), "strPlayer")
			if err != nil || !ok || !slices.Equal(n.Values, []string{"messias silva", "lionel messi"}) {
				t.Fatalf("names: %+v %v %v", n, ok, err)
			}
			recs, ok, err := s.RecordsBySeqs(ctx, record.Player, []int64{n.Seqs[1], n.Seqs[0]}, n.Version)
			if err != nil || !ok || len(recs) != 2 || recs[0].Str("strPlayer") != "Lionel Messi" || recs[1].Str("strPlayer") != "Messias Silva" {
				t.Fatalf("records: %v %v %v", idsOf(t, recs), ok, err)
			}
			none, ok, err := s.FindNames(ctx, q("zzz"), "strPlayer")
			if err != nil || !ok || len(none.Seqs) != 0 {
				t.Fatalf("no names: %+v %v %v", none, ok, err)
			}
			if _, ok, err := s.FindNames(ctx, q("messi"), "strDescriptionEN"); ok || err != nil {
				t.Fatalf("a field the index does not hold: %v %v", ok, err)
			}
			putPlayer(t, st, "1", "Lionel Andrés Messi")
			if _, ok, err := s.RecordsBySeqs(ctx, record.Player, n.Seqs, n.Version); ok || err != nil {
				t.Fatalf("records after a write: %v %v", ok, err)
			}
			if _, ok, err := s.RecordsBySeqs(ctx, record.Player, nil, none.Version); ok || err != nil {
				t.Fatalf("no records after a write: %v %v", ok, err)
			}
			if s.cur.Load() != nil {
				t.Fatal("the index outlived its data")
			}
		})
	}
}

// With Warm the first build starts with the store, not at the first search: once Warmed is
// closed, a search is answered by the index without waiting for a build. Without Warm,
// Warmed is closed from the start (nothing to wait for).
func TestWarmBuildsAtStart(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st := b.open(t)
			p := record.Player.NewRecord()
			p.Set("idPlayer", record.Str("1"))
			p.Set("strPlayer", record.Str("Mario Balotelli"))
			if err := st.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, p) }); err != nil {
				t.Fatal(err)
			}
			cold := Wrap(st, Options{}).(*Store)
			select {
			case <-cold.Warmed():
			default:
				t.Fatal("without Warm, Warmed is not closed")
			}
			s := Wrap(st, Options{Warm: true}).(*Store)
			t.Cleanup(func() { s.Close() })
			select {
			case <-s.Warmed():
			case <-time.After(time.Minute):
				t.Fatal("the first build never ended")
			}
			recs, err := s.Find(ctx, store.Query{Kind: record.Player, Where: []store.Cond{
				{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: "balo"}}})
			if err != nil || len(recs) != 1 {
				t.Fatalf("search after warming: %v %v", recs, err)
			}
			if s.Answered.Load() != 1 || s.Delegated.Load() != 0 {
				t.Errorf("answered %d, delegated %d: want the search answered by the index built at start", s.Answered.Load(), s.Delegated.Load())
			}
		})
	}
}

// A store written to faster than a build pays for itself stops building: each index in a
// row that the data left behind before it answered a search doubles the wait for the next
// build, up to maxUnusedWait; an index that answered one brings the wait back to its cost.
func TestUnusedIndexesSpaceBuilds(t *testing.T) {
	ctx := context.Background()
	st := backends[0].open(t)
	putPlayer(t, st, "1", "Lionel Messi")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := Wrap(st, Options{Now: func() time.Time { return now }}).(*Store)
	t.Cleanup(func() { s.Close() })
	built := make(chan struct{}, 1)
	s.mu.Lock()
	s.afterBuild = func() { built <- struct{}{} }
	s.mu.Unlock()
	search := func() {
		t.Helper()
		if _, err := s.Find(ctx, store.Query{Kind: record.Player, Where: []store.Cond{
			{Field: "strPlayer", Norm: record.Name, Op: store.Contains, Value: "messi"}}}); err != nil {
			t.Fatal(err)
		}
	}
	starts := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.starts
	}
	// buildsAfter moves the clock on by wait less a second, sees that a search starts no
	// build, then by the second and sees that one does.
	buildsAfter := func(what string, wait time.Duration) {
		t.Helper()
		before := starts()
		now = now.Add(wait - time.Second)
		search()
		if starts() != before {
			t.Fatalf("%s: a build started %v after the last, want %v", what, wait-time.Second, wait)
		}
		now = now.Add(time.Second)
		search()
		if starts() != before+1 {
			t.Fatalf("%s: no build %v after the last", what, wait)
		}
		<-built
	}
	// leftBehind writes, so that the index is stale, and lets a search find it so.
	n := 1
	leftBehind := func() {
		t.Helper()
		n++
		putPlayer(t, st, fmt.Sprint(n), fmt.Sprintf("Player %d", n))
		search() // the index's answer is of an older version: dropped
		if s.cur.Load() != nil {
			t.Fatal("a stale index was kept")
		}
	}

	search() // the first build
	<-built
	leftBehind()
	buildsAfter("one index unused", 2*time.Second) // the cost of a build here is the floor: 1 s
	leftBehind()
	buildsAfter("two in a row", 4*time.Second)
	leftBehind()
	buildsAfter("three in a row", 8*time.Second)
	leftBehind()
	buildsAfter("four in a row", 16*time.Second)
	for range 3 {
		leftBehind()
		buildsAfter("five and more", maxUnusedWait)
	}
	answered := s.Answered.Load()
	search() // the data did not move: the index answers
	if s.Answered.Load() != answered+1 {
		t.Fatal("the index built after the writes did not answer")
	}
	leftBehind()
	buildsAfter("after an index that answered", time.Second)
}
