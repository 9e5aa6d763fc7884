package match

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/record"
)

// Weights of what fits, which add up to 1.
const (
	wTeams     = 0.55
	wDate      = 0.25
	wLeague    = 0.10
	wRound     = 0.05
	wExplained = 0.05
)

// candidate is an event with what fitted.
type candidate struct {
	rec                        record.Record
	teams, date, league, round float64
	explained                  float64
	score                      float64
	why                        []string
}

// rank scores the events, drops those whose names do not fit, and keeps the best Max.
func (m *matcher) rank(events []record.Record) []Result {
	var cs []candidate
	for _, ev := range events {
		if c, ok := m.score(ev); ok {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.rec.Str("strTimestamp"), a.rec.Str("strTimestamp")); c != 0 {
			return c
		}
		return cmp.Compare(a.rec.Str("idEvent"), b.rec.Str("idEvent"))
	})
	var out []Result
	for i := 0; i < len(cs) && i < Max; i++ {
		out = append(out, Result{Event: cs[i].rec, Score: cs[i].score, Why: strings.Join(cs[i].why, "; ")})
	}
	return out
}

// score rates one event; ok is false when its names do not fit the name.
func (m *matcher) score(ev record.Record) (candidate, bool) {
	c := candidate{rec: ev}
	words := m.p.words
	if ev.Str("idHomeTeam") != "" || ev.Str("idAwayTeam") != "" {
		c.teams = m.teamsFit(ev, &c)
	} else {
		c.teams = m.eventNameFit(ev, &c)
	}
	if c.teams < minTeamFit {
		return c, false
	}
	c.date = m.dateFit(ev, &c)
	// A league or round the name does not name contradicts nothing.
	c.league = 1
	if len(m.leagues) > 0 {
		c.league = 0
		if l := m.leagues[ev.Str("idLeague")]; l != nil {
			c.league = 1
			c.why = append(c.why, "league "+l.name)
		}
	}
	c.round = 1
	if m.p.round > 0 {
		c.round = 0
		if ev.Str("intRound") == strconv.Itoa(m.p.round) {
			c.round = 1
			c.why = append(c.why, "round "+strconv.Itoa(m.p.round))
		}
	}
	if m.p.session != "" {
		c.why = append(c.why, "session "+m.p.session)
	}
	c.explained = m.explained(ev, words)
	c.score = wTeams*c.teams + wDate*c.date + wLeague*c.league + wRound*c.round + wExplained*c.explained
	c.score = float64(int(c.score*100+0.5)) / 100
	return c, true
}

// aliasesOf are the names of an event's team: those of the team found, else the event's.
func (m *matcher) aliasesOf(id, name string) [][]string {
	if t := m.teams[id]; t != nil {
		return t.aliases
	}
	return [][]string{tokens(record.Fold(name))}
}

// teamsFit is how well the name's sides fit the event's home and away teams, in the order
// the separator says (home first; away first after @ or at), or either way a little less.
func (m *matcher) teamsFit(ev record.Record, c *candidate) float64 {
	home := m.sideFits(m.aliasesOf(ev.Str("idHomeTeam"), ev.Str("strHomeTeam")))
	away := m.sideFits(m.aliasesOf(ev.Str("idAwayTeam"), ev.Str("strAwayTeam")))
	fit, swapped := m.pairFit(home, away)
	note := ""
	if swapped {
		note = " (sides swapped)"
	}
	if fit >= minTeamFit {
		c.why = append(c.why, fmt.Sprintf("teams %s vs %s%s", ev.Str("strHomeTeam"), ev.Str("strAwayTeam"), note))
	}
	return fit
}

// sideFits are how well the name's home side and away side (as the separator says; the
// whole name for both without one) fit a team's names.
func (m *matcher) sideFits(aliases [][]string) [2]float64 {
	a, b := m.p.words, m.p.words
	if m.p.sep > 0 {
		a, b = m.p.words[:m.p.sep], m.p.words[m.p.sep:]
	}
	if m.p.awayFirst {
		a, b = b, a
	}
	return [2]float64{m.teamFit(a, aliases), m.teamFit(b, aliases)}
}

// pairFit is how well a game of a home and an away team fits the name's sides, from the
// teams' sideFits: in the order the separator says, or swapped a little less (swapped).
func (m *matcher) pairFit(home, away [2]float64) (fit float64, swapped bool) {
	straight := (home[0] + away[1]) / 2
	other := (home[1] + away[0]) / 2
	if m.p.sep > 0 && other > straight {
		return other * 0.97, true
	}
	return straight, false
}

