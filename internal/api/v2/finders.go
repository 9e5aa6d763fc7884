package v2

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// env is what a finder reads besides its arguments.
type env struct {
	st  store.Records
	clk clock.Clock
}

// now reads the clock for an answer that depends on it; the finder then declares until when
// its answer stays right (clock.Until, api.UntilStarts).
func (e env) now(ctx context.Context) time.Time { return clock.Read(ctx, e.clk).UTC() }

// finder fetches the records of one endpoint, at most limit of them.
type finder func(ctx context.Context, e env, a args, limit int) ([]record.Record, error)

// cond builders, so the route table reads as data.
func eq(field string, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }
func eqName(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Eq, Value: v}
}
func anyOf(cs ...store.Cond) store.Cond { return store.Cond{Or: cs} }

// find runs one query and wraps its error with the kind asked for.
func find(ctx context.Context, e env, q store.Query) ([]record.Record, error) {
	recs, err := e.st.Find(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", q.Kind.Name, err)
	}
	return recs, nil
}

// byID answers a lookup of one record by its id.
func byID(k *record.Kind) finder {
	return func(ctx context.Context, e env, a args, _ int) ([]record.Record, error) {
		r, err := e.st.Get(ctx, k, a.id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("get %s %s: %w", k.Name, a.id, err)
		}
		return []record.Record{r}, nil
	}
}

// children answers the records whose field holds the id (a player's honours, an event's
// lineup), in the order they were stored, or in the order given.
func children(k *record.Kind, field string, order ...store.Order) finder {
	return func(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
		return find(ctx, e, store.Query{Kind: k, Where: []store.Cond{eq(field, a.id)}, OrderBy: order, Limit: limit})
	}
}

