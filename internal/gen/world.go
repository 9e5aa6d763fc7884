package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// world is the skeleton of a dataset: sports, countries, leagues, teams and venues, small
// enough to keep in memory at every scale. Players, events and details are derived from it
// on demand, pass by pass.
type world struct {
	sc        scale
	g         *rng // world skeleton
	pg        *rng // players
	mg        *rng // matches
	lg        *rng // lineups
	ig        *rng // images repeated across kinds
	now       time.Time
	sports    []*sportDef
	countries []*countryDef
	leagues   []*league
	teams     []*team
	venues    []*venue
	nPlayers  int
}

type league struct {
	idx       int
	id        int
	name, alt string
	sport     *sportDef
	country   *countryDef
	division  int
	teams     []*team
	split     bool
	double    bool
	interval  int
	detailed  bool
	live      bool
	formed    int
	rounds    int   // per season
	perRound  int   // events per round
	eventBase []int // first event id of each season with events, by season (0 = current)
}

type team struct {
	idx        int
	id         int
	name       string
	short, alt string
	keywords   string
	city       string
	formed     int
	league     *league
	venue      *venue
	playerBase int
	nPlayers   int
	fixed      []fixedPlayer
}

type venue struct {
	id       int
	name     string
	city     string
	country  *countryDef
	sport    *sportDef
	capacity int
}

// individualEvents is how many events an individual-sport league holds in a season.
const individualEvents = 22

const (
	firstGeneratedLeague = 5000
	firstGeneratedTeam   = 140000
	firstGeneratedVenue  = 20000
	firstPlayer          = 34200000
	firstEvent           = 2000000
)

func newWorld(sc scale, seed int64, now time.Time) *world {
	w := &world{sc: sc, g: newRNG(seed), pg: newRNG(seed), mg: newRNG(seed), lg: newRNG(seed), ig: newRNG(seed), now: now.UTC().Truncate(time.Second)}
	w.sports = append(w.sports, sports...)
	for i := 0; i < sc.extraSports && i < len(extraSportNames); i++ {
		w.sports = append(w.sports, genericSport(111+i, extraSportNames[i]))
	}
	w.buildCountries()
	for _, fl := range fixedLeagues {
		w.addFixedLeague(fl)
	}
	w.addGeneratedLeagues()
	w.assignIDs()
	return w
}

func genericSport(id int, name string) *sportDef {
	return &sportDef{id: id, name: name, positions: []string{"Player"}, squad: 12, maxScore: 30, minutes: 120,
		periods: []string{"1H", "2H"}, kickoffs: []string{"14:00:00", "18:00:00"}, slug: strings.ToLower(strings.ReplaceAll(name, " ", "_"))}
}

func (w *world) sport(name string) *sportDef {
	for _, s := range w.sports {
		if s.name == name {
			return s
		}
	}
	panic("gen: no sport " + name)
}

func (w *world) country(name string) *countryDef {
	for _, c := range w.countries {
		if c.name == name {
			return c
		}
	}
	panic("gen: no country " + name)
}

// buildCountries lists the real countries first, then made-up ones up to the scale's count.
func (w *world) buildCountries() {
	for i := 0; i < len(countries) && i < w.sc.countries; i++ {
		w.countries = append(w.countries, &countries[i])
	}
	taken := map[string]bool{}
	for _, c := range w.countries {
		taken[c.name] = true
	}
	for i := len(w.countries); i < w.sc.countries; i++ {
		r := w.g.at(pWorld, i)
		name := placeName(r, 3)
		for taken[name] {
			name = placeName(r, 3)
		}
		taken[name] = true
		code := fmt.Sprintf("Z%d", i)
		cities := make([]string, 6)
		for j := range cities {
			cities[j] = placeName(r, 2+j%2)
		}
		w.countries = append(w.countries, &countryDef{code: code, name: name, nameFR: name, region: r.IntN(regionCount), offset: r.IntN(12) - 4, cities: cities})
	}
}

