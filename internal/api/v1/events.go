package v1

import (
	"strconv"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Build functions of the schedule, TV, highlight and live score rows.

// hasTime keeps events without a strTimestamp out of next/previous: "" sorts before any time.
var hasTime = store.Cond{Field: "strTimestamp", Op: store.NotEmpty}

// timed answers the next events of a selection (strTimestamp at or after now, soonest first)
// or the previous ones (before now, latest first), on the server's clock, and declares until
// when the answer stands: next events until the first of them has started, previous ones
// until the next event of the selection has.
func (r *request) timed(sel store.Cond, next bool) ([]record.Record, error) {
	now := r.timestamp()
	after := sorted(where(sel, hasTime, compare("strTimestamp", store.Ge, now)), asc("strTimestamp"))
	if next {
		recs, err := r.find(after)
		if err == nil {
			api.UntilStarts(r.ctx, recs, true)
		}
		return recs, err
	}
	recs, err := r.find(sorted(where(sel, hasTime, compare("strTimestamp", store.Lt, now)), desc("strTimestamp")))
	if err != nil {
		return nil, err
	}
	after.Limit = 1
	first, err := r.find(after)
	if err != nil {
		return nil, err
	}
	api.UntilStarts(r.ctx, first, true)
	return recs, nil
}

// teamEvents answers a team's next or previous events; free keys get home games only.
func teamEvents(next bool) func(*request) (answer, error) {
	return func(r *request) (answer, error) {
		id, ok := r.p.id("id")
		if !ok {
			return none, nil
		}
		team := eq("idHomeTeam", id)
		if r.tier != store.Free {
			team = or(team, eq("idAwayTeam", id))
		}
		recs, err := r.timed(team, next)
		return records(recs), err
	}
}

// leagueEvents answers a league's next or previous events.
func leagueEvents(next bool) func(*request) (answer, error) {
	return func(r *request) (answer, error) {
		id, ok := r.p.id("id")
		if !ok {
			return none, nil
		}
		recs, err := r.timed(eq("idLeague", id), next)
		return records(recs), err
	}
}

// eventsDay answers the events of a UTC date d, optionally of sport s and of league l (an id
// or a name).
func eventsDay(r *request) (answer, error) {
	d, ok := r.p.date("d")
	if !ok {
		return none, nil
	}
	conds := []store.Cond{eq("dateEvent", d)}
	sport, ok := nameConds(r, map[string]string{"s": "strSport"}, "s")
	if !ok {
		return none, nil
	}
	conds = append(conds, sport...)
	if r.p.get("l") != "" {
		league, ok := leagueCond(r)
		if !ok {
			return none, nil
		}
		conds = append(conds, league)
	}
	recs, err := r.find(sorted(where(conds...), asc("strTimestamp")))
	return records(recs), err
}

// leagueCond reads l as a league id when it is a number, else as a league name.
func leagueCond(r *request) (store.Cond, bool) {
	if id, ok := r.p.id("l"); ok {
		return eq("idLeague", id), true
	}
	name, ok := r.p.name("l")
	return eqName("strLeague", name), ok
}

// eventsSeason answers the summaries of a league season's events, in time order.
func eventsSeason(r *request) (answer, error) {
	id, ok := r.p.id("id")
	if !ok {
		return none, nil
	}
	s, ok := r.p.text("s")
	if !ok {
		return none, nil
	}
	recs, err := r.find(sorted(where(eq("idLeague", id), eq("strSeason", s)), asc("strTimestamp")))
	return records(recs), err
}

// eventsRound answers a whole round to free keys; premium keys get 404, as from the public
// service. l= instead of id=, or no round, is rejected.
func eventsRound(r *request) (answer, error) {
	if r.tier != store.Free {
		return notFound, nil
	}
	if (!r.p.has("id") && r.p.has("l")) || r.p.get("r") == "" {
		return rejected("Invalid League ID or no round passed"), nil
	}
	id, ok := r.p.id("id")
	if !ok {
		return none, nil
	}
	round, err := strconv.ParseUint(r.p.get("r"), 10, 31)
	if err != nil {
		return none, nil
	}
	s, ok := r.p.text("s")
	if !ok {
		return none, nil
	}
	q := where(eq("idLeague", id), eq("intRound", strconv.FormatUint(round, 10)), eq("strSeason", s))
	recs, err := r.find(sorted(q, asc("strTimestamp")))
	return records(recs), err
}

// eventsTV answers TV listings in exactly one form: d (with s, or s and a), or c (part of a
// channel name), or id (a channel id). Another combination is not allowed: empty body.
// Listings by channel start at today's UTC date.
func eventsTV(r *request) (answer, error) {
	sent := func(k string) bool { return r.p.get(k) != "" }
	d, c, id, s, a := sent("d"), sent("c"), sent("id"), sent("s"), sent("a")
	forms := 0
	for _, f := range []bool{d, c, id} {
		if f {
			forms++
		}
	}
	switch {
	case forms == 0 && !s && !a:
		return none, nil
	case forms != 1 || (a && !s) || (!d && (s || a)):
		return empty, nil
	}
	var conds []store.Cond
	today := func() string {
		now := r.now()
		clock.Until(r.ctx, clock.NextMidnight(now)) // today's listings drop out then
		return now.Format(time.DateOnly)
	}
	switch {
	case d:
		day, ok := r.p.date("d")
		if !ok {
			return none, nil
		}
		more, ok := nameConds(r, map[string]string{"s": "strSport", "a": "strCountry"}, "s", "a")
		if !ok {
			return none, nil
		}
		conds = append([]store.Cond{eq("dateEvent", day)}, more...)
	case c:
		name, ok := r.p.name("c")
		if !ok {
			return none, nil
		}
		conds = []store.Cond{containsName("strChannel", name), compare("dateEvent", store.Ge, today())}
	default:
		ch, ok := r.p.id("id")
		if !ok {
			return none, nil
		}
		conds = []store.Cond{eq("idChannel", ch), compare("dateEvent", store.Ge, today())}
	}
	recs, err := r.find(sorted(where(conds...), asc("strTimeStamp")))
	return records(recs), err
}

// highlights answers the highlight videos listed on day d, optionally of league l (an id)
// and sport s.
func highlights(r *request) (answer, error) {
	d, ok := r.p.date("d")
	if !ok {
		return none, nil
	}
	conds := []store.Cond{eq("dateEvent", d)}
	if r.p.get("l") != "" {
		id, ok := r.p.id("l")
		if !ok {
			return none, nil
		}
		conds = append(conds, eq("idLeague", id))
	}
	sport, ok := nameConds(r, map[string]string{"s": "strSport"}, "s")
	if !ok {
		return none, nil
	}
	recs, err := r.find(where(append(conds, sport...)...))
	return records(recs), err
}

// livescore answers the whole live feed, or one sport's. v1 ignores l (the public service
// does); the older premium feed (byLeague) narrows to league l.
func livescore(byLeague bool) func(*request) (answer, error) {
	return func(r *request) (answer, error) {
		conds, ok := nameConds(r, map[string]string{"s": "strSport"}, "s")
		if !ok {
			return none, nil
		}
		if byLeague && r.p.get("l") != "" {
			id, ok := r.p.id("l")
			if !ok {
				return none, nil
			}
			conds = append(conds, eq("idLeague", id))
		}
		recs, err := r.find(where(conds...))
		return records(recs), err
	}
}
