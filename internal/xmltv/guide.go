package xmltv

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sportsdb/internal/calendar"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// guide is what a guide shows: its channels and their programmes, in order.
type guide struct {
	channels   []channel
	programmes []programme
}

type channel struct {
	id, name, icon string
}

type programme struct {
	channel     string
	start, stop time.Time
	title       string
	subTitle    string
	desc        string
	categories  []string
	icon        string
}

// Layouts of the records' times: TV listings write a space, events a T.
const (
	tvLayout    = "2006-01-02 15:04:05"
	eventLayout = "2006-01-02T15:04:05"
)

// channelID is a channel's id in the guide: from the record's id, so the same on every run
// and replica; a listing without a channel id is named by its channel's folded name.
func channelID(idChannel, name string) string {
	if idChannel != "" {
		return idChannel + ".channel.sportsdb"
	}
	return strings.Join(strings.Fields(record.Fold(name)), "-") + ".channel.sportsdb"
}

func eq(field, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }

// dayConds selects records of the guide's days; a free key's guide starts at now.
func dayConds(req request, field, layout string) []store.Cond {
	var days []store.Cond
	for _, d := range req.dayList() {
		days = append(days, eq("dateEvent", d))
	}
	conds := []store.Cond{{Or: days}}
	if req.tier == store.Free {
		conds = append(conds, store.Cond{Field: field, Op: store.Ge, Value: req.now.Format(layout)})
	}
	return conds
}

func limit(req request) int {
	if req.tier == store.Free {
		return FreeProgrammes
	}
	return maxProgrammes
}

// countryGuide is the TV listings of a channel country on the guide's days: one channel per
// channel listed, one programme per listing.
func countryGuide(ctx context.Context, st store.Records, country string, req request) (*guide, error) {
	where := append([]store.Cond{{Field: "strCountry", Norm: record.Name, Op: store.Eq, Value: country}},
		dayConds(req, "strTimeStamp", tvLayout)...)
	recs, err := st.Find(ctx, store.Query{Kind: record.TV, Where: where, Limit: limit(req),
		OrderBy: []store.Order{{Field: "strTimeStamp"}, {Field: "id", Numeric: true}}})
	if err != nil {
		return nil, fmt.Errorf("listings of %q: %w", country, err)
	}
	g := &guide{}
	seen := map[string]bool{}
	for _, tv := range recs {
		start, err := time.Parse(tvLayout, tv.Str("strTimeStamp"))
		if err != nil {
			continue // a listing without a time has no place in a guide
		}
		id := channelID(tv.Str("idChannel"), tv.Str("strChannel"))
		if !seen[id] {
			seen[id] = true
			g.channels = append(g.channels, channel{id: id, name: tv.Str("strChannel"), icon: tv.Str("strLogo")})
		}
		g.programmes = append(g.programmes, programme{channel: id, start: start,
			stop: start.Add(calendar.Duration(tv.Str("strSport"))), title: tv.Str("strEvent"),
			categories: nonEmpty(tv.Str("strSport")), icon: firstOf(tv.Str("strEventThumb"), tv.Str("strEventPoster"))})
	}
	slices.SortFunc(g.channels, func(a, b channel) int { return strings.Compare(a.id, b.id) })
	return g, nil
}

// teamGuide is a team's games on the guide's days as one channel: the league as category,
// the team's badge as icon. An unknown team is store.ErrNotFound.
func teamGuide(ctx context.Context, st store.Records, id string, req request) (*guide, error) {
	team, err := st.Get(ctx, record.Team, id)
	if err != nil {
		return nil, fmt.Errorf("team %s: %w", id, err)
	}
	where := append([]store.Cond{{Or: []store.Cond{eq("idHomeTeam", id), eq("idAwayTeam", id)}}},
		dayConds(req, "strTimestamp", eventLayout)...)
	recs, err := st.Find(ctx, store.Query{Kind: record.Event, Where: where, Limit: limit(req),
		OrderBy: []store.Order{{Field: "strTimestamp"}, {Field: "idEvent", Numeric: true}}})
	if err != nil {
		return nil, fmt.Errorf("games of team %s: %w", id, err)
	}
	ch := channel{id: id + ".team.sportsdb", name: team.Str("strTeam"), icon: team.Str("strBadge")}
	g := &guide{channels: []channel{ch}}
	for _, ev := range recs {
		start, err := time.Parse(eventLayout, ev.Str("strTimestamp"))
		if err != nil {
			continue // a game without a time has no place in a guide
		}
		g.programmes = append(g.programmes, programme{channel: ch.id, start: start,
			stop: start.Add(calendar.Duration(ev.Str("strSport"))), title: ev.Str("strEvent"),
			subTitle: roundOf(ev), desc: placeOf(ev), categories: nonEmpty(ev.Str("strLeague"), ev.Str("strSport")),
			icon: firstOf(ev.Str("strThumb"), ch.icon)})
	}
	return g, nil
}

// roundOf is the league and round of a game, as a sub-title.
func roundOf(ev record.Record) string {
	s := ev.Str("strLeague")
	if r := ev.Str("intRound"); r != "" && r != "0" {
		s = strings.TrimSpace(s + " round " + r)
	}
	return s
}

// placeOf says where a game is played, and its score once it has one.
func placeOf(ev record.Record) string {
	s := strings.Join(nonEmpty(ev.Str("strVenue"), ev.Str("strCity"), ev.Str("strCountry")), ", ")
	if h, a := ev.Str("intHomeScore"), ev.Str("intAwayScore"); h != "" && a != "" {
		s = strings.TrimSpace(s + ". Score " + h + "-" + a + ".")
	}
	return s
}

func nonEmpty(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func firstOf(vs ...string) string {
	if ne := nonEmpty(vs...); len(ne) > 0 {
		return ne[0]
	}
	return ""
}
