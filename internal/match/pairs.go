package match

import (
	"cmp"
	"slices"

	"sportsdb/internal/store"
)

// meetings are the queries of the games between the teams found, for a name without a day:
// those of the pairs likeliest to rank first (likelyPairs), maxPairs of them and those as
// likely as the last, one query per home team, each reading at most maxPairGames games per
// pair, the latest first. All the games between the teams found were read before: at full
// scale the teams a common word names (every "Lions" of the leagues named) met hundreds of
// times, 20-30 ms of reading for a ranking that keeps five.
func (m *matcher) meetings(ids []string) []store.Query {
	pairs := m.likelyPairs(ids)
	var homes []string
	aways := map[string][]store.Cond{}
	for i, p := range pairs {
		if i >= maxPairs && p.likely < pairs[maxPairs-1].likely {
			break
		}
		if aways[p.home] == nil {
			homes = append(homes, p.home)
		}
		aways[p.home] = append(aways[p.home], eq("idAwayTeam", p.away))
	}
	var qs []store.Query
	for _, h := range homes {
		qs = append(qs, store.Query{Where: []store.Cond{eq("idHomeTeam", h), {Or: aways[h]}},
			Limit: min(maxEvents, maxPairGames*len(aways[h]))})
	}
	return qs
}

// pair is a home and an away team found, and how likely their games are to rank first.
type pair struct {
	home, away string
	likely     float64
	oneLeague  int // 1 when both play in one league
}

// likelyPairs are the pairs of the teams whose games may fit the name, likeliest first. A
// pair is as likely as the ranking would score its games on names and league: how well its
// names fit the name's sides, and whether both play in a league named (or none is named).
// Teams of one name in several leagues make pairs that fit as well but never meet: of pairs
// alike, those of one league come first.
func (m *matcher) likelyPairs(ids []string) []pair {
	fits := make([][2]float64, len(ids))
	for i, id := range ids {
		fits[i] = m.sideFits(m.teams[id].aliases)
	}
	var pairs []pair
	for i, home := range ids {
		for j, away := range ids {
			fit, _ := m.pairFit(fits[i], fits[j])
			if i == j || fit < minTeamFit {
				continue
			}
			league := m.teams[home].league
			p := pair{home: home, away: away, likely: wTeams * fit}
			if league == m.teams[away].league {
				p.oneLeague = 1
			}
			if len(m.leagues) == 0 || (p.oneLeague == 1 && m.leagues[league] != nil) {
				p.likely += wLeague
			}
			pairs = append(pairs, p)
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		return cmp.Or(cmp.Compare(b.likely, a.likely), cmp.Compare(b.oneLeague, a.oneLeague))
	})
	return pairs
}
