package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The events a list looks up are found in v1 and v2 targets alike.
func TestLookedUpEvent(t *testing.T) {
	for target, want := range map[string]string{
		"/api/v1/json/k/lookupevent.php?id=123":   "123",
		"/api/v1/json/k/lookupevent.php?id=9&x=1": "9",
		"/api/v2/json/lookup/event/77":            "77",
		"/api/v1/json/k/lookupteam.php?id=5":      "",
	} {
		if got := lookedUpEvent(target); got != want {
			t.Errorf("%s: %q, want %q", target, got, want)
		}
	}
}

// The live results are lines of run.sh's results format: the report reads them back, with
// the runs, the ratio, the hit ratios and the visibility measured.
func TestLiveResultsReadByTheReport(t *testing.T) {
	runs := []liveRun{
		{res: result{Workload: liveStatic, Server: "sportsdb", RPS: 1000}, hits: 90, misses: 10},
		{res: result{Workload: liveChanging, Server: "sportsdb", RPS: 900, Errors: 1}, hits: 80, misses: 20},
	}
	visible := []visibility{
		{seen: true, fromStart: 300 * time.Millisecond, fromCommit: 5 * time.Millisecond, importTook: 290 * time.Millisecond},
		{seen: false},
	}
	out := filepath.Join(t.TempDir(), "live.jsonl")
	var table, printed strings.Builder
	if err := writeLive(&table, &printed, out, runs, visible); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, metrics, err := readResults(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Workload != liveChanging {
		t.Fatalf("runs %+v", got)
	}
	for name, want := range map[string]float64{
		"live: throughput while importing / unchanging": 0.9,
		"live: errors": 1,
		"response cache hit ratio, " + liveChanging:   0.8,
		"live: change visible, p99 from import start": 300,
		"live: changes not visible within 5 s":        1,
	} {
		if v, ok := metric(metrics, name); !ok || v != want {
			t.Errorf("%s: %v %v, want %v", name, v, ok, want)
		}
	}
	written, _ := os.ReadFile(out)
	if string(written) != printed.String() {
		t.Errorf("the file holds other lines than those printed:\n%s\n%s", written, printed.String())
	}
	met := map[string]string{}
	for _, m := range metrics {
		if m.Type == "target" {
			met[m.Name] = m.Met
		}
	}
	if met["live: throughput while importing / unchanging"] != "yes" || met["live: errors"] != "no" ||
		met["live: change visible to polling clients, p99 from commit"] != "no" {
		t.Errorf("targets met: %v", met)
	}
	for _, row := range []string{"| live: throughput while importing / unchanging | >= 0.80 | 0.90 | yes |", "| live: errors | 0 | 1 | no |", "5 ms (1 not seen; 300 ms from the import process's start) | no |"} {
		if !strings.Contains(table.String(), row) {
			t.Errorf("table lacks %q:\n%s", row, table.String())
		}
	}
}

// A change shows when the record named carries the new score, not another record.
func TestShows(t *testing.T) {
	body := []byte(`{"livescore":[{"idLiveScore":"1","intHomeScore":"7"},{"idLiveScore":"2","intHomeScore":"1001"}]}`)
	if !shows(body, "idLiveScore", "2", "1001") || shows(body, "idLiveScore", "1", "1001") || shows(body, "idLiveScore", "3", "7") {
		t.Error("shows does not tell the records apart")
	}
}
