package gen

import (
	"fmt"
	"sort"
	"time"

	"sportsdb/internal/record"
)

type tableRow struct {
	t                            *team
	played, win, draw            int
	loss, goalsFor, goalsAgainst int
	form                         []byte
}

func (row *tableRow) points() int { return 3*row.win + row.draw }

// emitStandings writes each team league's table for its current season, computed from the
// season's finished events so the table agrees with the results.
func (w *world) emitStandings(wr *batcher) error {
	id := 9870000
	for _, l := range w.leagues {
		if l.sport.individual {
			continue
		}
		rows := w.table(l)
		updated := w.now.Add(-2 * time.Hour).Truncate(time.Minute).Format(layoutSpace)
		for rank, row := range rows {
			id++
			rec := fields(record.Standing, "idStanding", id, "intRank", rank+1, "idTeam", row.t.id, "strTeam", row.t.name,
				"strBadge", w.teamBadge(row.t)+"/tiny", "idLeague", l.id, "strLeague", l.name, "strSeason", w.seasonName(l, 0),
				"strGroup", l.name, "strForm", string(row.form), "strDescription", standingNote(l, rank, len(rows)),
				"intPlayed", row.played, "intWin", row.win, "intLoss", row.loss, "intDraw", row.draw,
				"intGoalsFor", row.goalsFor, "intGoalsAgainst", row.goalsAgainst, "intGoalDifference", row.goalsFor-row.goalsAgainst,
				"intPoints", row.points(), "dateUpdated", updated)
			if err := wr.put(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *world) table(l *league) []*tableRow {
	rows := make([]*tableRow, len(l.teams))
	byID := make(map[int]*tableRow, len(l.teams))
	for i, t := range l.teams {
		rows[i] = &tableRow{t: t}
		byID[t.id] = rows[i]
	}
	_ = w.eachMatch(l, 0, func(m *match) error {
		if m.state != finished {
			return nil
		}
		h, a := byID[m.home.id], byID[m.away.id]
		h.add(m.hs, m.as)
		a.add(m.as, m.hs)
		return nil
	})
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.points() != b.points() {
			return a.points() > b.points()
		}
		if da, db := a.goalsFor-a.goalsAgainst, b.goalsFor-b.goalsAgainst; da != db {
			return da > db
		}
		if a.goalsFor != b.goalsFor {
			return a.goalsFor > b.goalsFor
		}
		return a.t.name < b.t.name
	})
	return rows
}

func (row *tableRow) add(for_, against int) {
	row.played++
	row.goalsFor += for_
	row.goalsAgainst += against
	c := byte('D')
	switch {
	case for_ > against:
		row.win++
		c = 'W'
	case for_ < against:
		row.loss++
		c = 'L'
	default:
		row.draw++
	}
	row.form = append(row.form, c)
	if len(row.form) > 5 {
		row.form = row.form[1:]
	}
}

func standingNote(l *league, rank, n int) string {
	switch {
	case rank == 0:
		return "Champions"
	case rank < 4 && l.sport == soccer && l.division == 0:
		return "Promotion - Champions League (League phase)"
	case rank >= n-3 && l.sport == soccer:
		return "Relegation"
	}
	return ""
}

var f1Points = []int{25, 18, 15, 12, 10, 8, 6, 4, 2, 1}

// emitResults writes the finishing order of every finished individual-sport event.
func (w *world) emitResults(wr *batcher) error {
	id := 600
	for _, l := range w.leagues {
		if !l.sport.individual {
			continue
		}
		var field []player
		for _, t := range l.teams {
			for slot := range t.nPlayers {
				field = append(field, w.player(t, slot))
			}
		}
		for s := w.sc.eventSeasons - 1; s >= 0; s-- {
			err := w.eachMatch(l, s, func(m *match) error {
				if m.state != finished {
					return nil
				}
				for _, res := range w.results(m, field) {
					id++
					p := res.p
					rec := fields(record.Result, "idResult", id, "idPlayer", p.id, "strPlayer", p.name(), "idTeam", p.team.id,
						"idEvent", m.id, "strEvent", m.name, "strResult", nil, "intPosition", res.pos, "intPoints", res.points,
						"strDetail", res.detail, "dateEvent", m.kickoff.Format(layoutDate), "strSeason", w.seasonName(l, s),
						"strCountry", p.nationality, "strSport", l.sport.name)
					if err := wr.put(rec); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

type result struct {
	p      player
	pos    int
	points int
	detail string
}

// results ranks an event's field: a race or a tournament ranks everyone, a fight night pairs
// ten fighters into five bouts.
func (w *world) results(m *match, field []player) []result {
	r := w.g.at(pResult, m.id)
	order := r.Perm(len(field))
	var out []result
	switch m.l.sport.name {
	case "Fighting":
		methods := []string{"KO (Punches)", "Submission (Rear-Naked Choke)", "Decision (Unanimous)", "TKO (Elbows)", "Decision (Split)"}
		for b := 0; b+1 < len(order) && b < 10; b += 2 {
			detail := fmt.Sprintf("%s R%d %d:%02d", pick(r, methods), 1+r.IntN(3), r.IntN(5), r.IntN(60))
			out = append(out, result{p: field[order[b]], pos: 1, points: 1, detail: detail},
				result{p: field[order[b+1]], pos: 2, points: 0, detail: detail})
		}
	case "Golf":
		score := -between(r, 8, 20)
		for i, k := range order {
			out = append(out, result{p: field[k], pos: i + 1, points: max(0, 500-i*20), detail: fmt.Sprint(score)})
			score += r.IntN(2)
		}
	default:
		gap := 0.0
		for i, k := range order {
			res := result{p: field[k], pos: i + 1, detail: fmt.Sprintf("1:%02d:%06.3f", 28+r.IntN(10), float64(r.IntN(60000))/1000)}
			if i < len(f1Points) {
				res.points = f1Points[i]
			}
			if i > 0 {
				gap += float64(r.IntN(9000)) / 1000
				res.detail = fmt.Sprintf("+ %.3f", gap)
			}
			out = append(out, res)
		}
	}
	return out
}
