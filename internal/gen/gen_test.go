package gen

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

func runRecorder(t *testing.T, opts Options) *recorder {
	t.Helper()
	r := newRecorder()
	if _, err := Generate(context.Background(), r, opts); err != nil {
		t.Fatalf("Generate(%+v): %v", opts, err)
	}
	return r
}

func TestSameSeedAndNowGiveSameRecords(t *testing.T) {
	opts := Options{Scale: "demo", Seed: 7, Now: testNow}
	a, b := runRecorder(t, opts), runRecorder(t, opts)
	if !bytes.Equal(a.sum.Sum(nil), b.sum.Sum(nil)) {
		t.Fatal("two runs with the same seed and Now wrote different records")
	}
	opts.Seed = 8
	if c := runRecorder(t, opts); bytes.Equal(a.sum.Sum(nil), c.sum.Sum(nil)) {
		t.Error("another seed wrote the same records")
	}
	opts.Seed, opts.Now = 7, testNow.Add(24*time.Hour)
	if c := runRecorder(t, opts); bytes.Equal(a.sum.Sum(nil), c.sum.Sum(nil)) {
		t.Error("another Now wrote the same records")
	}
}

func TestClearsEveryKindInOrder(t *testing.T) {
	r := runRecorder(t, Options{Scale: "demo", Seed: 1, Now: testNow})
	if len(r.deletes) != len(record.Kinds) {
		t.Fatalf("cleared %d kinds, want %d", len(r.deletes), len(record.Kinds))
	}
	for i, k := range record.Kinds {
		if r.deletes[i] != k.Name {
			t.Errorf("clear #%d = %s, want %s", i, r.deletes[i], k.Name)
		}
	}
	if r.writes != 1 {
		t.Errorf("demo used %d transactions, want 1", r.writes)
	}
}

func TestBadOptions(t *testing.T) {
	ctx := context.Background()
	if _, err := Generate(ctx, newRecorder(), Options{Scale: "huge", Now: testNow}); err == nil || !strings.Contains(err.Error(), "huge") {
		t.Errorf("unknown scale: err = %v, want it named", err)
	}
	if _, err := Generate(ctx, newRecorder(), Options{Scale: "demo"}); !errors.Is(err, ErrNoNow) {
		t.Errorf("zero Now: err = %v, want ErrNoNow", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Generate(cancelled, newRecorder(), Options{Scale: "demo", Now: testNow}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestStoreFailureIsReported(t *testing.T) {
	r := newRecorder()
	r.failAt = 5000
	var out bytes.Buffer
	_, err := Generate(context.Background(), r, Options{Scale: "demo", Seed: 1, Now: testNow, Progress: &out})
	if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), "write") {
		t.Fatalf("err = %v, want the store's error with context", err)
	}
	if out.Len() != 0 {
		t.Errorf("a failed run printed a summary: %q", out.String())
	}
}

func TestProgressEndsWithSummaryLine(t *testing.T) {
	var out bytes.Buffer
	sum, err := Generate(context.Background(), newRecorder(), Options{Scale: "demo", Seed: 1, Now: testNow, Progress: &out})
	if err != nil {
		t.Fatal(err)
	}
	line := out.String()
	if strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "gen demo seed 1: ") || !strings.Contains(line, "event ") {
		t.Errorf("progress output = %q, want one summary line", line)
	}
	if line != sum.String()+"\n" {
		t.Errorf("progress line %q differs from Summary.String %q", line, sum.String())
	}
}

var (
	demoOnce sync.Once
	demoDB   *sqlite.Store
	demoSum  Summary
	demoErr  error
	demoDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if demoDB != nil {
		demoDB.Close()
	}
	if demoDir != "" {
		os.RemoveAll(demoDir)
	}
	os.Exit(code)
}

// demo returns one demo database on SQLite shared by the property tests.
func demo(t *testing.T) (*sqlite.Store, Summary) {
	t.Helper()
	demoOnce.Do(func() {
		ctx := context.Background()
		if demoDir, demoErr = os.MkdirTemp("", "sportsdb-gen-"); demoErr != nil {
			return
		}
		if demoDB, demoErr = sqlite.Open(ctx, demoDir+"/demo.db"); demoErr != nil {
			return
		}
		demoSum, demoErr = Generate(ctx, demoDB, Options{Scale: "demo", Seed: 1, Now: testNow})
	})
	if demoErr != nil {
		t.Fatalf("demo dataset: %v", demoErr)
	}
	return demoDB, demoSum
}

func find(t *testing.T, st store.Records, k *record.Kind, where ...store.Cond) []record.Record {
	t.Helper()
	recs, err := st.Find(context.Background(), store.Query{Kind: k, Where: where})
	if err != nil {
		t.Fatalf("find %s %+v: %v", k.Name, where, err)
	}
	return recs
}

func eq(field, value string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: value} }

func named(field, value string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Eq, Value: value}
}

func TestDemoHasEveryKindAndSummaryMatchesStore(t *testing.T) {
	st, sum := demo(t)
	var total int64
	for _, k := range record.Kinds {
		n, err := st.Count(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("kind %s has no records", k.Name)
		}
		if n != sum.Count(k.Name) {
			t.Errorf("kind %s: store has %d, summary says %d", k.Name, n, sum.Count(k.Name))
		}
		total += n
	}
	if total != sum.Records {
		t.Errorf("store holds %d records, summary says %d", total, sum.Records)
	}
	t.Logf("%s", sum)
}

func TestRegenerateReplacesEverything(t *testing.T) {
	st := openSQLite(t)
	ctx := context.Background()
	first, err := Generate(ctx, st, Options{Scale: "demo", Seed: 3, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(ctx, st, Options{Scale: "demo", Seed: 3, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	for _, k := range record.Kinds {
		if n, _ := st.Count(ctx, k); n != first.Count(k.Name) {
			t.Errorf("after a second run %s has %d records, want %d", k.Name, n, first.Count(k.Name))
		}
	}
}

func TestSmallIsAboutTenTimesDemo(t *testing.T) {
	ctx := context.Background()
	demoSum, err := Generate(ctx, newRecorder(), Options{Scale: "demo", Seed: 1, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	small, err := Generate(ctx, newRecorder(), Options{Scale: "small", Seed: 1, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if ratio := float64(small.Records) / float64(demoSum.Records); ratio < 6 || ratio > 20 {
		t.Errorf("small has %d records, %.1f times demo's %d", small.Records, ratio, demoSum.Records)
	}
	for _, k := range small.Kinds {
		if k.Count < demoSum.Count(k.Kind) {
			t.Errorf("small has fewer %s records (%d) than demo (%d)", k.Kind, k.Count, demoSum.Count(k.Kind))
		}
	}
}
