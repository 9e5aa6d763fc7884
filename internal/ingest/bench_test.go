package ingest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// benchEvents writes n full event records as NDJSON and as one response body, and returns
// both paths. The records are the recorded events of a league round, given new ids, so
// their sizes and shapes are the public service's (about 1.6 KB each).
func benchEvents(b *testing.B, n int) (ndjson, body string) {
	return benchRecordsOf(b, "events_round.json", "idEvent", n)
}

// benchRecordsOf writes n records like those of a v1 fixture, with new ids in idField.
func benchRecordsOf(b *testing.B, fixture, idField string, n int) (ndjson, body string) {
	b.Helper()
	sample, _, err := readFrom(fixture, mustOpen(b, filepath.Join(fixtures, "v1-free", fixture)), "", 0)
	if err != nil || len(sample) == 0 {
		b.Fatal(err)
	}
	dir := b.TempDir()
	ndjson, body = filepath.Join(dir, "events.ndjson"), filepath.Join(dir, "events.json")
	fn, err := os.Create(ndjson)
	if err != nil {
		b.Fatal(err)
	}
	fb, err := os.Create(body)
	if err != nil {
		b.Fatal(err)
	}
	wn, wb := bufio.NewWriter(fn), bufio.NewWriter(fb)
	wb.WriteString(`{"events":[`)
	view := sample[0].Kind.View("full")
	var line []byte
	for i := range n {
		r := sample[i%len(sample)].Clone()
		r.Set(idField, record.Str(fmt.Sprint(1000000+i)))
		var err error
		if line, err = record.AppendView(line[:0], r, view, false); err != nil {
			b.Fatal(err)
		}
		if i > 0 {
			wb.WriteByte(',')
		}
		wb.Write(line)
		wn.Write(append(line, '\n'))
	}
	wb.WriteString(`]}`)
	for _, err := range []error{wn.Flush(), wb.Flush(), fn.Close(), fb.Close()} {
		if err != nil {
			b.Fatal(err)
		}
	}
	return ndjson, body
}

func mustOpen(b *testing.B, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

const benchRecords = 50000

// BenchmarkImportSQLite imports 50,000 records into a new SQLite database per run: full
// events (the largest kind, with the most indexes) and lineup entries (small, one index).
func BenchmarkImportSQLite(b *testing.B) {
	for _, c := range []struct{ fixture, id string }{{"events_round.json", "idEvent"}, {"lookup_lineup.json", "idLineup"}} {
		b.Run(c.fixture, func(b *testing.B) {
			ndjson, _ := benchRecordsOf(b, c.fixture, c.id, benchRecords)
			info, _ := os.Stat(ndjson)
			b.SetBytes(info.Size())
			var m speed
			for b.Loop() {
				b.StopTimer()
				st := openStore(b)
				b.StartTimer()
				m.run(b, benchRecords, func() { importOnce(b, st, ndjson) })
			}
			m.report(b)
		})
	}
}

// BenchmarkImportSQLiteMerge imports the same events over themselves: every record is
// merged with a stored one.
func BenchmarkImportSQLiteMerge(b *testing.B) {
	ndjson, _ := benchEvents(b, benchRecords)
	st := openStore(b)
	importOnce(b, st, ndjson)
	var m speed
	for b.Loop() {
		m.run(b, benchRecords, func() { importOnce(b, st, ndjson) })
	}
	m.report(b)
}

func importOnce(b *testing.B, st store.Records, path string) {
	sum, err := Import(context.Background(), st, []string{path}, Options{})
	if err != nil || sum.Records != benchRecords {
		b.Fatalf("%v %s", err, sum)
	}
}

// speed adds up the records, wall time and CPU time of benchmark runs.
type speed struct {
	records   int
	wall, cpu time.Duration
}

func (s *speed) run(b *testing.B, records int, fn func()) {
	w, c := time.Now(), cpuTime()
	fn()
	s.wall += time.Since(w)
	s.cpu += cpuTime() - c
	s.records += records
}

func (s *speed) report(b *testing.B) {
	b.ReportMetric(float64(s.records)/s.wall.Seconds(), "records/s")
	if s.cpu > 0 {
		b.ReportMetric(float64(s.records)/s.cpu.Seconds(), "records/cpu-s")
	}
}

type discardTx struct{ collectTx }

func (discardTx) Upsert(context.Context, record.Record) error { return nil }

// BenchmarkParse reads the same events without a store: the importer's own cost.
func BenchmarkParse(b *testing.B) {
	ndjson, body := benchEvents(b, benchRecords)
	for _, path := range []string{ndjson, body} {
		b.Run(filepath.Ext(path), func(b *testing.B) {
			info, _ := os.Stat(path)
			b.SetBytes(info.Size())
			var m speed
			for b.Loop() {
				m.run(b, benchRecords, func() {
					sum := newSummary()
					imp := newImporter(&sum, newProgress(nil, ""))
					if err := imp.file(context.Background(), &discardTx{}, path, ""); err != nil || sum.Records != benchRecords {
						b.Fatal(err, sum.Records)
					}
				})
			}
			m.report(b)
		})
	}
}
