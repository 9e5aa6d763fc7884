package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

func (w *world) addTeam(l *league, name, city string) *team {
	t := &team{idx: len(w.teams), name: name, city: city, league: l}
	r := w.g.at(pTeam, l.id*128+len(l.teams))
	t.formed = 1870 + r.IntN(140)
	t.short = shortName(name)
	v := &venue{name: venueName(r, l.sport, l.country, city), city: city, country: l.country, sport: l.sport, capacity: 1000 * between(r, 3, 80)}
	t.venue = v
	w.venues = append(w.venues, v)
	w.teams = append(w.teams, t)
	l.teams = append(l.teams, t)
	return t
}

// fillTeams adds generated teams up to n, with names unique in the league. Each takes a city
// no other team of the league has while there are some, so names stay easy to tell apart.
func (w *world) fillTeams(l *league, n int, taken map[string]bool) {
	used := map[string]bool{}
	for _, t := range l.teams {
		used[t.city] = true
	}
	var free []string
	for _, c := range l.country.cities {
		if !used[c] {
			free = append(free, c)
		}
	}
	w.g.at(pTeam, l.id*128+63).Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for i := len(l.teams); i < n; i++ {
		r := w.g.at(pTeam, l.id*128+i+64)
		var name, city string
		for try := 0; ; try++ {
			switch {
			case try == 0 && len(free) > 0:
				city, free = free[0], free[1:]
			case try < 3:
				city = pick(r, l.country.cities)
			default:
				city = placeName(r, 2+r.IntN(2))
			}
			name = teamName(r, l.sport, l.country, city)
			if !taken[name] {
				break
			}
		}
		taken[name] = true
		t := w.addTeam(l, name, city)
		t.alt = strings.TrimSpace(city + " " + l.sport.slugShort())
	}
}

func (s *sportDef) slugShort() string {
	if s.name == "Soccer" {
		return "FC"
	}
	return s.name
}

func teamName(r *rand.Rand, sp *sportDef, c *countryDef, city string) string {
	switch sp.name {
	case "Motorsport":
		return city + " Racing"
	case "Fighting":
		return city + " Fight Club"
	case "Golf":
		return city + " Golf Club"
	}
	if c.region == regionEnglish && sp.name != "Soccer" {
		return city + " " + pick(r, nicknames)
	}
	return pick(r, teamPrefixes[c.region]) + city + pick(r, teamSuffixes[c.region])
}

func venueName(r *rand.Rand, sp *sportDef, c *countryDef, city string) string {
	switch sp.name {
	case "Motorsport":
		return "Circuit de " + city
	case "Golf":
		return city + " Golf Links"
	case "Fighting":
		return city + " Events Center"
	case "Basketball", "Ice Hockey", "Handball", "Volleyball":
		return city + " Arena"
	}
	switch c.region {
	case regionSpanish, regionPortuguese:
		return "Estadio " + city
	case regionGerman, regionSlavic, regionNordic, regionBaltic:
		return "Stadion " + city
	case regionFrench:
		return "Stade de " + city
	case regionItalian:
		return "Stadio " + city
	}
	return pick(r, []string{city + " Stadium", city + " Park", city + " Ground"})
}

func shortName(name string) string {
	var b []rune
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' {
			b = append(b, r)
		}
		if len(b) == 3 {
			break
		}
	}
	return string(b)
}

// assignIDs numbers the generated teams, venues, players and events, in world order.
func (w *world) assignIDs() {
	player := firstPlayer
	for i, t := range w.teams {
		if t.id == 0 {
			t.id = firstGeneratedTeam + i
		}
		if t.venue.id == 0 {
			t.venue.id = firstGeneratedVenue + i
		}
		t.nPlayers = w.sc.thinSquad
		if t.league.detailed || t.league.sport.individual {
			t.nPlayers = t.league.sport.squad
		}
		t.playerBase = player
		player += t.nPlayers
	}
	w.nPlayers = player - firstPlayer
	event := firstEvent
	for _, l := range w.leagues {
		l.rounds, l.perRound = individualEvents, 1
		if !l.sport.individual {
			m := len(l.teams) + len(l.teams)%2
			l.rounds, l.perRound = m-1, len(l.teams)/2
			if l.double {
				l.rounds *= 2
			}
		}
		l.eventBase = make([]int, w.sc.eventSeasons)
		// Older seasons first, so ids grow with time as they do on the public service.
		for s := len(l.eventBase) - 1; s >= 0; s-- {
			l.eventBase[s] = event
			event += l.rounds * l.perRound
		}
	}
}

// player is one squad member, derived from its team and squad slot.
type player struct {
	id          int
	team        *team
	slot        int
	first, last string
	position    string
	number      int
	nationality string
	born        time.Time
	region      int
}

func (p player) name() string { return p.first + " " + p.last }

func (w *world) player(t *team, slot int) player {
	p := player{id: t.playerBase + slot, team: t, slot: slot, number: slot + 1, nationality: t.league.country.name, region: t.league.country.region}
	r := w.pg.at(pPlayer, p.id)
	if r.IntN(5) == 0 {
		c := w.countries[r.IntN(len(w.countries))]
		p.nationality, p.region = c.name, c.region
	}
	p.first = pick(r, firstNames[p.region])
	p.last = pick(r, lastNames[p.region])
	pos := t.league.sport.positions
	p.position = pos[slot%len(pos)]
	p.born = day(w.now).AddDate(-between(r, 18, 36), 0, -r.IntN(365))
	for _, fp := range t.fixed {
		if fp.slot == slot {
			p.id, p.first, p.last, p.nationality = fp.id, fp.first, fp.last, fp.nationality
		}
	}
	return p
}

// seasonName is the label of the season s seasons before the current one.
func (w *world) seasonName(l *league, s int) string {
	y := w.now.Year()
	if l.split {
		if w.now.Month() < time.July {
			y--
		}
		return fmt.Sprintf("%d-%d", y-s, y-s+1)
	}
	return fmt.Sprint(y - s)
}
