package mirror

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"sportsdb/internal/ingest"
)

// progress draws a live line on a terminal (requests done and queued, records, rate, ETA)
// and the summary line at the end.
type progress struct {
	w     io.Writer
	live  bool
	clock Clock
	mu    sync.Mutex
	last  time.Time
	drawn bool
}

const redrawEvery = 500 * time.Millisecond

func newProgress(w io.Writer, clk Clock) *progress {
	return &progress{w: w, live: ingest.IsTerminal(w), clock: clk}
}

// tick redraws the live line, at most twice a second.
func (p *progress) tick(cr *crawler) {
	if !p.live {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	done := cr.requests.Load() + cr.failed.Load()
	var queued int64
	if st, err := cr.fr.FrontierStats(context.Background(), cr.start); err == nil {
		queued = st.Due
	}
	elapsed := cr.opt.Clock.Now().Sub(cr.start)
	perMin := 0.0
	if elapsed > 0 {
		perMin = float64(done) / elapsed.Minutes()
	}
	eta := "?"
	if rate := min(perMin, float64(cr.c.rate)); rate > 0 {
		eta = (time.Duration(float64(queued) / rate * float64(time.Minute))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\rmirroring: %d requests done, %d queued, %d records, %.0f requests/min, ETA %s\x1b[K",
		done, queued, cr.records.Load(), perMin, eta)
	p.drawn = true
}

// done clears the live line and writes the summary.
func (p *progress) done(line string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w, line)
}
