package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// pools are ids and names read from a running server, for request lists that ask about what
// the dataset really holds.
type pools struct {
	sports, countries, dates []string
	leagues                  []leagueInfo
	teams, players, venues   []named
	channels                 []named
	events                   []eventInfo
	derived                  map[string][]string // see memo
}

type named struct{ id, name string }

type leagueInfo struct {
	id, name, sport, country, season string
}

type eventInfo struct {
	id, name, filename, date, season, league, round string
}

// discoverer reads the dataset through the v1 API with one premium key.
type discoverer struct {
	base, key string
	client    *http.Client
	rng       *rand.Rand
	requests  int
}

func (d *discoverer) v1(ctx context.Context, file string, q url.Values) ([]map[string]any, error) {
	target := d.base + "/api/v1/json/" + url.PathEscape(d.key) + "/" + file
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", file, err)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", file, err)
	}
	defer resp.Body.Close()
	d.requests++
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", file, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("discover %s?%s: HTTP %d: %.200s", file, q.Encode(), resp.StatusCode, body)
	}
	if len(body) == 0 {
		return nil, nil
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("discover %s: %w", file, err)
	}
	for _, raw := range doc { // one record key per answer
		var recs []map[string]any
		if json.Unmarshal(raw, &recs) == nil {
			return recs, nil
		}
	}
	return nil, nil // null, or a string the service answers to rejected parameters
}

func str(rec map[string]any, field string) string {
	switch v := rec[field].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(int64(v))
	}
	return ""
}

// sample returns up to n records of recs in a random order.
func sample[T any](rng *rand.Rand, recs []T, n int) []T {
	out := append([]T(nil), recs...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(n, len(out))]
}

// discover walks leagues, their teams, squads, seasons of events and TV listings. leagues
// bounds how many leagues are visited, and squads how many teams' players are read in each,
// so a full-scale dataset costs the same few hundred requests as a small one. With workers
// above 1, that many leagues are walked at a time, each with a random source of its own
// drawn in turn, so the pools are the same whatever the order the answers come in.
func discover(ctx context.Context, d *discoverer, leagues, squads, workers int) (*pools, error) {
	p := &pools{}
	sports, err := d.v1(ctx, "all_sports.php", nil)
	if err != nil {
		return nil, err
	}
	for _, s := range sports {
		p.sports = appendNonEmpty(p.sports, str(s, "strSport"))
	}
	countries, err := d.v1(ctx, "all_countries.php", nil)
	if err != nil {
		return nil, err
	}
	for _, c := range countries {
		p.countries = appendNonEmpty(p.countries, str(c, "name_en"))
	}
	all, err := d.v1(ctx, "all_leagues.php", nil)
	if err != nil {
		return nil, err
	}
	picked := sample(d.rng, all, leagues)
	if workers <= 1 {
		for _, l := range picked {
			if err := discoverLeague(ctx, d, p, str(l, "idLeague"), squads); err != nil {
				return nil, err
			}
		}
	} else if err := discoverLeagues(ctx, d, p, picked, squads, workers); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range p.events {
		if e.date != "" && !seen[e.date] {
			seen[e.date] = true
			p.dates = append(p.dates, e.date)
		}
	}
	if len(p.leagues) == 0 || len(p.teams) == 0 || len(p.players) == 0 || len(p.events) == 0 {
		return nil, fmt.Errorf("discover: the dataset at %s has too little to build lists from (%d leagues, %d teams, %d players, %d events)",
			d.base, len(p.leagues), len(p.teams), len(p.players), len(p.events))
	}
	return p, nil
}

// discoverLeagues walks leagues workers at a time and adds what each found to p in the
// leagues' order.
func discoverLeagues(ctx context.Context, d *discoverer, p *pools, leagues []map[string]any, squads, workers int) error {
	found := make([]*pools, len(leagues))
	walkers := make([]*discoverer, len(leagues))
	for i := range leagues {
		seed := d.rng.Uint64()
		walkers[i] = &discoverer{base: d.base, key: d.key, client: d.client, rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
		found[i] = &pools{}
	}
	jobs := make(chan int)
	errs := make([]error, len(leagues))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				errs[i] = discoverLeague(ctx, walkers[i], found[i], str(leagues[i], "idLeague"), squads)
			}
		}()
	}
	for i := range leagues {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, f := range found {
		if errs[i] != nil {
			return errs[i]
		}
		d.requests += walkers[i].requests
		p.countries = append(p.countries, f.countries...)
		p.leagues = append(p.leagues, f.leagues...)
		p.teams = append(p.teams, f.teams...)
		p.players = append(p.players, f.players...)
		p.venues = append(p.venues, f.venues...)
		p.channels = append(p.channels, f.channels...)
		p.events = append(p.events, f.events...)
	}
	return nil
}

func discoverLeague(ctx context.Context, d *discoverer, p *pools, id string, squads int) error {
	recs, err := d.v1(ctx, "lookupleague.php", url.Values{"id": {id}})
	if err != nil || len(recs) == 0 {
		return err
	}
	l := leagueInfo{id: id, name: str(recs[0], "strLeague"), sport: str(recs[0], "strSport"),
		country: str(recs[0], "strCountry"), season: str(recs[0], "strCurrentSeason")}
	p.leagues = append(p.leagues, l)
	teams, err := d.v1(ctx, "search_all_teams.php", url.Values{"l": {l.name}})
	if err != nil {
		return err
	}
	for _, t := range teams {
		p.teams = append(p.teams, named{str(t, "idTeam"), str(t, "strTeam")})
		if v := str(t, "idVenue"); v != "" && v != "0" {
			p.venues = append(p.venues, named{v, str(t, "strStadium")})
		}
	}
	for _, t := range sample(d.rng, teams, squads) {
		squad, err := d.v1(ctx, "lookup_all_players.php", url.Values{"id": {str(t, "idTeam")}})
		if err != nil {
			return err
		}
		for _, pl := range squad {
			p.players = append(p.players, named{str(pl, "idPlayer"), str(pl, "strPlayer")})
		}
	}
	season, err := d.v1(ctx, "eventsseason.php", url.Values{"id": {id}, "s": {l.season}})
	if err != nil {
		return err
	}
	past, err := d.v1(ctx, "eventspastleague.php", url.Values{"id": {id}})
	if err != nil {
		return err
	}
	// Recent past events are the ones with lineups, timelines and statistics.
	events := append(sample(d.rng, season, 30), past...)
	for _, e := range events {
		p.events = append(p.events, eventInfo{id: str(e, "idEvent"), name: str(e, "strEvent"), filename: str(e, "strFilename"),
			date: str(e, "dateEvent"), season: str(e, "strSeason"), league: id, round: str(e, "intRound")})
	}
	for _, e := range sample(d.rng, past, 3) {
		tv, err := d.v1(ctx, "lookuptv.php", url.Values{"id": {str(e, "idEvent")}})
		if err != nil {
			return err
		}
		for _, t := range tv {
			p.channels = append(p.channels, named{str(t, "idChannel"), str(t, "strChannel")})
			p.countries = appendNonEmpty(p.countries, str(t, "strCountry"))
		}
	}
	return nil
}

func appendNonEmpty(list []string, s string) []string {
	if strings.TrimSpace(s) == "" {
		return list
	}
	return append(list, s)
}

func newDiscoverer(base, key string, seed uint64) *discoverer {
	return &discoverer{base: strings.TrimRight(base, "/"), key: key, client: &http.Client{Timeout: 60 * time.Second},
		rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}
