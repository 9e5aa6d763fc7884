package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/nameindex"
	"sportsdb/internal/store/storetest"
)

// BenchmarkUncachedSearch measures the name searches of bench/run.sh's search list (v1 and
// v2, whole names and first words, premium keys) answered straight from the store, as every
// request of a list too large for the response cache is: query, decoding, JSON. It runs on
// the database named by SPORTSDB_SEARCH_DB (built by this command: a SQLite file or a
// PostgreSQL URL) and reports the CPU time
// of an answer (of this process's thread: on PostgreSQL most of it is the server's), and its
// wall time, in total and per endpoint; SPORTSDB_SEARCH_ONLY names one endpoint to run
// alone (v1-players-partial, v2-team, ...). The store is the server's: its name searches
// answered by the in-memory name index (internal/store/nameindex), built before the clock
// starts (its size and build time reported); SPORTSDB_SEARCH_INDEX=off measures the
// database alone.
func BenchmarkUncachedSearch(b *testing.B) {
	path := os.Getenv("SPORTSDB_SEARCH_DB")
	if path == "" {
		b.Skip("SPORTSDB_SEARCH_DB names no database")
	}
	s, err := backend.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var st store.Store = s
	if os.Getenv("SPORTSDB_SEARCH_INDEX") != "off" {
		ix, ok := nameindex.Wrap(s, nameindex.Options{}).(*nameindex.Store)
		if !ok {
			b.Fatalf("%T cannot feed a name index", s)
		}
		heap := func() uint64 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		before := heap()
		start, startWall := storetest.ThreadCPU(), time.Now()
		size, err := ix.Build(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		cpu, wall := storetest.ThreadCPU()-start, time.Since(startWall)
		held := heap() - before
		defer func() {
			// After the loop: b.Loop clears what was reported before it.
			b.ReportMetric(float64(size)/(1<<20), "index-MB")
			b.ReportMetric(float64(held)/(1<<20), "index-heap-MB")
			b.ReportMetric(cpu.Seconds(), "index-build-cpu-s")
			b.ReportMetric(wall.Seconds(), "index-build-s")
			b.ReportMetric(float64(ix.Answered.Load()), "index-answered")
			b.ReportMetric(float64(ix.Delegated.Load()), "index-delegated")
		}()
		st = ix
	}
	benchSearch(b, st)
}

// searchAPI answers one request of either version, as the server's router would.
type searchAPI interface {
	Match(version string, segs []string) (api.Target, bool)
	Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier)
}

type searchReq struct {
	endpoint string
	api      searchAPI
	target   api.Target
	req      *http.Request
}

func benchSearch(b *testing.B, s store.Records) {
	deps := api.Deps{Store: s, Clock: clock.Fixed(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)), Caps: caps.New()}
	reqs := searchRequests(b, s, v1.New(deps), v2.New(deps))
	took, wall := map[string][]time.Duration{}, map[string][]time.Duration{}
	var all, allWall []time.Duration
	failed := map[string]int{}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := reqs[i%len(reqs)]
		i++
		start, startWall := storetest.ThreadCPU(), time.Now()
		w := httptest.NewRecorder()
		r.api.Serve(w, r.req, r.target, store.Premium)
		d, dw := storetest.ThreadCPU()-start, time.Since(startWall)
		if w.Code != http.StatusOK {
			// Counted, not fatal: a search past the store's read deadline is a finding.
			failed[r.endpoint]++
		}
		took[r.endpoint] = append(took[r.endpoint], d)
		wall[r.endpoint] = append(wall[r.endpoint], dw)
		all, allWall = append(all, d), append(allWall, dw)
	}
	report(b, "all", all)
	report(b, "all-wall", allWall)
	for name, t := range took {
		report(b, name, t)
		report(b, name+"-wall", wall[name])
		if failed[name] > 0 {
			b.ReportMetric(float64(failed[name]), name+"-failed")
		}
	}
}

// report adds the mean and the 99th percentile of an endpoint's CPU time per answer.
func report(b *testing.B, name string, took []time.Duration) {
	slices.Sort(took)
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	b.ReportMetric(float64(sum.Microseconds())/float64(len(took))/1000, name+"-mean-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, name+"-p99-ms")
}

// searchRequests are bench/loadgen's search endpoints in turn, with names of stored records
// spread over each table: whole names, and the first word for the partial ones.
func searchRequests(b *testing.B, s store.Records, a1, a2 searchAPI) []searchReq {
	b.Helper()
	names := map[*record.Kind][]string{}
	for k, f := range map[*record.Kind]string{record.Team: "strTeam", record.Player: "strPlayer",
		record.Venue: "strVenue", record.League: "strLeague", record.Event: "strEvent"} {
		n := 0
		err := s.Scan(context.Background(), k, func(r record.Record) error {
			if n++; n%389 == 7 && r.Str(f) != "" {
				names[k] = append(names[k], r.Str(f))
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	first := func(s string) string { w, _, _ := strings.Cut(s, " "); return w }
	whole := func(s string) string { return s }
	ends := []struct {
		name   string
		kind   *record.Kind
		v2     bool
		path   string // v1: file?param=; v2: path before the name
		needle func(string) string
	}{
		{"v1-teams", record.Team, false, "searchteams.php?t=", whole},
		{"v1-players", record.Player, false, "searchplayers.php?p=", whole},
		{"v1-players-partial", record.Player, false, "searchplayers.php?p=", first},
		{"v1-events", record.Event, false, "searchevents.php?e=", whole},
		{"v1-venues", record.Venue, false, "searchvenues.php?v=", whole},
		{"v2-team", record.Team, true, "search/team/", whole},
		{"v2-team-partial", record.Team, true, "search/team/", first},
		{"v2-player", record.Player, true, "search/player/", whole},
		{"v2-event", record.Event, true, "search/event/", whole},
		{"v2-venue", record.Venue, true, "search/venue/", whole},
		{"v2-league", record.League, true, "search/league/", whole},
		{"v2-league-partial", record.League, true, "search/league/", first},
	}
	only := os.Getenv("SPORTSDB_SEARCH_ONLY")
	var out []searchReq
	for i := range 400 {
		for _, e := range ends {
			if only != "" && e.name != only {
				continue
			}
			ns := names[e.kind]
			needle := e.needle(ns[(i*31)%len(ns)])
			var r searchReq
			if e.v2 {
				p := "/api/v2/json/" + e.path + url.PathEscape(needle)
				segs := strings.Split(strings.TrimPrefix(p, "/api/v2/json/"), "/")
				r = searchReq{endpoint: e.name, api: a2, req: httptest.NewRequest(http.MethodGet, p, nil)}
				r.target, _ = a2.Match("v2", segs)
			} else {
				file, param, _ := strings.Cut(e.path, "?")
				p := "/api/v1/json/k/" + file + "?" + param + url.QueryEscape(needle)
				r = searchReq{endpoint: e.name, api: a1, req: httptest.NewRequest(http.MethodGet, p, nil)}
				r.target, _ = a1.Match("v1", []string{"k", file})
			}
			if !r.target.Known() {
				b.Fatalf("%s: no such endpoint", r.req.URL)
			}
			out = append(out, r)
		}
	}
	return out
}
