package v1

import (
	"strconv"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Answer functions of the schedule, TV, highlight and live score rows.

// timed answers the next or previous events of a selection (api.Request.NextEvents).
func timed(r *api.Request, sel store.Cond, next bool) ([]record.Record, error) {
	if next {
		return r.NextEvents(sel)
	}
	return r.PreviousEvents(sel)
}

// teamEvents answers a team's next or previous events; free keys get home games only.
func teamEvents(next bool) answerFunc {
	return func(r *api.Request, p params) (api.Answer, error) {
		id, ok := p.id("id")
		if !ok {
			return api.None, nil
		}
		team := api.Eq("idHomeTeam", id)
		if r.Tier != store.Free {
			team = api.Or(team, api.Eq("idAwayTeam", id))
		}
		recs, err := timed(r, team, next)
		return api.Records(recs), err
	}
}

// leagueEvents answers a league's next or previous events.
func leagueEvents(next bool) answerFunc {
	return func(r *api.Request, p params) (api.Answer, error) {
		id, ok := p.id("id")
		if !ok {
			return api.None, nil
		}
		recs, err := timed(r, api.Eq("idLeague", id), next)
		return api.Records(recs), err
	}
}

// eventsDay answers the events of a UTC date d, optionally of sport s and of league l (an id
// or a name).
func eventsDay(r *api.Request, p params) (api.Answer, error) {
	d, ok := p.date("d")
	if !ok {
		return api.None, nil
	}
	conds := []store.Cond{api.Eq("dateEvent", d)}
	sport, ok := nameConds(p, map[string]string{"s": "strSport"}, "s")
	if !ok {
		return api.None, nil
	}
	conds = append(conds, sport...)
	if p.get("l") != "" {
		league, ok := leagueCond(p)
		if !ok {
			return api.None, nil
		}
		conds = append(conds, league)
	}
	recs, err := r.Find(api.Where(conds...))
	return api.Records(recs), err
}

// leagueCond reads l as a league id when it is a number, else as a league name.
func leagueCond(p params) (store.Cond, bool) {
	if id, ok := p.id("l"); ok {
		return api.Eq("idLeague", id), true
	}
	name, ok := p.name("l")
	return api.EqName("strLeague", name), ok
}

// eventsSeason answers the summaries of a league season's events, in time order.
func eventsSeason(r *api.Request, p params) (api.Answer, error) {
	id, ok := p.id("id")
	if !ok {
		return api.None, nil
	}
	s, ok := p.text("s")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(api.Eq("idLeague", id), api.Eq("strSeason", s)))
	return api.Records(recs), err
}

// eventsRound answers a whole round to free keys; premium keys get 404, as from the public
// service. l= instead of id=, or no round, is rejected.
func eventsRound(r *api.Request, p params) (api.Answer, error) {
	if r.Tier != store.Free {
		return api.NoEndpoint, nil
	}
	return roundEvents(r, p)
}

// roundEvents answers a round's events for a key of any tier.
func roundEvents(r *api.Request, p params) (api.Answer, error) {
	if (!p.has("id") && p.has("l")) || p.get("r") == "" {
		return api.Reject("Invalid League ID or no round passed"), nil
	}
	id, ok := p.id("id")
	if !ok {
		return api.None, nil
	}
	round, err := strconv.ParseUint(p.get("r"), 10, 31)
	if err != nil {
		return api.None, nil
	}
	s, ok := p.text("s")
	if !ok {
		return api.None, nil
	}
	q := api.Where(api.Eq("idLeague", id), api.Eq("intRound", strconv.FormatUint(round, 10)), api.Eq("strSeason", s))
	recs, err := r.Find(q)
	return api.Records(recs), err
}

// eventsTV answers TV listings in exactly one form: d (with s, or s and a), or c (part of a
// channel name), or id (a channel id). Another combination is not allowed: empty body.
// Listings by channel start at today's UTC date.
func eventsTV(r *api.Request, p params) (api.Answer, error) {
	sent := func(k string) bool { return p.get(k) != "" }
	d, c, id, s, a := sent("d"), sent("c"), sent("id"), sent("s"), sent("a")
	forms := 0
	for _, f := range []bool{d, c, id} {
		if f {
			forms++
		}
	}
	switch {
	case forms == 0 && !s && !a:
		return api.None, nil
	case forms != 1 || (a && !s) || (!d && (s || a)):
		return api.EmptyBody, nil
	}
	var conds []store.Cond
	today := func() string {
		now := r.Now()
		clock.Until(r.Ctx, clock.NextMidnight(now)) // today's listings drop out then
		return now.Format(time.DateOnly)
	}
	switch {
	case d:
		day, ok := p.date("d")
		if !ok {
			return api.None, nil
		}
		more, ok := nameConds(p, map[string]string{"s": "strSport", "a": "strCountry"}, "s", "a")
		if !ok {
			return api.None, nil
		}
		conds = append([]store.Cond{api.Eq("dateEvent", day)}, more...)
	case c:
		name, ok := p.name("c")
		if !ok {
			return api.None, nil
		}
		conds = []store.Cond{api.ContainsName("strChannel", name), api.Compare("dateEvent", store.Ge, today())}
	default:
		ch, ok := p.id("id")
		if !ok {
			return api.None, nil
		}
		conds = []store.Cond{api.Eq("idChannel", ch), api.Compare("dateEvent", store.Ge, today())}
	}
	recs, err := r.Find(api.Where(conds...))
	return api.Records(recs), err
}

// highlights answers the highlight videos listed on day d, optionally of league l (an id)
// and sport s.
func highlights(r *api.Request, p params) (api.Answer, error) {
	d, ok := p.date("d")
	if !ok {
		return api.None, nil
	}
	conds := []store.Cond{api.Eq("dateEvent", d)}
	if p.get("l") != "" {
		id, ok := p.id("l")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.Eq("idLeague", id))
	}
	sport, ok := nameConds(p, map[string]string{"s": "strSport"}, "s")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(append(conds, sport...)...))
	return api.Records(recs), err
}

// livescore answers the whole live feed, or one sport's. v1 ignores l (the public service
// does); the older premium feed (byLeague) narrows to league l.
func livescore(byLeague bool) answerFunc {
	return func(r *api.Request, p params) (api.Answer, error) {
		conds, ok := nameConds(p, map[string]string{"s": "strSport"}, "s")
		if !ok {
			return api.None, nil
		}
		if byLeague && p.get("l") != "" {
			id, ok := p.id("l")
			if !ok {
				return api.None, nil
			}
			conds = append(conds, api.Eq("idLeague", id))
		}
		q := api.Where(conds...)
		if len(conds) == 0 {
			q = api.Sorted(q, api.LiveByID...) // the whole feed, as recorded
		}
		recs, err := r.Find(q)
		return api.Records(recs), err
	}
}
