package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testServer(t *testing.T) (addr string, bad *atomic.Int64) {
	t.Helper()
	bad = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Write([]byte(`{"teams":null}`))
		case "/cached":
			w.WriteHeader(http.StatusNotModified)
		default:
			bad.Add(1)
			http.Error(w, `{"Message":"Not found"}`, http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), bad
}

func TestRunCountsAnswersAndErrors(t *testing.T) {
	addr, bad := testServer(t)
	list := []line{{target: "/ok"}, {target: "/cached"}, {target: "/missing"}, {target: "/ok", key: "k"}}
	res, err := runLoad(context.Background(), load{addr: addr, list: list, connections: 4, duration: 300 * time.Millisecond, timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.NetErrors != 0 {
		t.Fatalf("requests %d, network errors %d (%s)", res.Requests, res.NetErrors, res.FirstError)
	}
	if got := res.Status["404"]; int64(got) > bad.Load() || got != res.Errors || got == 0 {
		t.Errorf("404s counted %d, errors %d, server sent %d: 304 and 200 are not errors, 404 is", got, res.Errors, bad.Load())
	}
	sum := 0
	for _, n := range res.Status {
		sum += n
	}
	if sum != res.Requests {
		t.Errorf("status counts add to %d, requests %d", sum, res.Requests)
	}
	if !(res.P50 <= res.P99 && res.P99 <= res.Max) || res.Max <= 0 {
		t.Errorf("percentiles out of order: p50 %v p99 %v max %v", res.P50, res.P99, res.Max)
	}
}

// At a constant rate the run sends exactly rate x duration requests, whatever the speed of
// the machine, and counts none of the warm-up.
func TestRunAtConstantRate(t *testing.T) {
	addr, _ := testServer(t)
	res, err := runLoad(context.Background(), load{addr: addr, list: []line{{target: "/ok"}}, connections: 3,
		duration: 500 * time.Millisecond, warmup: 100 * time.Millisecond, rate: 200, timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 100 || res.Errors != 0 {
		t.Errorf("requests %d errors %d, want exactly 100 and none (%s)", res.Requests, res.Errors, res.FirstError)
	}
}

func TestRunAgainstNothingReportsNetworkErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Close()
	res, err := runLoad(context.Background(), load{addr: addr, list: []line{{target: "/"}}, connections: 2, duration: 100 * time.Millisecond, timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.NetErrors == 0 || res.Errors != res.NetErrors || res.FirstError == "" {
		t.Errorf("net errors %d, errors %d, first %q: a dead server must show as errors", res.NetErrors, res.Errors, res.FirstError)
	}
}

// A once run sends each request of the list exactly once, across all connections, ends with
// the list, and turns requests over every address given.
func TestRunOnceOverTwoAddresses(t *testing.T) {
	var a, b atomic.Int64
	seen := sync.Map{}
	handler := func(n *atomic.Int64) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			if _, dup := seen.LoadOrStore(r.URL.RawQuery, true); dup {
				t.Errorf("%s asked twice", r.URL.RawQuery)
			}
			w.Write([]byte(`{}`))
		})
	}
	sa, sb := httptest.NewServer(handler(&a)), httptest.NewServer(handler(&b))
	defer sa.Close()
	defer sb.Close()
	var list []line
	for i := range 500 {
		list = append(list, line{target: fmt.Sprintf("/ok?n=%d", i)})
	}
	res, err := runLoad(context.Background(), load{addr: strings.TrimPrefix(sa.URL, "http://"), more: []string{strings.TrimPrefix(sb.URL, "http://")},
		list: list, connections: 4, duration: 30 * time.Second, warmup: time.Second, timeout: 5 * time.Second, once: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 500 || res.Errors != 0 || !res.ListEnded || !res.Once || res.Seconds >= 30 {
		t.Errorf("requests %d errors %d list ended %v seconds %v: want 500, none, the list's end well before 30 s",
			res.Requests, res.Errors, res.ListEnded, res.Seconds)
	}
	if a.Load() != 250 || b.Load() != 250 {
		t.Errorf("the two servers got %d and %d requests, want 250 each", a.Load(), b.Load())
	}
}

func TestCacheCounts(t *testing.T) {
	page := "# HELP sportsdb_response_cache_total x\nsportsdb_response_cache_total{result=\"hit\"} 90\n" +
		"sportsdb_response_cache_total{result=\"miss\"} 10\nsportsdb_response_cache_total{result=\"refresh\"} 2\nother 5\n" +
		"process_cpu_seconds_total 1.5\nprocess_cpu_seconds_total_other 9\n" +
		"sportsdb_webhook_delivered_total 7\nsportsdb_webhook_failures_total 2\nsportsdb_mqtt_published_total 3e+06\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, page) }))
	defer srv.Close()
	got, err := cacheCounts(context.Background(), []string{srv.URL, srv.URL}) // two replicas add up
	if err != nil {
		t.Fatal(err)
	}
	if got["hit"] != 180 || got["miss"] != 20 || got["refresh"] != 4 || got[cpuKey] != 3_000_000 ||
		got[webhookDelivered] != 14 || got[webhookFailures] != 4 || got[mqttPublished] != 6_000_000 {
		t.Errorf("counts %v", got)
	}
	// 80 lookups over the run, which cost the two servers 2.2 s of CPU: 27,500 µs each.
	use := cacheDelta(map[string]int64{"hit": 100, "miss": 20, cpuKey: 800_000}, got, 5)
	if use.Hits != 80 || use.Misses != 0 || use.HitRatio != 1 || use.CPUus != 27500 {
		t.Errorf("delta %+v", use)
	}
	// Answers without lookups (images): the CPU time per answered request.
	use = cacheDelta(map[string]int64{"hit": 180, "miss": 20, cpuKey: 800_000}, got, 1100)
	if use.Hits != 0 || use.CPUus != 2000 {
		t.Errorf("delta without lookups %+v", use)
	}
}

func TestRekey(t *testing.T) {
	keys := map[string]string{"old1": "new1", "old2": "new2"}
	got, err := rekey(line{target: "/api/v1/json/old1/lookupteam.php?id=1"}, keys)
	if err != nil || got.target != "/api/v1/json/new1/lookupteam.php?id=1" {
		t.Errorf("v1: %+v %v", got, err)
	}
	got, err = rekey(line{target: "/api/v2/json/lookup/team/1", key: "old2"}, keys)
	if err != nil || got.key != "new2" || got.target != "/api/v2/json/lookup/team/1" {
		t.Errorf("v2: %+v %v", got, err)
	}
	if _, err := rekey(line{target: "/api/v1/json/other/all_sports.php"}, keys); err == nil {
		t.Error("a key of no file was let through")
	}
}

func TestRunRejectsBadLoad(t *testing.T) {
	if _, err := runLoad(context.Background(), load{addr: "x:1", list: []line{{target: "/"}}}); err == nil {
		t.Error("no connections and no duration accepted")
	}
}

func TestReadList(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# comment\n/api/v1/json/123/all_sports.php\n\n/api/v2/json/all/sports\tKEY\r\n"), 0o644)
	lines, err := readList(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []line{{target: "/api/v1/json/123/all_sports.php"}, {target: "/api/v2/json/all/sports", key: "KEY"}}
	if len(lines) != 2 || lines[0] != want[0] || lines[1] != want[1] {
		t.Errorf("got %+v, want %+v", lines, want)
	}
	for name, text := range map[string]string{"empty": "# nothing\n", "no slash": "api/x\n", "space": "/a b\n"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := readList(p); err == nil {
			t.Errorf("%s: accepted %q", name, text)
		}
	}
	if _, err := readList(filepath.Join(dir, "absent")); err == nil {
		t.Error("a missing file was accepted")
	}
}

func TestPercentile(t *testing.T) {
	var xs []time.Duration
	for i := 1; i <= 100; i++ {
		xs = append(xs, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := percentile(xs, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if percentile(nil, 99) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

// A run puts each answer in the class of its body size.
func TestRunSplitsAnswersBySize(t *testing.T) {
	big := strings.Repeat("x", 20<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			w.Write([]byte(big))
			return
		}
		w.Write([]byte(`{"teams":null}`))
	}))
	t.Cleanup(srv.Close)
	list := []line{{target: "/big"}}
	for range 9 {
		list = append(list, line{target: "/small"})
	}
	res, err := runLoad(context.Background(), load{addr: strings.TrimPrefix(srv.URL, "http://"), list: list,
		connections: 1, duration: 300 * time.Millisecond, timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.BySize) != len(sizeBounds) {
		t.Fatalf("%d size classes, want %d", len(res.BySize), len(sizeBounds))
	}
	small, large := res.BySize[0], res.BySize[2]
	if small.Below != 4<<10 || large.Below != 64<<10 {
		t.Errorf("class bounds %d and %d", small.Below, large.Below)
	}
	if large.Requests == 0 || small.Requests+large.Requests != res.Requests || res.BySize[1].Requests != 0 || res.BySize[3].Requests != 0 {
		t.Errorf("classes %+v do not split the %d requests by size", res.BySize, res.Requests)
	}
	if tail := small.Tail + large.Tail; tail != (res.Requests+99)/100 {
		t.Errorf("%d answers counted in the slowest 1%% of %d", tail, res.Requests)
	}
}

// The slowest 1% is counted in the classes its answers belong to, and each class has its
// own percentiles.
func TestBySize(t *testing.T) {
	var sized []sizedLatency
	for i := range 990 { // small answers of 1.000-1.989 ms
		sized = append(sized, sizedLatency{time.Millisecond + time.Duration(i)*time.Microsecond, 100})
	}
	for i := range 10 { // large ones of 5-14 ms: the slowest 1%
		sized = append(sized, sizedLatency{time.Duration(5+i) * time.Millisecond, 100 << 10})
	}
	got := bySize(sized, len(sized)-10)
	want := []sizeClass{
		{Below: 4 << 10, Requests: 990, P50: 1.494, P99: 1.98},
		{Below: 16 << 10},
		{Below: 64 << 10},
		{Below: 0, Requests: 10, P50: 9, P99: 14, Tail: 10},
	}
	if len(got) != len(want) {
		t.Fatalf("%d classes, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("class %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if bySize(nil, 0) != nil {
		t.Error("classes of no answers")
	}
}
