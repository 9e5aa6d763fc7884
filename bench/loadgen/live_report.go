package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// liveSummary is what the live workload measured over all its runs.
type liveSummary struct {
	static, changing []liveRun
	visible          []visibility
}

func (s liveSummary) meanRPS(runs []liveRun) float64 {
	if len(runs) == 0 {
		return 0
	}
	var sum float64
	for _, r := range runs {
		sum += r.res.RPS
	}
	return sum / float64(len(runs))
}

// hitRatio is the response cache's hit ratio over runs together.
func hitRatioOf(runs []liveRun) (float64, int, int) {
	var h, m int
	for _, r := range runs {
		h, m = h+r.hits, m+r.misses
	}
	if h+m == 0 {
		return 0, 0, 0
	}
	return float64(h) / float64(h+m), h, m
}

func errorsOf(runs []liveRun) int {
	n := 0
	for _, r := range runs {
		n += r.res.Errors
	}
	return n
}

// latencies are the sorted times of the changes seen, as from picks them, and how many
// were not seen.
func (s liveSummary) latencies(from func(visibility) time.Duration) ([]time.Duration, int) {
	var out []time.Duration
	unseen := 0
	for _, v := range s.visible {
		if !v.seen {
			unseen++
			continue
		}
		out = append(out, from(v))
	}
	slices.Sort(out)
	return out, unseen
}

// writeLive prints the table and appends the JSON lines (runs, then measurements, in the
// format of bench/run.sh's results) to out and stdout.
func writeLive(stdout io.Writer, out string, runs []liveRun, visible []visibility) error {
	s := liveSummary{visible: visible}
	for _, r := range runs {
		if r.res.Workload == liveChanging {
			s.changing = append(s.changing, r)
		} else {
			s.static = append(s.static, r)
		}
	}
	var lines []string
	for _, r := range runs {
		b, err := json.Marshal(map[string]any{"type": "run", "run": r.res})
		if err != nil {
			return fmt.Errorf("live: %w", err)
		}
		lines = append(lines, string(b))
	}
	metric := func(name string, value any, unit, note string) {
		b, _ := json.Marshal(entry{Type: "metric", Name: name, Value: mustJSON(value), Unit: unit, Note: note})
		lines = append(lines, string(b))
	}
	staticRPS, changingRPS := s.meanRPS(s.static), s.meanRPS(s.changing)
	ratio := 0.0
	if staticRPS > 0 {
		ratio = changingRPS / staticRPS
	}
	metric("live: throughput while importing / unchanging", round(ratio, 3), "",
		fmt.Sprintf("mean of %d runs each: %.0f and %.0f req/s", len(s.changing), changingRPS, staticRPS))
	metric("live: errors", errorsOf(s.changing)+errorsOf(s.static), "",
		fmt.Sprintf("%d while importing, %d on unchanging data", errorsOf(s.changing), errorsOf(s.static)))
	for _, set := range []struct {
		name string
		runs []liveRun
	}{{liveStatic, s.static}, {liveChanging, s.changing}} {
		r, h, m := hitRatioOf(set.runs)
		metric("response cache hit ratio, "+set.name, round(r, 3), "", fmt.Sprintf("%d hits, %d misses", h, m))
	}
	fromCommit, unseen := s.latencies(func(v visibility) time.Duration { return v.fromCommit })
	fromStart, _ := s.latencies(func(v visibility) time.Duration { return v.fromStart })
	took, _ := s.latencies(func(v visibility) time.Duration { return v.importTook })
	if len(fromCommit) > 0 {
		metric("live: change visible, p99 from commit", ms(percentile(fromCommit, 99)), "ms",
			fmt.Sprintf("%d changes polled every 10 ms; p50 %.0f ms, max %.0f ms; commit: the import's summary line, printed once its transaction committed",
				len(fromCommit), ms(percentile(fromCommit, 50)), ms(fromCommit[len(fromCommit)-1])))
		metric("live: change visible, p99 from import start", ms(percentile(fromStart, 99)), "ms",
			fmt.Sprintf("p50 %.0f ms, max %.0f ms: with the import process's own start-up and work", ms(percentile(fromStart, 50)), ms(fromStart[len(fromStart)-1])))
		metric("live: import process time, p50", ms(percentile(took, 50)), "ms", "sportsdb import of one tick's changes, start to exit")
	}
	metric("live: changes not visible within 5 s", unseen, "", "")

	fmt.Fprintln(stdout, "| run | req/s | p50 ms | p99 ms | errors | cache hit ratio |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|")
	for _, r := range runs {
		fmt.Fprintf(stdout, "| %s | %.0f | %.2f | %.2f | %d | %.3f |\n", r.res.Workload, r.res.RPS, r.res.P50, r.res.P99, r.res.Errors, r.hitRatio())
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "| target | wanted | measured | met |")
	fmt.Fprintln(stdout, "|---|---|---|---|")
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	total := errorsOf(s.changing) + errorsOf(s.static)
	fmt.Fprintf(stdout, "| throughput while importing / unchanging | >= 0.80 | %.2f | %s |\n", ratio, yes(ratio >= 0.8))
	fmt.Fprintf(stdout, "| errors | 0 | %d | %s |\n", total, yes(total == 0))
	if len(fromCommit) > 0 {
		p99 := ms(percentile(fromCommit, 99))
		fmt.Fprintf(stdout, "| change visible to polling clients, p99 from commit | <= 1000 ms | %.0f ms (%d not seen) | %s |\n",
			p99, unseen, yes(p99 <= 1000 && unseen == 0))
		fmt.Fprintf(stdout, "| change visible, p99 from the import process's start | - | %.0f ms | - |\n", ms(percentile(fromStart, 99)))
	} else {
		fmt.Fprintln(stdout, "| change visible to polling clients, p99 from commit | <= 1000 ms | not measured | - |")
	}
	fmt.Fprintln(stdout)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	if out == "" {
		return nil
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return f.Close()
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
