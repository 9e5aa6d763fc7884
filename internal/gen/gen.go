// Package gen fills a database with a deterministic synthetic dataset shaped like the public
// sports database: the same Seed and Now always give the same records in the same order.
// Dates are relative to Now, so "next" and "previous" events, live scores and TV listings
// always have something to show.
package gen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Options says what to generate.
type Options struct {
	// Scale is "demo" (built into serve), "small" (about ten times demo) or "full" (the size
	// of the public service).
	Scale string
	// Seed picks the dataset; the same Seed and Now give exactly the same records.
	Seed int64
	// Now is the server clock the dataset is built around. Required: the generator never
	// reads the system clock for data.
	Now time.Time
	// Progress, when set, receives a live line on a terminal and always a final summary line.
	Progress io.Writer
}

// KindCount is how many records of a kind were written.
type KindCount struct {
	Kind  string
	Count int64
}

// Summary tells what Generate wrote.
type Summary struct {
	Scale   string
	Seed    int64
	Kinds   []KindCount // in record.Kinds order
	Records int64
	Elapsed time.Duration
}

// Count returns how many records of the named kind were written.
func (s Summary) Count(kind string) int64 {
	for _, k := range s.Kinds {
		if k.Kind == kind {
			return k.Count
		}
	}
	return 0
}

// String is the one-line summary, e.g.
// "gen demo seed 1: 23456 records in 1.2s (sport 9, country 22, ...)".
func (s Summary) String() string {
	parts := make([]string, len(s.Kinds))
	for i, k := range s.Kinds {
		parts[i] = fmt.Sprintf("%s %d", k.Kind, k.Count)
	}
	return fmt.Sprintf("gen %s seed %d: %d records in %.1fs (%s)", s.Scale, s.Seed, s.Records, s.Elapsed.Seconds(), strings.Join(parts, ", "))
}

// ErrNoNow is returned when Options.Now is not set.
var ErrNoNow = errors.New("gen: Options.Now is required (the dataset is built around the server clock)")

// Generate replaces every record in st with a generated dataset. One goroutine generates
// while the caller's goroutine writes, so generation and the database share the work. Small
// scales write in one transaction; full commits every chunk records, which keeps the
// database's write-ahead log small.
func Generate(ctx context.Context, st store.Records, opts Options) (Summary, error) {
	sc, err := lookupScale(opts.Scale)
	if err != nil {
		return Summary{}, err
	}
	if opts.Now.IsZero() {
		return Summary{}, ErrNoNow
	}
	start := time.Now()
	w := newWorld(sc, opts.Seed, opts.Now)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []record.Record, 16)
	produced := make(chan error, 1)
	go func() {
		produced <- w.produce(ctx, batches)
		close(batches)
	}()
	wr := newWriter(newProgress(opts.Progress, sc.name))
	err = wr.consume(ctx, st, batches, produced, sc.chunk)
	cancel()
	for range batches { // lets the producer see the cancel and stop
	}
	sum := wr.summary(sc.name, opts.Seed, time.Since(start))
	if err != nil {
		return sum, err
	}
	wr.prog.done(sum)
	return sum, nil
}

const batchSize = 512

// produce runs the pass of every kind in record.Kinds order and sends its records in
// batches; a batch never mixes kinds.
func (w *world) produce(ctx context.Context, out chan<- []record.Record) error {
	emit := w.emitters()
	b := &batcher{ctx: ctx, out: out}
	for _, k := range record.Kinds {
		fn := emit[k]
		if fn == nil {
			return fmt.Errorf("gen: no generator for kind %s", k.Name)
		}
		if err := fn(b); err != nil {
			return err
		}
		if err := b.flush(); err != nil {
			return err
		}
	}
	return nil
}

// batcher collects records for the writing goroutine.
type batcher struct {
	ctx context.Context
	out chan<- []record.Record
	buf []record.Record
}

func (b *batcher) put(r record.Record) error {
	b.buf = append(b.buf, r)
	if len(b.buf) >= batchSize {
		return b.flush()
	}
	return nil
}

func (b *batcher) flush() error {
	if len(b.buf) == 0 {
		return nil
	}
	select {
	case b.out <- b.buf:
		b.buf = make([]record.Record, 0, batchSize)
		return nil
	case <-b.ctx.Done():
		return fmt.Errorf("gen: %w", b.ctx.Err())
	}
}

// writer puts records into the database and counts them.
type writer struct {
	kinds  map[*record.Kind]int
	counts []int64
	total  int64
	prog   *progress
}

func newWriter(p *progress) *writer {
	wr := &writer{kinds: map[*record.Kind]int{}, counts: make([]int64, len(record.Kinds)), prog: p}
	for i, k := range record.Kinds {
		wr.kinds[k] = i
	}
	return wr
}

// consume writes every batch, clearing all kinds first in the same transaction as the first
// records. chunk 0 means one transaction for everything; otherwise a transaction ends after
// about chunk records.
func (wr *writer) consume(ctx context.Context, st store.Records, in <-chan []record.Record, produced <-chan error, chunk int) error {
	first, done := true, false
	for !done {
		err := st.Write(ctx, func(tx store.Tx) error {
			if first {
				for _, k := range record.Kinds {
					if err := tx.DeleteAll(ctx, k); err != nil {
						return fmt.Errorf("gen: clear %s: %w", k.Name, err)
					}
				}
			}
			for n := 0; chunk == 0 || n < chunk; {
				var batch []record.Record
				var ok bool
				select {
				case batch, ok = <-in:
				case <-ctx.Done():
					return fmt.Errorf("gen: %w", ctx.Err())
				}
				if !ok {
					// The producer reports before it closes: a failed run must roll back
					// rather than commit a partial dataset.
					done = true
					return <-produced
				}
				if err := wr.put(ctx, tx, batch); err != nil {
					return err
				}
				n += len(batch)
			}
			return nil
		})
		if err != nil {
			return err
		}
		first = false
	}
	return nil
}

func (wr *writer) put(ctx context.Context, tx store.Tx, batch []record.Record) error {
	for _, r := range batch {
		if err := tx.Replace(ctx, r); err != nil {
			return fmt.Errorf("gen: write %s: %w", r.Kind.Name, err)
		}
	}
	k := wr.kinds[batch[0].Kind]
	wr.counts[k] += int64(len(batch))
	wr.total += int64(len(batch))
	wr.prog.tick(batch[0].Kind.Name, wr.counts[k], wr.total)
	return nil
}

func (wr *writer) summary(scale string, seed int64, d time.Duration) Summary {
	s := Summary{Scale: scale, Seed: seed, Records: wr.total, Elapsed: d}
	for i, k := range record.Kinds {
		s.Kinds = append(s.Kinds, KindCount{Kind: k.Name, Count: wr.counts[i]})
	}
	return s
}
