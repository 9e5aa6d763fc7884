package ingest

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"sportsdb/internal/record"
)

// Summary tells what an import or export did.
type Summary struct {
	// Exported is set on the summary of an export.
	Exported bool
	// Records is the number of records read (import) or written (export).
	Records int
	// Deleted is the number of delete lines an import carried out.
	Deleted int
	// ByKind counts records per kind name.
	ByKind map[string]int
	// Files is the number of files read or written.
	Files int
	// Unknown counts, per "kind.field", values of fields the kind does not have; the
	// records keep them as their extras (record.Record.Extras).
	Unknown map[string]int
	// Messages are the texts that bodies carried instead of records ("file: key: text"),
	// like a rejected parameter or "No data found".
	Messages []string
	// Elapsed is the wall time the run took.
	Elapsed time.Duration
}

func newSummary() Summary {
	return Summary{ByKind: map[string]int{}, Unknown: map[string]int{}}
}

// RecordsPerSecond is the run's speed.
func (s Summary) RecordsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Records) / s.Elapsed.Seconds()
}

// String is the one-line summary, like
// "imported 1234 records (event 1000, team 234) from 12 files in 0.42s".
func (s Summary) String() string {
	var b strings.Builder
	verb, prep := "imported", "from"
	if s.Exported {
		verb, prep = "exported", "to"
	}
	fmt.Fprintf(&b, "%s %s", verb, plural(s.Records, "record"))
	if kinds := s.kindCounts(); kinds != "" {
		fmt.Fprintf(&b, " (%s)", kinds)
	}
	if s.Deleted > 0 {
		fmt.Fprintf(&b, " and deleted %s", plural(s.Deleted, "record"))
	}
	fmt.Fprintf(&b, " %s %s in %.2fs", prep, plural(s.Files, "file"), s.Elapsed.Seconds())
	if n := len(s.Unknown); n > 0 {
		fmt.Fprintf(&b, "; kept fields no kind has (%s)", s.unknownCounts())
	}
	if n := len(s.Messages); n > 0 {
		fmt.Fprintf(&b, "; %s held a message instead of records", plural(n, "body"))
	}
	return b.String()
}

// kindCounts lists the counts per kind in kind order.
func (s Summary) kindCounts() string {
	var parts []string
	for _, k := range record.Kinds {
		if n := s.ByKind[k.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k.Name, n))
		}
	}
	return strings.Join(parts, ", ")
}

func (s Summary) unknownCounts() string {
	names := make([]string, 0, len(s.Unknown))
	for n := range s.Unknown {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", safeName(n), s.Unknown[n])
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// progress draws a live line on a terminal and the summary line at the end.
type progress struct {
	w     io.Writer
	live  bool
	verb  string
	start time.Time
	last  time.Time
	drawn bool
}

// redrawEvery keeps the live line readable and its cost negligible.
const redrawEvery = 250 * time.Millisecond

func newProgress(w io.Writer, verb string) *progress {
	return &progress{w: w, live: isTerminal(w), verb: verb, start: time.Now()}
}

// isTerminal says whether w is a character device, where a redrawn line makes sense.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// tick redraws the live line when enough time has passed; records is a running count.
func (p *progress) tick(records, files int) {
	if !p.live || records%256 != 0 {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	rate := float64(records) / now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%s %d records, %d files, %.0f records/s\x1b[K", p.verb, records, files, rate)
	p.drawn = true
}

// done clears the live line and writes the last line.
func (p *progress) done(line string) {
	if p.w == nil {
		return
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w, line)
}
