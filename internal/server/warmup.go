package server

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/store"
)

// warmUpPaths are answered before /readyz says ready. A server's first few dozen answers each
// paid what later ones do not (the read connections opened and their statements prepared,
// the pages and structures they touch, the Go heap grown), and at half the peak rate
// the first requests after a start queued behind them: the first second's searches waited
// hundreds of milliseconds, then the same rate was answered at once. These touch the same
// paths: lookups, searches by name, lists and live scores, on both APIs.
var warmUpPaths = []string{
	"/api/v1/json/{key}/all_sports.php", "/api/v1/json/{key}/all_leagues.php",
	"/api/v1/json/{key}/all_countries.php", "/api/v1/json/{key}/searchteams.php?t=Arsenal",
	"/api/v1/json/{key}/searchplayers.php?p=Smith", "/api/v1/json/{key}/searchvenues.php?v=Stadium",
	"/api/v1/json/{key}/searchevents.php?e=Arsenal_vs_Chelsea", "/api/v1/json/{key}/lookupteam.php?id=133604",
	"/api/v1/json/{key}/lookupplayer.php?id=34145937", "/api/v1/json/{key}/lookupleague.php?id=4328",
	"/api/v1/json/{key}/eventsnextleague.php?id=4328", "/api/v1/json/{key}/lookuptable.php?l=4328&s=2025-2026",
	"/api/v2/json/search/team/Arsenal", "/api/v2/json/search/player/Smith", "/api/v2/json/lookup/team/133604",
	"/api/v2/json/list/teams/4328", "/api/v2/json/livescore/soccer",
}

// warmUpRounds: every worker answers each path this many times.
const (
	warmUpRounds     = 2
	maxWarmUpWorkers = 24
)

// warmUp answers warmUpPaths from several workers at once, as a premium key would, past the
// key check, the rate limit, the response cache (each answer is computed) and any upstream,
// once the store
// has warmed; warmedUp closes when it is done. Nothing of it reaches the metrics or the
// access log.
func (s *Server) warmUp(stop <-chan struct{}) {
	defer close(s.warmedUp)
	if w, ok := s.cfg.Store.(interface{ Warmed() <-chan struct{} }); ok {
		select {
		case <-w.Warmed():
		case <-stop:
			return
		}
	}
	start := time.Now()
	// Twice the read connections of a SQLite store; a large machine's pools need no more.
	workers := min(2*(runtime.GOMAXPROCS(0)+4), maxWarmUpWorkers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			for n := range warmUpRounds * len(warmUpPaths) {
				select {
				case <-stop:
					return
				default:
				}
				s.warmOne(warmUpPaths[(i+n)%len(warmUpPaths)])
			}
		})
	}
	wg.Wait()
	s.cfg.Logger.Info("warmed up", "answers", workers*warmUpRounds*len(warmUpPaths), "took", time.Since(start).Round(time.Millisecond))
}

// warmOne answers one path and throws the answer away.
func (s *Server) warmOne(path string) {
	path = strings.ReplaceAll(path, "{key}", "warm-up")
	t, ok := s.match(path)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(respond.NewContext(context.Background(), t.Route, s.cfg.Logger), s.cfg.RequestTimeout)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://sportsdb.invalid"+path, nil)
	if err != nil {
		return
	}
	// From the store alone: a warm-up never reads through to an upstream.
	t.mount.Serve(discard{header: http.Header{}}, r, t.Target, store.Premium)
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}

// WarmedUp is closed once the warm-up has ended (at once without Config.WarmUp): /readyz
// says ready from then on.
func (s *Server) WarmedUp() <-chan struct{} { return s.warmedUp }
