package gen

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress shows a live line on a terminal (redrawn at most a few times a second) and always
// ends with the one-line summary.
type progress struct {
	out   io.Writer
	live  bool
	scale string
	start time.Time
	last  time.Time
}

func newProgress(out io.Writer, scale string) *progress {
	p := &progress{out: out, scale: scale, start: time.Now()}
	if f, ok := out.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.live = true
		}
	}
	return p
}

func (p *progress) tick(kind string, n, total int64) {
	if p.out == nil || !p.live {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	fmt.Fprintf(p.out, "\r\x1b[Kgen %s: %s %d, %d records, %.0fs", p.scale, kind, n, total, now.Sub(p.start).Seconds())
}

func (p *progress) done(s Summary) {
	if p.out == nil {
		return
	}
	if p.live {
		fmt.Fprint(p.out, "\r\x1b[K")
	}
	fmt.Fprintln(p.out, s.String())
}
