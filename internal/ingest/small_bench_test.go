package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/gen"
	"sportsdb/internal/store/sqlite"
)

// smallExport is an export of the small generated dataset, written once per test binary.
var smallExport struct {
	once    sync.Once
	dir     string
	records int
	err     error
}

func exportSmall(b *testing.B) (dir string, records int) {
	b.Helper()
	smallExport.once.Do(func() {
		ctx := context.Background()
		if dir := os.Getenv("SPORTSDB_BENCH_EXPORT"); dir != "" {
			// An export made beforehand (sportsdb export), so that a profile holds the import only.
			smallExport.dir = dir
			smallExport.records, smallExport.err = countLines(dir)
			return
		}
		tmp, err := os.MkdirTemp("", "sportsdb-small-export")
		if err != nil {
			smallExport.err = err
			return
		}
		st, err := sqlite.Open(ctx, filepath.Join(tmp, "small.db"))
		if err != nil {
			smallExport.err = err
			return
		}
		defer st.Close()
		now := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
		if _, err := gen.Generate(ctx, st, gen.Options{Scale: "small", Seed: 1, Now: now}); err != nil {
			smallExport.err = err
			return
		}
		sum, err := Export(ctx, st, filepath.Join(tmp, "export"), Options{})
		smallExport.dir, smallExport.records, smallExport.err = filepath.Join(tmp, "export"), sum.Records, err
	})
	if smallExport.err != nil {
		b.Fatal(smallExport.err)
	}
	return smallExport.dir, smallExport.records
}

// BenchmarkImportSmall imports an export of the small generated dataset (all 23 kinds, about
// 260,000 records) into a new SQLite database per run, as `sportsdb import` does.
func BenchmarkImportSmall(b *testing.B) {
	dir, records := exportSmall(b)
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as the import command sets it
	var m speed
	for b.Loop() {
		b.StopTimer()
		st := openStore(b)
		b.StartTimer()
		m.run(b, records, func() {
			sum, err := Import(context.Background(), st, []string{dir}, Options{})
			if err != nil || sum.Records != records {
				b.Fatalf("%v %s", err, sum)
			}
		})
	}
	m.report(b)
}

// countLines counts the records of an export: one a line.
func countLines(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n, nil
}
