package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// entry is one line of the results file: a run, or a measurement made by run.sh
// (peak memory, time to first answer, import speed, load average).
type entry struct {
	Type  string          `json:"type"`
	Run   *result         `json:"run,omitempty"`
	Name  string          `json:"name,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	Unit  string          `json:"unit,omitempty"`
	Note  string          `json:"note,omitempty"`
}

func readResults(r io.Reader) ([]result, []entry, error) {
	var runs []result
	var metrics []entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var e entry
		if err := json.Unmarshal([]byte(text), &e); err != nil {
			return nil, nil, fmt.Errorf("results line %d: %w", n, err)
		}
		switch {
		case e.Type == "run" && e.Run != nil:
			runs = append(runs, *e.Run)
		case e.Type == "metric" && e.Name != "":
			metrics = append(metrics, e)
		default:
			return nil, nil, fmt.Errorf("results line %d: want a run or a named metric", n)
		}
	}
	return runs, metrics, sc.Err()
}

func reportCmd(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("report: name one results file")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	runs, metrics, err := readResults(f)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	report(stdout, runs, metrics)
	return nil
}

// report prints the runs as a table with each sportsdb/nginx ratio, the other
// measurements, and each target of the issue with whether it was met.
func report(w io.Writer, runs []result, metrics []entry) {
	fmt.Fprintln(w, "| workload | server | conns | req/s | p50 ms | p99 ms | max ms | errors | sportsdb/nginx |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range runs {
		ratio := ""
		if r.Server == "sportsdb" && r.Rate == 0 {
			if x, ok := ratioOf(runs, r.Workload); ok {
				ratio = fmt.Sprintf("%.2f", x)
			}
		}
		name := r.Workload
		if r.Rate > 0 {
			name += fmt.Sprintf(" @ %.0f/s", r.Rate)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.0f | %.2f | %.2f | %.1f | %d | %s |\n",
			name, r.Server, r.Conns, r.RPS, r.P50, r.P99, r.Max, r.Errors, ratio)
	}
	sizeTable(w, runs)
	if len(metrics) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| measurement | value | note |")
		fmt.Fprintln(w, "|---|---:|---|")
		for _, m := range metrics {
			fmt.Fprintf(w, "| %s | %s %s | %s |\n", m.Name, strings.Trim(string(m.Value), `"`), m.Unit, m.Note)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | wanted | measured | met |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, t := range targets(runs, metrics) {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", t.name, t.wanted, t.measured, t.met)
	}
}

