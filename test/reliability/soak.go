package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// loadStats counts what a load sent and what went wrong.
type loadStats struct {
	sent   atomic.Int64
	mu     sync.Mutex
	errors map[string]int // transport error kinds and "status NNN" for 5xx
	sample []string       // the first few failures, for the report
}

func newLoadStats() *loadStats { return &loadStats{errors: map[string]int{}} }

func (s *loadStats) failed(kind, detail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors[kind]++
	if len(s.sample) < 5 {
		s.sample = append(s.sample, kind+": "+clipText(detail, 200))
	}
}

func (s *loadStats) failures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.errors {
		n += v
	}
	return n
}

// load sends GETs from workers until ctx ends; a 5xx or a transport error is a failure.
func load(ctx context.Context, base string, urls []string, workers int, st *loadStats) {
	hc := newClient(10 * time.Second)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; ctx.Err() == nil; i++ {
				u := base + urls[i%len(urls)]
				a, err := get(ctx, hc, u, "")
				if ctx.Err() != nil {
					return
				}
				st.sent.Add(1)
				switch {
				case err != nil:
					st.failed(errKind(err), err.Error())
				case a.status >= 500:
					st.failed(fmt.Sprintf("status %d", a.status), string(a.body))
				}
			}
		}(w)
	}
	wg.Wait()
}

// soakURLs are lookups and searches over the generated data, so that every import (which
// empties the response cache) sends requests to the database again.
func soakURLs(key string) []string {
	v1 := "/api/v1/json/" + key + "/"
	return []string{
		v1 + "searchteams.php?t=Arsenal", v1 + "lookupleague.php?id=4328", v1 + "all_sports.php",
		v1 + "search_all_teams.php?l=English%20Premier%20League", v1 + "lookupteam.php?id=133604",
		v1 + "searchplayers.php?p=a", v1 + "eventspastleague.php?id=4328", v1 + "eventsnextleague.php?id=4328",
		v1 + "all_leagues.php", v1 + "searchevents.php?e=Arsenal", v1 + "lookuptable.php?l=4328",
		v1 + "searchteams.php?t=RelSoak",
	}
}

// checkSoak puts load on a server while another process imports a record every 0.2 s:
// no request may fail, and the server's memory is measured at the start and the end.
func checkSoak(ctx context.Context, cfg *config, t *T) {
	// Sixteen workers keep both cores busy: with fewer, the requests that meet an import's
	// commit are too rare to see in a short run.
	dur, workers := 30*time.Second, 16
	if !cfg.short {
		dur = 5 * time.Minute
	}
	if cfg.soak > 0 {
		dur = cfg.soak
	}
	if cfg.workers > 0 {
		workers = cfg.workers
	}
	db := filepath.Join(cfg.work, "soak.db")
	if _, err := mustCLI(ctx, cfg, "gen", "--scale", "small", "--db", db); err != nil {
		t.Fail("%v", err)
		return
	}
	key, err := addKey(ctx, cfg, db, "business")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	srv, err := startServer(ctx, cfg, "soak", "--db", db, "--limits", "business:1000000000")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	st := newLoadStats()
	lctx, stop := context.WithTimeout(ctx, dur)
	defer stop()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); load(lctx, srv.base, soakURLs(key), workers, st) }()
	time.Sleep(2 * time.Second) // the start of the load, before the first RSS sample
	rss0, _ := rssKiB(srv.pid())
	im := importBeside(lctx, cfg, db, srv.pid())
	wg.Wait()
	rss1, _ := rssKiB(srv.pid())
	t.Figure("duration, workers", "%s, %d", dur, workers)
	t.Figure("requests", "%d", st.sent.Load())
	t.Figure("failed requests (bar 0)", "%d %v", st.failures(), st.errors)
	t.Figure("imports beside load (failed)", "%d (%d)", im.runs, im.failed)
	t.Figure("server RSS start / end / peak", "%d / %d / %d KiB", rss0, rss1, max(im.peakRSS, rss0, rss1))
	t.Figure("server RSS drift", "%+d KiB", rss1-rss0)
	if n := st.failures(); n > 0 {
		t.Fail("%d of %d requests failed while imports ran: %v", n, st.sent.Load(), st.sample)
	}
	if im.failed > im.runs/5 {
		t.Fail("%d of %d imports beside the load failed (first: %s)", im.failed, im.runs, im.first)
	}
	if srv.exited() {
		t.Fail("the server exited during the soak: %v", srv.err)
	}
	if p := countPanics(srv.log.String()); p > 0 {
		t.Fail("the server's log holds %d panic lines", p)
	}
}

// imports is what the importing process did during a soak.
type imports struct {
	runs, failed int
	first        string // the first failure
	peakRSS      int    // the server's, sampled after each import
}

// importBeside imports one changed record at every tick of 0.2 s until ctx ends (an import
// still running when the tick comes makes the next one wait): a new process opens the
// database five times a second, and each import empties the server's response cache.
func importBeside(ctx context.Context, cfg *config, db string, serverPID int) imports {
	var im imports
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	f := filepath.Join(cfg.work, "soak-import.ndjson")
	for i := 0; ctx.Err() == nil; i++ {
		_ = os.WriteFile(f, []byte(team("30000001", fmt.Sprintf("RelSoak %d", i))+"\n"), 0o644)
		// Not ctx: an import that has started is let finish, as an operator's would.
		res, err := sportsdb(context.WithoutCancel(ctx), cfg, "import", "--db", db, f)
		im.runs++
		if err != nil || res.code != 0 {
			im.failed++
			if im.first == "" {
				im.first = fmt.Sprintf("%v %s", err, clipText(res.stderr, 200))
			}
		}
		if r, err := rssKiB(serverPID); err == nil {
			im.peakRSS = max(im.peakRSS, r)
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	return im
}
