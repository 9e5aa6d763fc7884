package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleResults = `{"type":"metric","name":"load average at start","value":"1.00 2.00 3.00","unit":"","note":"shared"}
{"type":"run","run":{"workload":"hot","server":"sportsdb","connections":32,"seconds":15,"requests":90000,"rps":6000,"p50_ms":2,"p99_ms":9,"max_ms":20,"errors":0,"status":{"200":90000},"cache":{"hits":40950,"misses":49050,"refreshes":0,"hit_ratio":0.455,"server_cpu_us":96.4}}}
{"type":"run","run":{"workload":"hot","server":"nginx","connections":32,"seconds":15,"requests":150000,"rps":10000,"p50_ms":1,"p99_ms":4,"max_ms":9,"errors":0,"status":{"200":150000}}}
{"type":"run","run":{"workload":"mixed","server":"sportsdb","connections":32,"seconds":15,"requests":30000,"rps":2000,"p50_ms":5,"p99_ms":50,"max_ms":90,"errors":3,"status":{"200":29997,"503":3},"cache":{"hits":12000,"misses":18000,"refreshes":0,"hit_ratio":0.4,"server_cpu_us":412.6}}}
{"type":"run","run":{"workload":"mixed","server":"nginx","connections":32,"seconds":15,"requests":120000,"rps":8000,"p50_ms":1,"p99_ms":6,"max_ms":9,"errors":0,"status":{"200":120000}}}
{"type":"run","run":{"workload":"mixed","server":"sportsdb","target_rate":1000,"connections":32,"seconds":15,"requests":15000,"rps":1000,"p50_ms":1,"p99_ms":8.5,"max_ms":30,"errors":0,"status":{"200":15000}}}
{"type":"run","run":{"workload":"search","server":"sportsdb","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":9.1,"max_ms":30,"errors":0,"status":{"200":75000},"by_size":[{"below_bytes":4096,"requests":50000,"p50_ms":0.4,"p99_ms":1.5,"in_slowest_1pct":150},{"below_bytes":16384,"requests":19000,"p50_ms":0.5,"p99_ms":2.25,"in_slowest_1pct":200},{"below_bytes":65536,"requests":6000,"p50_ms":0.9,"p99_ms":12,"in_slowest_1pct":400},{"below_bytes":0,"requests":0,"p50_ms":0,"p99_ms":0,"in_slowest_1pct":0}]}}
{"type":"run","run":{"workload":"search","server":"nginx","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":2.5,"max_ms":30,"errors":0,"status":{"200":75000}}}
{"type":"run","run":{"workload":"search","server":"sportsdb","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":4.2,"max_ms":30,"errors":0,"status":{"200":75000}}}
{"type":"run","run":{"workload":"search","server":"nginx","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":2.1,"max_ms":30,"errors":0,"status":{"200":75000}}}
{"type":"run","run":{"workload":"search","server":"sportsdb","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":4.8,"max_ms":30,"errors":0,"status":{"200":75000}}}
{"type":"run","run":{"workload":"search","server":"nginx","target_rate":5000,"connections":32,"seconds":15,"requests":75000,"rps":5000,"p50_ms":0.5,"p99_ms":3.0,"max_ms":30,"errors":0,"status":{"200":75000}}}
{"type":"metric","name":"sportsdb peak RSS","value":250,"unit":"MB"}
{"type":"metric","name":"sportsdb peak RSS, cold","value":301,"unit":"MB"}
{"type":"metric","name":"import speed","value":120000,"unit":"records/s"}
{"type":"metric","name":"import speed, PostgreSQL","value":130000,"unit":"records/s"}
{"type":"run","run":{"workload":"cold","server":"sportsdb","connections":32,"seconds":4.5,"requests":20000,"rps":4000,"p50_ms":2,"p99_ms":9,"max_ms":20,"errors":0,"once":true,"list_ended":true,"cache":{"hits":0,"misses":20000,"refreshes":0,"hit_ratio":0},"status":{"200":20000}}}
{"type":"run","run":{"workload":"cold","server":"nginx","connections":32,"seconds":2,"requests":20000,"rps":10000,"p50_ms":1,"p99_ms":4,"max_ms":9,"errors":0,"once":true,"list_ended":true,"status":{"200":20000}}}
{"type":"run","run":{"workload":"cold-pg","server":"sportsdb","connections":32,"seconds":15,"requests":15000,"rps":1000,"p50_ms":2,"p99_ms":9,"max_ms":20,"errors":0,"once":true,"status":{"200":15000}}}
{"type":"run","run":{"workload":"mixed-pg","server":"sportsdb","connections":32,"seconds":15,"requests":30000,"rps":2000,"p50_ms":2,"p99_ms":9,"max_ms":20,"errors":0,"status":{"200":30000}}}
{"type":"run","run":{"workload":"mixed-pg-2","server":"sportsdb","connections":32,"seconds":15,"requests":27000,"rps":1800,"p50_ms":2,"p99_ms":9,"max_ms":20,"errors":0,"status":{"200":27000}}}
`