// sizeTable prints, for each constant-rate run, the p99 of each answer-size class and how
// many of the run's slowest 1% of answers fell in it.
func sizeTable(w io.Writer, runs []result) {
	var rated []result
	for _, r := range runs {
		if r.Rate > 0 && len(r.BySize) > 0 {
			rated = append(rated, r)
		}
	}
	if len(rated) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Constant-rate runs by answer size: p99 ms (answers among the run's slowest 1% / answers)")
	fmt.Fprintln(w)
	head, rule := "| workload | server |", "|---|---|"
	lower := 0
	for _, b := range sizeBounds {
		if b == 0 {
			head += fmt.Sprintf(" >= %s |", kib(lower))
		} else {
			head += fmt.Sprintf(" %s-%s |", kib(lower), kib(b))
		}
		rule += "---:|"
		lower = b
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	for _, r := range rated {
		row := fmt.Sprintf("| %s @ %.0f/s | %s |", r.Workload, r.Rate, r.Server)
		for _, c := range r.BySize {
			if c.Requests == 0 {
				row += " - |"
				continue
			}
			row += fmt.Sprintf(" %.2f (%d/%d) |", c.P99, c.Tail, c.Requests)
		}
		fmt.Fprintln(w, row)
	}
}

func kib(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("%dK", n>>10)
}

// ratioOf is sportsdb's rate over nginx's for a workload run as fast as possible.
func ratioOf(runs []result, workload string) (float64, bool) {
	s, okS := find(runs, workload, "sportsdb", false)
	n, okN := find(runs, workload, "nginx", false)
	if !okS || !okN || n.RPS == 0 {
		return 0, false
	}
	return s.RPS / n.RPS, true
}

func find(runs []result, workload, server string, rated bool) (result, bool) {
	for _, r := range runs {
		if r.Workload == workload && r.Server == server && (r.Rate > 0) == rated {
			return r, true
		}
	}
	return result{}, false
}

func metric(metrics []entry, name string) (float64, bool) {
	for _, m := range metrics {
		if m.Name == name {
			var v float64
			if json.Unmarshal(m.Value, &v) == nil {
				return v, true
			}
		}
	}
	return 0, false
}

type target struct{ name, wanted, measured, met string }

func atLeast(x float64) func(float64) bool { return func(v float64) bool { return v >= x } }
func atMost(x float64) func(float64) bool  { return func(v float64) bool { return v <= x } }

func check(name, wanted string, v float64, ok bool, format string, pass func(float64) bool) target {
	if !ok {
		return target{name, wanted, "not measured", "-"}
	}
	met := "no"
	if pass(v) {
		met = "yes"
	}
	return target{name, wanted, fmt.Sprintf(format, v), met}
}

func targets(runs []result, metrics []entry) []target {
	hot, okHot := ratioOf(runs, "hot")
	mixed, okMixed := ratioOf(runs, "mixed")
	search, okSearch := find(runs, "search", "sportsdb", false)
	rss, okRSS := metric(metrics, "sportsdb peak RSS")
	imp, okImp := metric(metrics, "import speed")
	first, okFirst := metric(metrics, "first answer after start, demo database")
	return []target{
		check("hot: sportsdb/nginx req/s", ">= 0.55", hot, okHot, "%.2f", atLeast(0.55)),
		check("mixed: sportsdb/nginx req/s", ">= 0.30", mixed, okMixed, "%.2f", atLeast(0.30)),
		ratedP99(runs, "mixed: p99 at half of peak rate", "mixed", 10),
		check("search: p99 at full load", "<= 5 ms", search.P99, okSearch, "%.2f ms", atMost(5)),
		ratedP99(runs, "search: p99 at half of peak rate", "search", 5),
		check("sportsdb peak RSS", "<= 300 MB", rss, okRSS, "%.0f MB", atMost(300)),
		check("import into SQLite", ">= 100000 records/s", imp, okImp, "%.0f records/s", atLeast(100000)),
		check("first answer after start (demo db)", "<= 1 s", first, okFirst, "%.0f ms", atMost(1000)),
	}
}

// ratedP99 checks the p99 of a workload's constant-rate runs on sportsdb against limit ms.
// When the rate was run several times (run.sh repeats it, alternating with nginx at the
// same rate, because one 15-second window on a shared machine can be disturbed), the median
// run counts and every run is shown, with nginx's median at the same rate for reference.
func ratedP99(runs []result, name, workload string, limit float64) target {
	wanted := fmt.Sprintf("<= %.0f ms", limit)
	ours := p99s(runs, workload, "sportsdb")
	if len(ours) == 0 {
		return target{name, wanted, "not measured", "-"}
	}
	median := ours[(len(ours)-1)/2]
	t := check(name, wanted, median, true, "%.2f ms", atMost(limit))
	if len(ours) > 1 {
		t.measured += fmt.Sprintf(" (median of %d: %s)", len(ours), joinMs(ours))
	}
	if ref := p99s(runs, workload, "nginx"); len(ref) > 0 {
		t.measured += fmt.Sprintf("; nginx at the same rate: %.2f ms", ref[(len(ref)-1)/2])
	}
	return t
}

// p99s are the sorted p99 latencies of a workload's constant-rate runs on a server.
func p99s(runs []result, workload, server string) []float64 {
	var out []float64
	for _, r := range runs {
		if r.Workload == workload && r.Server == server && r.Rate > 0 {
			out = append(out, r.P99)
		}
	}
	slices.Sort(out)
	return out
}

func joinMs(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%.2f", v)
	}
	return strings.Join(parts, ", ")
}
