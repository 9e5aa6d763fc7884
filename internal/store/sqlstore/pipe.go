package sqlstore

import (
	"errors"
	"sync"
)

// Pipe runs the writes of a transaction on a goroutine of their own, so that the database
// writes one batch while the caller reads and encodes the next: an import then uses two
// cores. Whatever else the transaction runs must first wait for the queued writes (Sync),
// so that it runs as if in the order the transaction issued it.
type Pipe struct {
	jobs chan func() error
	done chan struct{} // closed when the goroutine has ended
	wg   sync.WaitGroup

	mu  sync.Mutex
	err error // the first failed job; later jobs are skipped
}

var errStopped = errors.New("transaction has ended")

// pipeDepth jobs queue while one runs, so that the caller gets on with its next records
// during a stretch of records that are slow to write (a kind with many indexes).
const pipeDepth = 16

// Send queues a job, starting the goroutine on first use. It returns the error of an
// earlier job, if one failed.
func (p *Pipe) Send(job func() error) error {
	if err := p.failed(); err != nil {
		return err
	}
	if p.jobs == nil {
		p.jobs = make(chan func() error, pipeDepth)
		p.done = make(chan struct{})
		go p.run()
	}
	p.wg.Add(1)
	p.jobs <- job
	return nil
}

func (p *Pipe) run() {
	defer close(p.done)
	for job := range p.jobs {
		if p.failed() == nil {
			if err := job(); err != nil {
				p.mu.Lock()
				p.err = err
				p.mu.Unlock()
			}
		}
		p.wg.Done()
	}
}

func (p *Pipe) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Sync waits for the queued jobs and returns the error of the first that failed.
func (p *Pipe) Sync() error {
	p.wg.Wait()
	return p.failed()
}

// Stop ends the goroutine, skipping the jobs still queued (those of a failing
// transaction are of no use); the transaction must not be used by it after Stop returns.
func (p *Pipe) Stop() {
	if p.jobs == nil {
		return
	}
	p.mu.Lock()
	if p.err == nil {
		p.err = errStopped
	}
	p.mu.Unlock()
	close(p.jobs)
	<-p.done
	p.jobs = nil
}
