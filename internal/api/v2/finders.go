package v2

import (
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Answer functions of the v2 rows. Each reads its path parameters (args, already checked)
// and the row's kind and cap from the request.

// byID answers a lookup of one record by its id.
func byID(r *api.Request, a args) (api.Answer, error) {
	recs, err := r.Get(r.Kind, a.id)
	return api.Records(recs), err
}

// children answers the records whose field holds the id (a player's honours, an event's
// lineup), in the row's order.
func children(field string) answerFunc {
	return func(r *api.Request, a args) (api.Answer, error) {
		recs, err := r.Find(api.Where(api.Eq(field, a.id)))
		return api.Records(recs), err
	}
}

// every answers every record of the row's kind, in the order they were stored.
func every(r *api.Request, _ args) (api.Answer, error) {
	recs, err := r.Find(store.Query{})
	return api.Records(recs), err
}

// nameMatch is a name field searched exactly or loosely: Name fields by Eq and Contains,
// List fields (comma separated alternates) by ListHas and ListContains.
type nameMatch struct {
	field string
	norm  record.Norm
}

func (m nameMatch) cond(v string, exact bool) store.Cond {
	op := store.Eq
	switch {
	case m.norm == record.List && exact:
		op = store.ListHas
	case m.norm == record.List:
		op = store.ListContains
	case !exact:
		op = store.Contains
	}
	return store.Cond{Field: m.field, Norm: m.norm, Op: op, Value: v}
}

// search answers names: records whose name (or an alternate) equals the searched name come
// first, then those that contain it (when loose), each group in stored order.
func search(loose bool, fields ...nameMatch) answerFunc {
	return func(r *api.Request, a args) (api.Answer, error) {
		passes := []bool{true}
		if loose {
			passes = append(passes, false)
		}
		qs := make([]store.Query, 0, len(passes))
		for _, exact := range passes {
			conds := make([]store.Cond, 0, len(fields))
			for _, f := range fields {
				conds = append(conds, f.cond(a.name, exact))
			}
			qs = append(qs, api.Where(api.Or(conds...)))
		}
		recs, err := r.FindFirst(qs...)
		return api.Records(recs), err
	}
}

// highlight answers the event itself, in lookup/event's view, as the public service's
// lookup/event_highlights/441613 did (the event's 49 fields, its strVideo empty). A stored
// highlight of the event fills the fields the event lacks (its video); an event known only
// from a highlight is answered with the highlight's fields.
func highlight(r *api.Request, a args) (api.Answer, error) {
	evs, err := r.Get(record.Event, a.id)
	if err != nil {
		return api.None, err
	}
	hs, err := r.Get(record.Highlight, a.id)
	if err != nil || (len(evs) == 0 && len(hs) == 0) {
		return api.None, err
	}
	ev := record.Event.NewRecord()
	if len(evs) > 0 {
		// Decoded, then copied: ev is changed below.
		d, err := evs[0].Decoded()
		if err != nil {
			return api.None, err
		}
		ev = d.Clone()
	}
	if len(hs) > 0 {
		for _, f := range record.Highlight.Fields {
			if record.Event.Has(f) && ev.Get(f).Empty() && !hs[0].Get(f).Empty() {
				ev.Set(f, hs[0].Get(f))
			}
		}
	}
	return api.Records([]record.Record{ev}), nil
}

// Where an event takes part: its league, either team, or its venue.
func inLeague(a args) store.Cond { return api.Eq("idLeague", a.id) }
func ofTeam(a args) store.Cond   { return api.Or(api.Eq("idHomeTeam", a.id), api.Eq("idAwayTeam", a.id)) }
func atVenue(a args) store.Cond  { return api.Eq("idVenue", a.id) }

// next answers the events of a selection that have not started (api.Request.NextEvents).
func next(where func(args) store.Cond) answerFunc {
	return func(r *api.Request, a args) (api.Answer, error) {
		recs, err := r.NextEvents(where(a))
		return api.Records(recs), err
	}
}

// previous answers the events of a selection that have started (api.Request.PreviousEvents).
func previous(where func(args) store.Cond) answerFunc {
	return func(r *api.Request, a args) (api.Answer, error) {
		recs, err := r.PreviousEvents(where(a))
		return api.Records(recs), err
	}
}

// fullSchedule answers a team's events in every competition, latest first, as the public
// answer does (its recording holds one team's 48 events, future and past, in that order);
// over the cap the latest are kept.
func fullSchedule(r *api.Request, a args) (api.Answer, error) {
	recs, err := r.Find(api.Where(ofTeam(a)))
	return api.Records(recs), err
}

// leagueSeason answers every event of a league's season in time order.
func leagueSeason(r *api.Request, a args) (api.Answer, error) {
	recs, err := r.Find(api.Where(inLeague(a), api.Eq("strSeason", a.season)))
	return api.Records(recs), err
}

// tvOn answers every TV listing of a day (in the row's order, by id, as recorded).
func tvOn(r *api.Request, a args) (api.Answer, error) {
	recs, err := r.Find(api.Where(api.Eq("dateEvent", a.date)))
	return api.Records(recs), err
}

// tvFrom answers TV listings from today (UTC, by the server's clock) on, by id
// (ours: the listings a viewer can still watch; the public service shows about a week).
func tvFrom(where func(args) store.Cond) answerFunc {
	return func(r *api.Request, a args) (api.Answer, error) {
		now := r.Now()
		clock.Until(r.Ctx, clock.NextMidnight(now)) // today's listings drop out then
		today := api.Compare("dateEvent", store.Ge, now.Format(time.DateOnly))
		recs, err := r.Find(api.Where(where(a), today))
		return api.Records(recs), err
	}
}

func tvCountry(a args) store.Cond   { return api.EqName("strCountry", a.name) }
func tvSport(a args) store.Cond     { return api.EqName("strSport", a.name) }
func tvChannelID(a args) store.Cond { return api.Eq("idChannel", a.id) }
func tvChannel(a args) store.Cond   { return api.ContainsName("strChannel", a.name) }

// livescore answers the games in play of a sport, or of a league when given an id.
func livescore(r *api.Request, a args) (api.Answer, error) {
	c := api.EqName("strSport", a.name)
	if a.id != "" {
		c = api.Eq("idLeague", a.id)
	}
	recs, err := r.Find(api.Where(c))
	return api.Records(recs), err
}
