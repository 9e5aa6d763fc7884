package gen

import (
	"fmt"
	"math/rand/v2"
	"time"
)

type matchState int

const (
	notStarted matchState = iota
	inPlay
	finished
	postponed
)

// match is one event as the schedule derives it: who plays, when, and how it stands at Now.
type match struct {
	id      int
	l       *league
	season  int // 0 is the current season, 1 the one before, ...
	round   int // 0-based
	home    *team
	away    *team
	name    string // individual sports
	kickoff time.Time
	state   matchState
	elapsed int // minutes since kick-off, in play only
	hs, as  int // scores at Now; meaningful in play and finished
	// Goal minutes of each side for sports with timelines; at most maxGoals per side.
	goals [2][maxGoals]uint8
	ng    [2]int
}

const maxGoals = 8

// current is the round in progress at Now.
func (l *league) current() int { return l.rounds / 2 }

// roundDay is the first day of a round. The current round starts two days before Now, so
// every team has played before Now and plays again after it; earlier seasons are the same
// calendar moved back 52 weeks at a time, which keeps weekdays.
func (w *world) roundDay(l *league, s, r int) time.Time {
	return day(w.now).AddDate(0, 0, -2+(r-l.current())*l.interval-364*s)
}

// eachMatch calls fn for every event of a league's season, in id order.
func (w *world) eachMatch(l *league, s int, fn func(*match) error) error {
	return w.eachMatchIn(l, s, 0, l.rounds-1, fn)
}

// eachMatchIn calls fn for the events of rounds from..to (clamped), in id order. fn must not
// keep the match: it is reused.
func (w *world) eachMatchIn(l *league, s, from, to int, fn func(*match) error) error {
	var order []*team
	if !l.sport.individual {
		order = w.seasonOrder(l, s)
	}
	m := &match{}
	for r := max(0, from); r <= min(to, l.rounds-1); r++ {
		for i := range l.perRound {
			w.buildMatch(m, l, s, r, i, order)
			if err := fn(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// seasonOrder shuffles the league's teams for one season so fixtures differ season to season.
func (w *world) seasonOrder(l *league, s int) []*team {
	order := append([]*team(nil), l.teams...)
	r := w.mg.at(pSchedule, l.id*64+s)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// pairing returns the i-th pairing of round r by the circle method; a team paired with the
// bye slot (odd team counts) sits the round out, so pairings skip it.
func pairing(n, r, i int) (home, away int) {
	m := n + n%2
	per := m - 1
	rr, cycle := r%per, r/per
	k := 0
	for j := range m / 2 {
		a, b := (rr+j)%per, (per-j+rr)%per
		if j == 0 {
			b = per
		}
		if a >= n || b >= n {
			continue
		}
		if k == i {
			// Swapping every other round makes each team alternate home and away games;
			// the second cycle plays every pairing again the other way round.
			if (rr%2 == 1) != (cycle%2 == 1) {
				a, b = b, a
			}
			return a, b
		}
		k++
	}
	panic(fmt.Sprintf("gen: pairing %d of round %d for %d teams", i, r, n))
}

func (w *world) buildMatch(m *match, l *league, s, r, i int, order []*team) {
	*m = match{id: l.eventBase[s] + r*l.perRound + i, l: l, season: s, round: r}
	sp := l.sport
	rg := w.mg.at(pEvent, m.id)
	kick := sp.kickoffs[(i/4+r)%len(sp.kickoffs)]
	hh, mm := int(kick[0]-'0')*10+int(kick[1]-'0'), int(kick[3]-'0')*10+int(kick[4]-'0')
	offset := 0
	if l.interval >= 4 {
		offset = i % 4
	}
	m.kickoff = w.roundDay(l, s, r).AddDate(0, 0, offset).Add(time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute)
	if sp.individual {
		m.name = w.individualName(l, r)
	} else {
		h, a := pairing(len(order), r, i)
		m.home, m.away = order[h], order[a]
		if l.live && s == 0 && r == l.current() && i < 2 {
			// Games in progress at Now, so live scores always have something to show.
			m.kickoff = w.now.Truncate(5 * time.Minute).Add(-time.Duration(sp.minutes*(3+3*i)/10) * time.Minute).Truncate(5 * time.Minute)
		}
	}
	switch {
	case rg.IntN(150) == 0 && !(s == 0 && r == l.current()):
		m.state = postponed
	case m.kickoff.After(w.now):
		m.state = notStarted
	case w.now.Before(m.kickoff.Add(time.Duration(sp.minutes) * time.Minute)):
		m.state, m.elapsed = inPlay, int(w.now.Sub(m.kickoff)/time.Minute)
	default:
		m.state = finished
	}
	if sp.individual || m.state == notStarted || m.state == postponed {
		return
	}
	w.drawScore(m, rg)
}

// drawScore draws the final score and, in play, how much of it stands at Now.
func (w *world) drawScore(m *match, rg *rand.Rand) {
	sp := m.l.sport
	if !sp.timeline {
		hs, as := between(rg, sp.minScore, sp.maxScore), between(rg, sp.minScore, sp.maxScore)
		if m.state == inPlay {
			hs, as = hs*m.elapsed/sp.minutes, as*m.elapsed/sp.minutes
		}
		m.hs, m.as = hs, as
		return
	}
	full := sp.playMinutes()
	for side := range 2 {
		n := rg.IntN(sp.maxScore+1) * rg.IntN(sp.maxScore+1) / sp.maxScore // mostly low scores
		for range n {
			m.goals[side][m.ng[side]] = uint8(1 + rg.IntN(full))
			m.ng[side]++
		}
		sortGoals(m.goals[side][:m.ng[side]])
	}
	m.hs, m.as = m.goalsBy(0, m.minute()), m.goalsBy(1, m.minute())
}

func sortGoals(g []uint8) {
	for i := 1; i < len(g); i++ {
		for j := i; j > 0 && g[j] < g[j-1]; j-- {
			g[j], g[j-1] = g[j-1], g[j]
		}
	}
}

func (m *match) goalsBy(side, minute int) int {
	n := 0
	for _, g := range m.goals[side][:m.ng[side]] {
		if int(g) <= minute {
			n++
		}
	}
	return n
}

// playMinutes is the length of play as timelines count it.
func (s *sportDef) playMinutes() int {
	if s.name == "Soccer" {
		return 90
	}
	return 60
}

// minute is the minute of play at Now: the whole game once finished.
func (m *match) minute() int {
	sp := m.l.sport
	if m.state != inPlay {
		return sp.playMinutes()
	}
	return max(1, m.elapsed*sp.playMinutes()/sp.minutes)
}

// status is the strStatus code at Now.
func (m *match) status() string {
	sp := m.l.sport
	switch m.state {
	case notStarted:
		return "NS"
	case postponed:
		if sp == soccer {
			return "PST"
		}
		return "POST"
	case inPlay:
		return sp.periods[min(len(sp.periods)-1, m.elapsed*len(sp.periods)/sp.minutes)]
	}
	return "FT"
}

func (w *world) individualName(l *league, r int) string {
	c := w.countries[(l.idx+r)%len(w.countries)]
	city := c.cities[r%len(c.cities)]
	switch l.sport.name {
	case "Motorsport":
		return city + " Grand Prix"
	case "Golf":
		return city + " Open"
	}
	return fmt.Sprintf("%s Fight Night %d", l.name, r+1)
}
