package gen

import (
	"fmt"
	"math/rand/v2"

	"sportsdb/internal/record"
)

// eachCareerPlayer calls fn for the players whose careers are recorded: the squads of
// detailed leagues. Fixed players (p.team.fixed) always get a full career.
func (w *world) eachCareerPlayer(fn func(p player, r *rand.Rand, fixed bool) error) error {
	for _, t := range w.teams {
		if !t.league.detailed {
			continue
		}
		for slot := range t.nPlayers {
			p := w.player(t, slot)
			fixed := p.id < t.playerBase || p.id >= t.playerBase+t.nPlayers
			if err := fn(p, w.g.at(pCareer, p.id), fixed); err != nil {
				return err
			}
		}
	}
	return nil
}

var honourNames = []string{"%s Champion", "%s Player of the Month", "%s Team of the Season", "%s Top Scorer"}

func (w *world) emitHonours(wr *batcher) error {
	id := 1000
	return w.eachCareerPlayer(func(p player, r *rand.Rand, fixed bool) error {
		n := 0
		if fixed {
			n = 3
		} else if r.IntN(4) == 0 {
			n = 1 + r.IntN(2)
		}
		l := p.team.league
		for k := range n {
			h := (k + r.IntN(len(honourNames))) % len(honourNames)
			id++
			ir := w.ig.at(pHonour, l.id*8+h)
			rec := fields(record.Honour, "id", id, "idPlayer", p.id, "idTeam", p.team.id, "idLeague", l.id, "idHonour", l.id*10+h,
				"strSport", l.sport.name, "strPlayer", p.name(), "strTeam", p.team.name, "strTeamBadge", w.teamBadge(p.team),
				"strHonour", fmt.Sprintf(honourNames[h], l.name), "strHonourLogo", image(ir, "honour/logo", "png"),
				"strHonourTrophy", image(ir, "honour/trophy", "png"), "strSeason", w.seasonName(l, 1+k))
			if err := wr.put(rec); err != nil {
				return err
			}
		}
		return nil
	})
}

func (w *world) emitFormerTeams(wr *batcher) error {
	id := 11000
	return w.eachCareerPlayer(func(p player, r *rand.Rand, fixed bool) error {
		n := r.IntN(3)
		if fixed {
			n = 2
		}
		year := w.now.Year() - 1
		for range n {
			former := w.sameSportTeam(r, p.team)
			if former == nil {
				return nil
			}
			joined := year - between(r, 1, 4)
			id++
			rec := fields(record.FormerTeam, "id", id, "idPlayer", p.id, "idFormerTeam", former.id, "strSport", p.team.league.sport.name,
				"strPlayer", p.name(), "strFormerTeam", former.name, "strMoveType", pick(r, []string{"Permanent", "Permanent", "Loan"}),
				"strBadge", w.teamBadge(former), "strJoined", fmt.Sprint(joined), "strDeparted", fmt.Sprint(year),
				"intAppearances", optional(r.IntN(2) == 0, fmt.Sprint(r.IntN(120))), "intGoals", optional(r.IntN(2) == 0, fmt.Sprint(r.IntN(30))))
			if err := wr.put(rec); err != nil {
				return err
			}
			year = joined
		}
		return nil
	})
}

// sameSportTeam picks another team of the same sport, or nil when none turns up quickly.
func (w *world) sameSportTeam(r *rand.Rand, t *team) *team {
	for range 20 {
		o := w.teams[r.IntN(len(w.teams))]
		if o != t && o.league.sport == t.league.sport {
			return o
		}
	}
	return nil
}

var milestoneNames = []string{"Debut", "100 Appearances", "50 Goals", "First Goal", "200 Appearances"}

func (w *world) emitMilestones(wr *batcher) error {
	id := 400
	return w.eachCareerPlayer(func(p player, r *rand.Rand, fixed bool) error {
		if !fixed && r.IntN(6) != 0 {
			return nil
		}
		k := r.IntN(len(milestoneNames))
		id++
		rec := fields(record.Milestone, "id", id, "idPlayer", p.id, "strPlayer", p.name(), "idTeam", p.team.id, "idMilestone", 10+k,
			"strTeam", p.team.name, "strSport", p.team.league.sport.name, "strMilestone", milestoneNames[k],
			"strMilestoneLogo", image(w.ig.at(pHonour, -k-1), "milestone/logo", "png"),
			"dateMilestone", day(w.now).AddDate(0, 0, -between(r, 10, 900)).Format(layoutDate))
		return wr.put(rec)
	})
}

func (w *world) emitContracts(wr *batcher) error {
	id := 2000
	return w.eachCareerPlayer(func(p player, r *rand.Rand, fixed bool) error {
		start := w.now.Year() - r.IntN(4)
		id++
		rec := fields(record.Contract, "id", id, "idPlayer", p.id, "idTeam", p.team.id, "strSport", p.team.league.sport.name,
			"strPlayer", p.name(), "strTeam", p.team.name, "strBadge", w.teamBadge(p.team), "strYearStart", fmt.Sprint(start), "strYearEnd", fmt.Sprint(start+between(r, 2, 5)),
			"strWage", fmt.Sprintf("€%d,000 per week", between(r, 5, 300)))
		return wr.put(rec)
	})
}

// statNames are the season statistics kept per sport; the first is always appearances.
func statNames(sp *sportDef) []string {
	switch sp.name {
	case "Soccer":
		return []string{"Appearances", "Goals", "Mins Played"}
	case "Basketball":
		return []string{"Games Played", "Points", "Rebounds", "Assists"}
	case "Ice Hockey":
		return []string{"Games Played", "Goals", "Assists"}
	}
	return []string{"Appearances", "Points"}
}

func (w *world) emitPlayerStats(wr *batcher) error {
	id := 5000
	return w.eachCareerPlayer(func(p player, r *rand.Rand, fixed bool) error {
		l := p.team.league
		for s := w.sc.statSeasons; s >= 1; s-- {
			apps := r.IntN(l.rounds + 1)
			for k, stat := range statNames(l.sport) {
				v := apps
				switch {
				case k == 0:
				case stat == "Mins Played":
					v = apps * between(r, 45, 90)
				case stat == "Points" && l.sport.name == "Basketball":
					v = apps * between(r, 2, 25)
				default:
					v = r.IntN(apps/2 + 1)
				}
				id++
				rec := fields(record.PlayerStat, "id", id, "idPlayer", p.id, "idTeam", p.team.id, "idLeague", l.id, "strSport", l.sport.name,
					"strPlayer", p.name(), "strTeam", p.team.name, "strTeamBadge", w.teamBadge(p.team), "strLeague", l.name,
					"strLeagueBadge", w.leagueBadge(l), "strStatistic", stat, "strValue", v, "strSeason", w.seasonName(l, s))
				if err := wr.put(rec); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