func TestReportTargets(t *testing.T) {
	got := targetsOf(t, sampleResults)
	want := map[string][2]string{
		"hot: cache hit ratio (the run is sound)":        {"0.455", "no"},
		"hot: sportsdb/nginx req/s":                      {"0.60", "yes"},
		"mixed: server CPU per answer":                   {"413 µs", "-"},
		"search: server CPU per answer":                  {"not measured", "-"},
		"mixed: sportsdb/nginx req/s":                    {"0.25", "no"},
		"mixed: p99 at half of peak rate":                {"8.50 ms", "yes"},
		"mixed: p99 at full load":                        {"50.00 ms", "no"},
		"search: sportsdb/nginx req/s":                   {"not measured", "-"},
		"sportsdb peak RSS (warm and cold runs)":         {"301 MB", "no"},
		"import into SQLite":                             {"120000 records/s", "no"},
		"import into PostgreSQL":                         {"130000 records/s", "yes"},
		"cold: sportsdb/nginx req/s":                     {"0.40", "yes"},
		"cold on PostgreSQL: sportsdb/nginx req/s":       {"0.10", "no"},
		"cold on PostgreSQL / cold on SQLite":            {"0.25", "-"},
		"two replicas / one replica (mixed, PostgreSQL)": {"0.90", "yes"},
		"cold: p99 at half of peak rate":                 {"not measured", "-"},
		"live: data changing under load":                 {"not run (LIVE=on runs bench/live.sh)", "-"},
		"search: p99 at full load":                       {"not measured", "-"},
		"search: p99 at half of peak rate":               {"4.80 ms (median of 3: 4.20, 4.80, 9.10); nginx at the same rate: 2.50 ms", "yes"},
		"first answer after start (demo db)":             {"not measured", "-"},
	}
	for name, w := range want {
		if g := got[name]; g.measured != w[0] || g.met != w[1] {
			t.Errorf("%s: measured %q met %q, want %q %q", name, g.measured, g.met, w[0], w[1])
		}
	}
}

// The search list on PostgreSQL is reported beside SQLite's: its ratio to nginx's search
// run (the same answers), to SQLite's rate, and the median p99 of its own rated runs.
func TestReportSearchOnPostgres(t *testing.T) {
	lines := `{"type":"run","run":{"workload":"search","server":"sportsdb","connections":32,"seconds":10,"requests":40000,"rps":4000,"p50_ms":2,"p99_ms":8,"max_ms":20,"errors":0,"status":{"200":40000}}}
{"type":"run","run":{"workload":"search","server":"nginx","connections":32,"seconds":10,"requests":160000,"rps":16000,"p50_ms":1,"p99_ms":4,"max_ms":9,"errors":0,"status":{"200":160000}}}
{"type":"run","run":{"workload":"search-pg","server":"sportsdb","connections":32,"seconds":10,"requests":30000,"rps":3000,"p50_ms":3,"p99_ms":12,"max_ms":30,"errors":0,"status":{"200":30000},"cache":{"hits":0,"misses":30000,"refreshes":0,"hit_ratio":0,"server_cpu_us":210.4}}}
{"type":"run","run":{"workload":"search-pg","server":"sportsdb","target_rate":1500,"connections":32,"seconds":10,"requests":15000,"rps":1500,"p50_ms":1,"p99_ms":7.25,"max_ms":20,"errors":0,"status":{"200":15000}}}
{"type":"run","run":{"workload":"search-pg","server":"sportsdb","target_rate":1500,"connections":32,"seconds":10,"requests":15000,"rps":1500,"p50_ms":1,"p99_ms":6.5,"max_ms":20,"errors":0,"status":{"200":15000}}}
{"type":"run","run":{"workload":"search-pg","server":"sportsdb","target_rate":1500,"connections":32,"seconds":10,"requests":15000,"rps":1500,"p50_ms":1,"p99_ms":30,"max_ms":40,"errors":0,"status":{"200":15000}}}
`
	got := targetsOf(t, lines)
	for name, want := range map[string]string{
		"search on PostgreSQL: sportsdb/nginx req/s":         "0.19",
		"search on PostgreSQL / search on SQLite":            "0.75",
		"search on PostgreSQL: p99 at half of its peak rate": "7.25 ms",
		"search-pg: server CPU per answer":                   "210 µs",
	} {
		if g := got[name]; g.measured != want || g.met != "-" {
			t.Errorf("%s: measured %q met %q, want %q -", name, g.measured, g.met, want)
		}
	}
	// The search target itself is SQLite's alone.
	if g := got["search: sportsdb/nginx req/s"]; g.measured != "0.25" {
		t.Errorf("search on SQLite: %q, want 0.25", g.measured)
	}
}

