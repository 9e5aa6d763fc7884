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

// writeLive prints the table of the runs and targets to table, and the JSON lines (runs,
// measurements and targets, in the format of bench/run.sh's results) to lines and, when out
// is set, appends them to that file.
func writeLive(table, jsonLines io.Writer, out string, runs []liveRun, visible []visibility) error {
	s := liveSummary{visible: visible}
	for _, r := range runs {
		if r.res.Workload == liveChanging {
			s.changing = append(s.changing, r)
		} else {
			s.static = append(s.static, r)
		}
	}
	var lines []string
	add := func(e entry) {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // ">= 0.80" as written
		_ = enc.Encode(e)        // strings, numbers and raw JSON made here
		lines = append(lines, strings.TrimSuffix(b.String(), "\n"))
	}
	for _, r := range runs {
		res := r.res
		add(entry{Type: "run", Run: &res})
	}
	metric := func(name string, value any, unit, note string) {
		add(entry{Type: "metric", Name: name, Value: mustJSON(value), Unit: unit, Note: note})
	}
	staticRPS, changingRPS := s.meanRPS(s.static), s.meanRPS(s.changing)
	ratio := 0.0
	if staticRPS > 0 {
		ratio = changingRPS / staticRPS
	}
	metric("live: throughput while importing / unchanging", round(ratio, 3), "",
		fmt.Sprintf("mean of %d runs each: %.0f and %.0f req/s", len(s.changing), changingRPS, staticRPS))
	total := errorsOf(s.changing) + errorsOf(s.static)
	metric("live: errors", total, "", fmt.Sprintf("%d while importing, %d on unchanging data", errorsOf(s.changing), errorsOf(s.static)))
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

	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	targets := []entry{
		{Name: "live: throughput while importing / unchanging", Wanted: ">= 0.80", Measured: fmt.Sprintf("%.2f", ratio), Met: yes(ratio >= 0.8)},
		{Name: "live: errors", Wanted: "0", Measured: fmt.Sprint(total), Met: yes(total == 0)},
		{Name: "live: change visible to polling clients, p99 from commit", Wanted: "<= 1000 ms", Measured: "not measured", Met: "-"},
	}
	if len(fromCommit) > 0 {
		p99 := ms(percentile(fromCommit, 99))
		targets[2].Measured = fmt.Sprintf("%.0f ms (%d not seen; %.0f ms from the import process's start)", p99, unseen, ms(percentile(fromStart, 99)))
		targets[2].Met = yes(p99 <= 1000 && unseen == 0)
	}
	for _, t := range targets {
		t.Type = "target"
		add(t)
	}

	fmt.Fprintln(table, "| run | req/s | p50 ms | p99 ms | errors | cache hit ratio |")
	fmt.Fprintln(table, "|---|---:|---:|---:|---:|---:|")
	for _, r := range runs {
		fmt.Fprintf(table, "| %s | %.0f | %.2f | %.2f | %d | %.3f |\n", r.res.Workload, r.res.RPS, r.res.P50, r.res.P99, r.res.Errors, r.hitRatio())
	}
	fmt.Fprintln(table)
	fmt.Fprintln(table, "| target | wanted | measured | met |")
	fmt.Fprintln(table, "|---|---|---|---|")
	for _, t := range targets {
		fmt.Fprintf(table, "| %s | %s | %s | %s |\n", t.Name, t.Wanted, t.Measured, t.Met)
	}
	text := strings.Join(lines, "\n") + "\n"
	if _, err := io.WriteString(jsonLines, text); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	if err := appendResults(out, []byte(text)); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return nil
}

// appendResults appends lines to the results file out, when out is set.
func appendResults(out string, lines []byte) error {
	if out == "" {
		return nil
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(lines); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
