package sqlite

import (
	"context"
	"errors"
	"sync"

	"sportsdb/internal/record"
	"sportsdb/internal/store/sqlstore"
)

// pipe runs the inserts of a transaction on a goroutine of their own, so that SQLite writes
// one batch while the caller reads and encodes the next: an import then uses two cores.
// Every other statement of the transaction that could meet queued rows first waits for the
// inserts (sync), so it runs as if in the order the transaction issued them; only the look
// at a kind's table before its first rows are sent goes ahead (see state).
type pipe struct {
	jobs chan insertJob
	done chan struct{} // closed when the goroutine has ended
	wg   sync.WaitGroup

	mu  sync.Mutex
	err error // the first failed insert; later jobs are skipped
}

var errStopped = errors.New("transaction has ended")

type insertJob struct {
	ctx  context.Context
	kind *record.Kind
	// args are the rows' values in the order of sqlstore.InsertColumns, row after row. The
	// caller boxes them, so that the insert goroutine, the slower side, only runs statements.
	args []any
}

// send queues rows for insertion, starting the goroutine on first use. It returns the error
// of an earlier insert, if one failed.
func (t *tx) send(ctx context.Context, k *record.Kind, rows []sqlstore.Row) error {
	if err := t.pipe.failed(); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	if t.pipe.jobs == nil {
		// Jobs queue while one runs, so that the caller gets on with its next records during
		// a stretch of records that are slow to insert (a kind with many indexes).
		t.pipe.jobs = make(chan insertJob, 16)
		t.pipe.done = make(chan struct{})
		go t.runInserts()
	}
	t.pipe.wg.Add(1)
	args := make([]any, 0, len(rows)*(2+len(k.Indexed)))
	for _, row := range rows {
		args = row.AppendArgs(args)
	}
	t.pipe.jobs <- insertJob{ctx: ctx, kind: k, args: args}
	return nil
}

func (t *tx) runInserts() {
	defer close(t.pipe.done)
	for j := range t.pipe.jobs {
		if t.pipe.failed() == nil {
			if err := t.insert(j.ctx, j.kind, j.args); err != nil {
				t.pipe.mu.Lock()
				t.pipe.err = err
				t.pipe.mu.Unlock()
			}
		}
		t.pipe.wg.Done()
	}
}

func (p *pipe) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// sync waits for the queued inserts and returns the error of the first that failed.
func (t *tx) sync() error {
	t.pipe.wg.Wait()
	return t.pipe.failed()
}

// stop ends the goroutine; the transaction must not be used by it after Write returns.
func (t *tx) stop() {
	if t.pipe.jobs == nil {
		return
	}
	// Queued inserts of a Write that is failing are of no use.
	t.pipe.mu.Lock()
	if t.pipe.err == nil {
		t.pipe.err = errStopped
	}
	t.pipe.mu.Unlock()
	close(t.pipe.jobs)
	<-t.pipe.done
	t.pipe.jobs = nil
}