// placeName builds a pronounceable name from syllables, e.g. "Valorköten".
func placeName(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		s := pick(r, syllables)
		if i == 0 {
			// The first letter, not the first byte: a syllable may start with ö or š.
			first, size := utf8.DecodeRuneInString(s)
			s = string(unicode.ToUpper(first)) + s[size:]
		}
		b.WriteString(s)
	}
	return b.String()
}

func (w *world) addFixedLeague(fl fixedLeague) {
	l := &league{idx: len(w.leagues), id: fl.id, name: fl.name, alt: fl.alt, sport: w.sport(fl.sport), country: w.country(fl.country),
		division: fl.division, split: fl.split, double: fl.double, interval: fl.interval, detailed: true, live: true}
	l.formed = 1950 + w.g.at(pLeague, l.id).IntN(50)
	w.leagues = append(w.leagues, l)
	taken := map[string]bool{}
	for _, ft := range fl.known {
		t := w.addTeam(l, ft.name, ft.city)
		t.id, t.short, t.alt, t.keywords, t.formed, t.fixed = ft.id, ft.short, ft.alt, ft.kw, ft.formed, ft.players
		t.venue.id, t.venue.name = ft.venueID, ft.venue
		taken[ft.name] = true
	}
	w.fillTeams(l, fl.teams, taken)
}

func (w *world) addGeneratedLeagues() {
	perCS := map[string]int{}
	for i := range w.sc.extraLeagues {
		r := w.g.at(pLeague, firstGeneratedLeague+i)
		sp := w.pickSport(r)
		c := w.countries[r.IntN(len(w.countries))]
		key := c.name + "|" + sp.name
		div := perCS[key]
		perCS[key]++
		l := &league{idx: len(w.leagues), id: firstGeneratedLeague + i, sport: sp, country: c, division: div,
			split: sp.name == "Soccer" || sp.name == "Basketball" || sp.name == "Ice Hockey", interval: 7,
			detailed: i < w.sc.detailedLeagues, live: i < w.sc.liveLeagues, formed: 1900 + r.IntN(120)}
		l.name, l.alt = leagueName(c, sp, div)
		n := between(r, w.sc.minTeams, w.sc.maxTeams)
		if sp.individual {
			n, l.interval = 6+r.IntN(5), 7+7*r.IntN(2)
		}
		l.double = n <= w.sc.doubleUpTo
		w.leagues = append(w.leagues, l)
		w.fillTeams(l, n, map[string]bool{})
	}
}

var divisionNames = []string{"Premier League", "Championship", "League One", "League Two", "National League"}

func leagueName(c *countryDef, sp *sportDef, div int) (name, alt string) {
	word := sp.name
	if sp.name == "Soccer" {
		word = "Football"
	}
	tier := fmt.Sprintf("Regional League %d", div-len(divisionNames)+1)
	if div < len(divisionNames) {
		tier = divisionNames[div]
	}
	name = fmt.Sprintf("%s %s %s", c.name, word, tier)
	return name, fmt.Sprintf("%s %s, %s %s", c.code, tier, c.name, word)
}

// pickSport weighs sports roughly as the public service's leagues are spread.
func (w *world) pickSport(r *rand.Rand) *sportDef {
	x := r.IntN(100)
	switch {
	case x < 45:
		return soccer
	case x < 55:
		return w.sport("Basketball")
	case x < 61:
		return w.sport("Ice Hockey")
	case x < 65:
		return w.sport("Baseball")
	case x < 70:
		return w.sport("Rugby")
	case x < 73:
		return w.sport("American Football")
	case x < 76:
		return w.sport("Motorsport")
	case x < 78:
		return w.sport("Fighting")
	case x < 80:
		return w.sport("Golf")
	}
	if len(w.sports) > len(sports) {
		return w.sports[len(sports)+r.IntN(len(w.sports)-len(sports))]
	}
	return soccer
}
