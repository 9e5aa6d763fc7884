package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sportsdb/internal/store/sqlite"
)

// BenchmarkDemoSQLite measures what `sportsdb serve` does on first start: the demo dataset
// written to a new SQLite file. It reports the file size; the budget is < 2 s and < 20 MB.
func BenchmarkDemoSQLite(b *testing.B) {
	ctx := context.Background()
	var size int64
	var records int64
	for i := range b.N {
		path := filepath.Join(b.TempDir(), fmt.Sprintf("demo%d.db", i))
		st, err := sqlite.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := Generate(ctx, st, Options{Scale: "demo", Seed: 1, Now: testNow})
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		records = sum.Records
		size = fileSize(b, path)
	}
	b.ReportMetric(float64(records), "records/op")
	b.ReportMetric(float64(size)/(1<<20), "MB")
}

// fileSize counts the database with its write-ahead log, as a user's disk sees it.
func fileSize(b *testing.B, path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// BenchmarkGenerate measures the generator alone, without a database.
func BenchmarkGenerate(b *testing.B) {
	for _, scale := range []string{"demo", "small"} {
		b.Run(scale, func(b *testing.B) {
			var records int64
			for range b.N {
				sum, err := Generate(context.Background(), newRecorder(), Options{Scale: scale, Seed: 1, Now: testNow})
				if err != nil {
					b.Fatal(err)
				}
				records = sum.Records
			}
			b.ReportMetric(float64(records)/b.Elapsed().Seconds()*float64(b.N), "records/s")
		})
	}
}

// BenchmarkFullSQLite writes the full dataset (several GB, minutes) to a temporary SQLite
// file. It runs only when SPORTSDB_BENCH_FULL=1, as `go test -bench Full -benchtime 1x`.
func BenchmarkFullSQLite(b *testing.B) {
	if os.Getenv("SPORTSDB_BENCH_FULL") != "1" {
		b.Skip("set SPORTSDB_BENCH_FULL=1 to write the full dataset")
	}
	ctx := context.Background()
	for range b.N {
		path := filepath.Join(b.TempDir(), "full.db")
		st, err := sqlite.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := Generate(ctx, st, Options{Scale: "full", Seed: 1, Now: testNow, Progress: os.Stderr})
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(sum.Records), "records/op")
		b.ReportMetric(float64(fileSize(b, path))/(1<<30), "GB")
	}
}