// teamFit is how well words fit the best of a team's names: the share of the name's words
// found (a typo forgiven), or one telling word of it (a nickname, a city) at 0.75.
func (m *matcher) teamFit(words []string, aliases [][]string) float64 {
	best := 0.0
	for _, alias := range aliases {
		sum, telling := 0.0, 0.0
		for _, aw := range alias {
			s := 0.0
			for _, w := range words {
				s = max(s, wordSim(w, aw))
			}
			sum += s
			if !tables.generic[aw] && !allDigits(aw) {
				telling = max(telling, s)
			}
		}
		best = max(best, sum/float64(len(alias)), 0.75*telling)
	}
	return best
}

// eventNameFit is how well the words fit the name of an event without teams (a Grand
// Prix, a fight card, a tournament), less the league's words. A name that holds only the
// league and the day (Formula1.2025.10.12.Qualifying) fits the league's event on that day.
func (m *matcher) eventNameFit(ev record.Record, c *candidate) float64 {
	var rest []string
	for i, w := range m.p.words {
		if !m.leagueWords[i] {
			rest = append(rest, w)
		}
	}
	var name []string
	for _, w := range tokens(record.Fold(ev.Str("strEvent"))) {
		if !m.leagueWord(w) {
			name = append(name, w)
		}
	}
	if len(rest) == 0 || len(name) == 0 {
		if m.leagues[ev.Str("idLeague")] == nil || len(m.p.dates) == 0 {
			return 0
		}
		c.why = append(c.why, "the league's event on the day")
		return 0.6
	}
	fit := m.teamFit(rest, [][]string{name})
	if fit >= minTeamFit {
		c.why = append(c.why, "event "+ev.Str("strEvent"))
	}
	return fit
}

// leagueWord says the word is one a league name took from the file name.
func (m *matcher) leagueWord(w string) bool {
	for i := range m.leagueWords {
		if m.p.words[i] == w {
			return true
		}
	}
	return false
}

// dateFit is 1 for the day named, less for a day or two off; without a day, a year that
// is the event's helps.
func (m *matcher) dateFit(ev record.Record, c *candidate) float64 {
	if len(m.p.dates) == 0 {
		for _, y := range m.p.years {
			ys := strconv.Itoa(y)
			if strings.Contains(ev.Str("strSeason"), ys) || strings.HasPrefix(ev.Str("dateEvent"), ys) {
				c.why = append(c.why, "season "+ev.Str("strSeason"))
				return 0.8
			}
		}
		if len(m.p.years) > 0 {
			return 0.2
		}
		return 0.5
	}
	off := -1
	for _, field := range []string{"dateEvent", "dateEventLocal"} {
		d, err := time.Parse(time.DateOnly, ev.Str(field))
		if err != nil {
			continue
		}
		for _, want := range m.p.dates {
			n := int(d.Sub(want).Hours() / 24)
			if n < 0 {
				n = -n
			}
			if off < 0 || n < off {
				off = n
			}
		}
	}
	switch {
	case off == 0:
		c.why = append(c.why, "date "+ev.Str("dateEvent"))
		return 1
	case off >= 1 && off <= dateWindowDays:
		c.why = append(c.why, fmt.Sprintf("date %s (%d off)", ev.Str("dateEvent"), off))
		return 1 - 0.2*float64(off)
	}
	return 0
}

// explained is the share of the name's words the event accounts for: its teams' or its own
// name, its league, or words many names share.
func (m *matcher) explained(ev record.Record, words []string) float64 {
	names := append(append(m.aliasesOf(ev.Str("idHomeTeam"), ev.Str("strHomeTeam")),
		m.aliasesOf(ev.Str("idAwayTeam"), ev.Str("strAwayTeam"))...), tokens(record.Fold(ev.Str("strEvent"))))
	n := 0
	for i, w := range words {
		if m.leagueWords[i] || tables.generic[w] || inNames(w, names) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

func inNames(w string, names [][]string) bool {
	for _, name := range names {
		for _, nw := range name {
			if wordSim(w, nw) >= 0.7 {
				return true
			}
		}
	}
	return false
}

// wordSim is how alike two folded words are: 1 when equal, less for a typo or two in a
// long enough word (numbers must be equal).
func wordSim(a, b string) float64 {
	if a == b {
		return 1
	}
	if allDigits(a) || allDigits(b) {
		return 0
	}
	n := min(len(a), len(b))
	if n < 4 || abs(len(a)-len(b)) > 2 {
		return 0
	}
	d := distance(a, b)
	switch {
	case d == 1:
		return 0.85
	case d == 2 && n >= 7:
		return 0.7
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the optimal string alignment distance (edits, and swaps of neighbours).
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