// targetsOf is the targets of a results file, by name.
func targetsOf(t *testing.T, results string) map[string]target {
	t.Helper()
	runs, metrics, err := readResults(strings.NewReader(results))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]target{}
	for _, tg := range targets(runs, metrics) {
		got[tg.name] = tg
	}
	return got
}

func TestReportTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, []byte(sampleResults), 0o644)
	var out, errOut bytes.Buffer
	if err := dispatch(context.Background(), []string{"report", path}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"| hot | sportsdb | 32 | 6000 | 2.00 | 9.00 | 20.0 | 0 | 0.60 | 0.455 | 96 |",
		"| mixed | sportsdb | 32 | 2000 | 5.00 | 50.00 | 90.0 | 3 | 0.25 | 0.400 | 413 |",
		"| mixed @ 1000/s | sportsdb | 32 | 1000 | 1.00 | 8.50 | 30.0 | 0 |  | - | - |",
		"| load average at start | 1.00 2.00 3.00  | shared |",
		"| workload | server | 0-4K | 4K-16K | 16K-64K | >= 64K |",
		"| search @ 5000/s | sportsdb | 1.50 (150/50000) | 2.25 (200/19000) | 12.00 (400/6000) | - |",
		"| cold (list sent once, in 4.5 s) | sportsdb | 32 | 4000 | 2.00 | 9.00 | 20.0 | 0 | 0.40 | 0.000 | - |",
		"| cold-pg (sent once) | sportsdb | 32 | 1000 | 2.00 | 9.00 | 20.0 | 0 | 0.10 | - | - |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// Another script's targets (bench/live.sh) join the table in place of the live placeholder;
// -check fails on a run with errors, never on a missed target.
func TestReportTargetEntriesAndCheck(t *testing.T) {
	live := `{"type":"target","name":"live: p99 while writing","wanted":"<= 20 ms","measured":"30 ms","met":"no"}` + "\n"
	runs, metrics, err := readResults(strings.NewReader(sampleResults + live))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range targets(runs, metrics) {
		names = append(names, tg.name+"="+tg.met)
	}
	joined := strings.Join(names, ",")
	if !strings.Contains(joined, "live: p99 while writing=no") || strings.Contains(joined, "live: data changing") {
		t.Errorf("targets %s: want the live entry and no placeholder", joined)
	}
	dir := t.TempDir()
	withErrors := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(withErrors, []byte(sampleResults), 0o644) // mixed has 3 errors
	var out bytes.Buffer
	if err := dispatch(context.Background(), []string{"report", "-check", withErrors}, &out, &out); err == nil || !strings.Contains(err.Error(), "mixed on sportsdb") {
		t.Errorf("report -check on a run with errors: %v", err)
	}
	missed := filepath.Join(dir, "missed.jsonl")
	os.WriteFile(missed, []byte(strings.ReplaceAll(sampleResults, `"errors":3`, `"errors":0`)), 0o644)
	if err := dispatch(context.Background(), []string{"report", "-check", missed}, &out, &out); err != nil {
		t.Errorf("report -check failed on missed targets alone: %v", err)
	}
}

func TestReportRejectsBadLines(t *testing.T) {
	for _, bad := range []string{"not json\n", `{"type":"other"}` + "\n", `{"type":"metric"}` + "\n"} {
		if _, _, err := readResults(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
