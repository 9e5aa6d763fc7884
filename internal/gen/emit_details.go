package gen

import (
	"fmt"
	"sort"
	"strings"

	"sportsdb/internal/record"
)

// eachDetailed calls fn for the events that carry lineups, timelines and statistics: played
// or in play, recent, in a detailed team league.
func (w *world) eachDetailed(fn func(*match) error) error {
	since := w.now.AddDate(0, 0, -w.sc.detailDays)
	for _, l := range w.leagues {
		if !l.detailed || l.sport.individual || l.sport.starters == 0 {
			continue
		}
		from, to := w.nearRounds(l, w.sc.detailDays, 1)
		err := w.eachMatchIn(l, 0, from, to, func(m *match) error {
			if (m.state != finished && m.state != inPlay) || m.kickoff.Before(since) {
				return nil
			}
			return fn(m)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// lineup picks a side's starters and substitutes as squad slots; the lineup and timeline
// passes both call it, so goals are scored by players who are on the pitch.
func (w *world) lineup(m *match, side int) (starters, subs []int) {
	t := m.home
	if side == 1 {
		t = m.away
	}
	sp := m.l.sport
	r := w.lg.at(pLineup, m.id*2+side)
	npos := len(sp.positions)
	used := make([]bool, t.nPlayers)
	for j := range sp.starters {
		slot := j + npos*r.IntN(max(1, t.nPlayers/npos))
		if slot >= t.nPlayers || used[slot] {
			slot = j
		}
		used[slot] = true
		starters = append(starters, slot)
	}
	start := r.IntN(t.nPlayers)
	for k := 0; k < t.nPlayers && len(subs) < sp.subs; k++ {
		if slot := (start + k) % t.nPlayers; !used[slot] {
			used[slot] = true
			subs = append(subs, slot)
		}
	}
	return starters, subs
}

func (m *match) side(s int) *team {
	if s == 0 {
		return m.home
	}
	return m.away
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

func (w *world) emitLineups(wr *batcher) error {
	id := 500
	return w.eachDetailed(func(m *match) error {
		formation := ""
		if m.l.sport == soccer {
			formation = "4-3-3"
		}
		for side := range 2 {
			t := m.side(side)
			starters, subs := w.lineup(m, side)
			for k, slot := range append(starters, subs...) {
				p := w.player(t, slot)
				id++
				rec := fields(record.Lineup, "idLineup", id, "idEvent", m.id, "strPosition", p.position, "strHome", yesNo(side == 0),
					"strSubstitute", yesNo(k >= len(starters)), "intSquadNumber", p.number, "idPlayer", p.id, "strPlayer", p.name(),
					"idTeam", t.id, "strTeam", t.name, "strCutout", w.playerImage(p, "cutout"), "strThumb", w.playerImage(p, "thumb"),
					"strRender", w.playerImage(p, "render"), "strEvent", m.eventName(), "idAPIfootball", nil,
					"strPositionShort", positionShort(p.position), "strFormation", formation, "strCountry", m.l.country.name,
					"strSeason", w.seasonName(m.l, 0))
				if err := wr.put(rec); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func positionShort(pos string) string {
	var b strings.Builder
	for _, word := range strings.Fields(pos) {
		b.WriteByte(word[0])
	}
	return b.String()
}

type moment struct {
	minute       int
	side         int
	kind, detail string
	who, assist  player
	hasAssist    bool
}

// moments lists the goals, cards and substitutions of a game up to Now, in minute order.
func (w *world) moments(m *match) []moment {
	r := w.g.at(pTimeline, m.id)
	now := m.minute()
	var out []moment
	for side := range 2 {
		t := m.side(side)
		starters, subs := w.lineup(m, side)
		for _, g := range m.goals[side][:m.ng[side]] {
			scorer := starters[1+r.IntN(len(starters)-1)]
			assist := starters[1+r.IntN(len(starters)-1)]
			mo := moment{minute: int(g), side: side, kind: "Goal", detail: "Normal Goal", who: w.player(t, scorer)}
			if assist != scorer && r.IntN(3) > 0 {
				mo.assist, mo.hasAssist = w.player(t, assist), true
			}
			out = append(out, mo)
		}
		if m.l.sport != soccer {
			continue
		}
		for range r.IntN(4) {
			detail := "Yellow Card"
			if r.IntN(12) == 0 {
				detail = "Red Card"
			}
			out = append(out, moment{minute: 1 + r.IntN(90), side: side, kind: "Card", detail: detail, who: w.player(t, starters[r.IntN(len(starters))])})
		}
		for k, in := range subs {
			off := w.player(t, starters[1+r.IntN(len(starters)-1)])
			out = append(out, moment{minute: 55 + 10*k + r.IntN(10), side: side, kind: "subst", detail: off.name(), who: w.player(t, in), assist: off, hasAssist: true})
		}
	}
	kept := out[:0]
	for _, mo := range out {
		if mo.minute <= now {
			kept = append(kept, mo)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].minute < kept[j].minute })
	return kept
}

func (w *world) emitTimelines(wr *batcher) error {
	id := 870000
	return w.eachDetailed(func(m *match) error {
		if !m.l.sport.timeline {
			return nil
		}
		for _, mo := range w.moments(m) {
			id++
			t := m.side(mo.side)
			var assistID, assistName any = nil, ""
			if mo.hasAssist {
				assistID, assistName = mo.assist.id, mo.assist.name()
			}
			rec := fields(record.Timeline, "idTimeline", id, "idEvent", m.id, "strTimeline", mo.kind, "strTimelineDetail", mo.detail,
				"strHome", yesNo(mo.side == 0), "strEvent", m.eventName(), "idAPIfootball", nil, "idPlayer", mo.who.id,
				"strPlayer", mo.who.name(), "strCutout", w.playerImage(mo.who, "cutout"), "idAssist", assistID, "strAssist", assistName,
				"intTime", mo.minute, "strPeriod", nil, "idTeam", t.id, "strTeam", t.name, "strComment", "",
				"dateEvent", m.kickoff.Format(layoutDate), "strSeason", w.seasonName(m.l, 0))
			if err := wr.put(rec); err != nil {
				return err
			}
		}
		return nil
	})
}

func (w *world) emitEventStats(wr *batcher) error {
	id := 10
	return w.eachDetailed(func(m *match) error {
		r := w.g.at(pStats, m.id)
		for _, stat := range m.l.sport.stats {
			home, away := fmt.Sprint(r.IntN(20)), fmt.Sprint(r.IntN(20))
			switch stat {
			case "Ball Possession":
				p := between(r, 30, 70)
				home, away = fmt.Sprintf("%d%%", p), fmt.Sprintf("%d%%", 100-p)
			case "Total passes", "Passes accurate", "Total Yards", "Passing Yards", "Metres Run":
				home, away = fmt.Sprint(between(r, 150, 600)), fmt.Sprint(between(r, 150, 600))
			}
			id++
			rec := fields(record.EventStat, "idStatistic", id, "idEvent", m.id, "idApiFootball", nil, "strEvent", m.eventName(),
				"strStat", stat, "intHome", home, "intAway", away)
			if err := wr.put(rec); err != nil {
				return err
			}
		}
		return nil
	})
}
