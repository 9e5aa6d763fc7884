package server

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// warmUpPaths are answered before /readyz says ready. A server's first few dozen answers each
// paid what later ones do not (the read connections opened and their statements prepared,
// the pages and structures they touch, the Go heap grown), and at half the peak rate
// the first requests after a start queued behind them: the first second's searches waited
// hundreds of milliseconds, then the same rate was answered at once. These touch the same
// paths: lookups, searches by name, lists and live scores, on both APIs. The braces name
// values of the store's own records (warmUpValues), so every dataset warms as the demo does.
var warmUpPaths = []string{
	"/api/v1/json/{key}/all_sports.php", "/api/v1/json/{key}/all_leagues.php",
	"/api/v1/json/{key}/all_countries.php", "/api/v1/json/{key}/searchteams.php?t={team}",
	"/api/v1/json/{key}/searchplayers.php?p={player}", "/api/v1/json/{key}/searchvenues.php?v={venue}",
	"/api/v1/json/{key}/searchevents.php?e={event}", "/api/v1/json/{key}/lookupteam.php?id={idTeam}",
	"/api/v1/json/{key}/lookupplayer.php?id={idPlayer}", "/api/v1/json/{key}/lookupleague.php?id={idLeague}",
	"/api/v1/json/{key}/eventsnextleague.php?id={idLeague}", "/api/v1/json/{key}/lookuptable.php?l={idLeague}&s={season}",
	"/api/v2/json/search/team/{/team}", "/api/v2/json/search/player/{/player}", "/api/v2/json/lookup/team/{idTeam}",
	"/api/v2/json/list/teams/{idLeague}", "/api/v2/json/livescore/{/sport}",
}

// warmUpDefaults are the demo's values, used for a kind the store holds none of.
var warmUpDefaults = map[string]string{
	"team": "Arsenal", "idTeam": "133604", "player": "Smith", "idPlayer": "34145937", "venue": "Stadium",
	"event": "Arsenal vs Chelsea", "idLeague": "4328", "season": "2025-2026", "sport": "Soccer",
}

// warmUpValues reads the values the warm-up's paths name from the first record of each kind
// the store holds: a team, player, venue, event and league, the league's season and sport.
func warmUpValues(ctx context.Context, st store.Store) map[string]string {
	v := maps.Clone(warmUpDefaults)
	first := func(k *record.Kind, fields map[string]string) {
		recs, err := st.Find(ctx, store.Query{Kind: k, Limit: 1})
		if err != nil || len(recs) == 0 {
			return
		}
		for name, field := range fields {
			if s := recs[0].Str(field); s != "" {
				v[name] = s
			}
		}
	}
	first(record.Team, map[string]string{"team": "strTeam", "idTeam": "idTeam"})
	first(record.Player, map[string]string{"player": "strPlayer", "idPlayer": "idPlayer"})
	first(record.Venue, map[string]string{"venue": "strVenue"})
	first(record.Event, map[string]string{"event": "strEvent"})
	first(record.League, map[string]string{"idLeague": "idLeague", "season": "strCurrentSeason", "sport": "strSport"})
	return v
}

// fillWarmUpPath puts values in a path's braces: {name} in a query, {/name} as a path
// segment, each escaped for its place.
func fillWarmUpPath(path string, v map[string]string) string {
	for name, val := range v {
		path = strings.ReplaceAll(path, "{"+name+"}", url.QueryEscape(val))
		path = strings.ReplaceAll(path, "{/"+name+"}", url.PathEscape(val))
	}
	return path
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
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.RequestTimeout)
	values := warmUpValues(ctx, s.cfg.Store)
	cancel()
	paths := make([]string, len(warmUpPaths))
	for i, p := range warmUpPaths {
		paths[i] = fillWarmUpPath(p, values)
	}
	// Twice the read connections of a SQLite store; a large machine's pools need no more.
	workers := min(2*(runtime.GOMAXPROCS(0)+4), maxWarmUpWorkers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			for n := range warmUpRounds * len(paths) {
				select {
				case <-stop:
					return
				default:
				}
				s.warmOne(paths[(i+n)%len(paths)])
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
	if !ok || t.writes {
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