// every answers every record of a kind, in the order they were stored.
func every(k *record.Kind) finder {
	return func(ctx context.Context, e env, _ args, limit int) ([]record.Record, error) {
		return find(ctx, e, store.Query{Kind: k, Limit: limit})
	}
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
func search(k *record.Kind, loose bool, fields ...nameMatch) finder {
	return func(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
		passes := []bool{true}
		if loose {
			passes = append(passes, false)
		}
		var out []record.Record
		seen := map[string]bool{}
		for _, exact := range passes {
			if len(out) >= limit {
				break // exact matches filled the answer: the loose pass would only scan
			}
			var or []store.Cond
			for _, f := range fields {
				or = append(or, f.cond(a.name, exact))
			}
			recs, err := find(ctx, e, store.Query{Kind: k, Where: []store.Cond{anyOf(or...)}, Limit: limit})
			if err != nil {
				return nil, err
			}
			for _, r := range recs {
				id, _ := r.ID()
				if len(out) < limit && !seen[id] {
					seen[id] = true
					out = append(out, r)
				}
			}
		}
		return out, nil
	}
}

// highlight answers an event's highlight video: the highlight record when one was stored,
// else the event itself when it carries a video (ours: the event holds the same URL).
func highlight(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
	recs, err := byID(record.Highlight)(ctx, e, a, limit)
	if err != nil || len(recs) > 0 {
		return recs, err
	}
	evs, err := byID(record.Event)(ctx, e, a, limit)
	if err != nil || len(evs) == 0 || evs[0].Get("strVideo").Empty() {
		return nil, err
	}
	h := record.Highlight.NewRecord()
	for _, f := range record.Highlight.Fields {
		if record.Event.Has(f) {
			h.Set(f, evs[0].Get(f))
		}
	}
	return []record.Record{h}, nil
}

func byTimestamp(desc bool) []store.Order {
	return []store.Order{{Field: "strTimestamp", Desc: desc}}
}

// Where an event takes part: its league, either team, or its venue.
func inLeague(a args) store.Cond { return eq("idLeague", a.id) }
func ofTeam(a args) store.Cond   { return anyOf(eq("idHomeTeam", a.id), eq("idAwayTeam", a.id)) }
func atVenue(a args) store.Cond  { return eq("idVenue", a.id) }

// next answers the events that start after now, soonest first. The answer stands until the
// first of them starts.
func next(where func(args) store.Cond) finder {
	return func(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
		recs, err := upcoming(ctx, e, where(a), e.now(ctx).Format(api.TimestampLayout), limit)
		if err == nil {
			api.UntilStarts(ctx, recs, false)
		}
		return recs, err
	}
}

// previous answers the events that started at or before now, latest first. The answer stands
// until the next event of the same selection starts.
func previous(where func(args) store.Cond) finder {
	return func(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
		now := e.now(ctx).Format(api.TimestampLayout)
		recs, err := find(ctx, e, store.Query{Kind: record.Event, Limit: limit, OrderBy: byTimestamp(true),
			Where: []store.Cond{where(a), {Field: "strTimestamp", Op: store.NotEmpty},
				{Field: "strTimestamp", Op: store.Le, Value: now}}})
		if err != nil {
			return nil, err
		}
		after, err := upcoming(ctx, e, where(a), now, 1)
		if err != nil {
			return nil, err
		}
		api.UntilStarts(ctx, after, false)
		return recs, nil
	}
}

// upcoming reads the events of a selection that start after now (in strTimestamp's form),
// soonest first.
func upcoming(ctx context.Context, e env, where store.Cond, now string, limit int) ([]record.Record, error) {
	return find(ctx, e, store.Query{Kind: record.Event, Limit: limit, OrderBy: byTimestamp(false),
		Where: []store.Cond{where, {Field: "strTimestamp", Op: store.Gt, Value: now}}})
}

// fullSchedule answers a team's events in every competition, oldest first. When the team
// has more than the cap, the latest ones are kept (ours): every future game and the recent
// past, which is what a schedule is read for.
func fullSchedule(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
	recs, err := find(ctx, e, store.Query{Kind: record.Event, Where: []store.Cond{ofTeam(a)},
		OrderBy: byTimestamp(true), Limit: limit})
	slices.Reverse(recs)
	return recs, err
}

// leagueSeason answers every event of a league's season in time order.
func leagueSeason(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
	return find(ctx, e, store.Query{Kind: record.Event, Limit: limit, OrderBy: byTimestamp(false),
		Where: []store.Cond{inLeague(a), eq("strSeason", a.season)}})
}

// tvOn answers every TV listing of a day in time order.
func tvOn(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
	return find(ctx, e, store.Query{Kind: record.TV, Limit: limit,
		Where: []store.Cond{eq("dateEvent", a.date)}, OrderBy: tvOrder})
}

var tvOrder = []store.Order{{Field: "strTimeStamp"}}

// tvFrom answers TV listings from today (UTC, by the server's clock) on, in time order
// (ours: the listings a viewer can still watch; the public service shows about a week).
func tvFrom(where func(args) store.Cond) finder {
	return func(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
		now := e.now(ctx)
		clock.Until(ctx, clock.NextMidnight(now)) // today's listings drop out then
		return find(ctx, e, store.Query{Kind: record.TV, Limit: limit, OrderBy: tvOrder,
			Where: []store.Cond{where(a), {Field: "dateEvent", Op: store.Ge, Value: now.Format(time.DateOnly)}}})
	}
}

func tvCountry(a args) store.Cond { return eqName("strCountry", a.name) }
func tvSport(a args) store.Cond   { return eqName("strSport", a.name) }
func tvChannelID(a args) store.Cond {
	return eq("idChannel", a.id)
}
func tvChannel(a args) store.Cond {
	return store.Cond{Field: "strChannel", Norm: record.Name, Op: store.Contains, Value: a.name}
}

// livescore answers the games in play of a sport, or of a league when given an id.
func livescore(ctx context.Context, e env, a args, limit int) ([]record.Record, error) {
	c := eqName("strSport", a.name)
	if a.id != "" {
		c = eq("idLeague", a.id)
	}
	return find(ctx, e, store.Query{Kind: record.LiveScore, Where: []store.Cond{c}, Limit: limit})
}
