// Package calendar writes the events of a team or a league as an iCalendar subscription
// (RFC 5545): one VEVENT per event, with a stable UID, the start in UTC, an end at the start
// plus the sport's duration, the score once played, the venue, CANCELLED for postponed and
// cancelled events, and a LAST-MODIFIED and SEQUENCE that move when the event does. The
// body depends only on the stored records, the tier and the clock, so every replica writes
// the same bytes and an ETag holds across them.
package calendar

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Scope is what a calendar follows.
type Scope string

const (
	Team   Scope = "team"
	League Scope = "league"
)

// Scopes are the calendars the server answers, in the order it lists them.
var Scopes = []Scope{Team, League}

const (
	// FreeEvents is how many upcoming events a free key's calendar holds.
	FreeEvents = 15
	// MaxEvents is the server-wide ceiling of records in one answer, and so of events in a
	// calendar.
	MaxEvents = 10000
	// refresh is how often a subscribed client is asked to fetch the calendar again.
	refresh = "PT1H"
)

// Request names a calendar.
type Request struct {
	Scope Scope
	// ID is the team's or league's id in canonical form (api.ParseID).
	ID string
	// Season is the season to show; "" is the league's current season (for a team, that
	// of its league).
	Season string
	// Upcoming limits the calendar to the next FreeEvents events from Now (free keys);
	// otherwise it holds the whole season.
	Upcoming bool
	Now      time.Time
}

// Feed is a calendar ready to be written.
type Feed struct {
	// Name is the team's or league's name (X-WR-CALNAME).
	Name   string
	Season string
	Events []record.Record
	// Cut says the season held more than MaxEvents events: Events are its first MaxEvents,
	// and the calendar says so (X-SPORTSDB-CUT).
	Cut bool
}

// Load reads a calendar's events from the store. An unknown team or league is
// store.ErrNotFound.
func Load(ctx context.Context, st store.Records, req Request) (Feed, error) {
	var (
		feed   Feed
		owner  store.Cond
		league string
	)
	switch req.Scope {
	case Team:
		team, err := st.Get(ctx, record.Team, req.ID)
		if err != nil {
			return feed, fmt.Errorf("calendar of team %s: %w", req.ID, err)
		}
		feed.Name, league = team.Str("strTeam"), team.Str("idLeague")
		owner = store.Cond{Or: []store.Cond{eq("idHomeTeam", req.ID), eq("idAwayTeam", req.ID)}}
	case League:
		feed.Name, league = "", req.ID
		owner = eq("idLeague", req.ID)
	default:
		return feed, fmt.Errorf("calendar scope %q: %w", req.Scope, store.ErrNotFound)
	}
	season, name, err := currentSeason(ctx, st, league, req)
	if err != nil {
		return feed, err
	}
	if feed.Name == "" {
		feed.Name = name
	}
	feed.Season = season
	feed.Events, err = st.Find(ctx, eventsQuery(owner, season, req))
	if err != nil {
		return feed, fmt.Errorf("calendar of %s %s: %w", req.Scope, req.ID, err)
	}
	if len(feed.Events) > MaxEvents {
		feed.Events, feed.Cut = feed.Events[:MaxEvents], true
	}
	return feed, nil
}

// currentSeason is the season asked for, or the league's current one, with the league's
// name. A league calendar of an unknown league is ErrNotFound; a team whose league is not
// stored gets its events of every season when none is asked for.
func currentSeason(ctx context.Context, st store.Records, id string, req Request) (season, name string, err error) {
	if _, ok := api.ParseID(id); !ok {
		if req.Scope == League {
			return "", "", fmt.Errorf("calendar of league %q: %w", id, store.ErrNotFound)
		}
		return req.Season, "", nil
	}
	l, err := st.Get(ctx, record.League, id)
	switch {
	case err == nil:
	case req.Scope == Team && errors.Is(err, store.ErrNotFound):
		return req.Season, "", nil
	default:
		return "", "", fmt.Errorf("calendar of league %s: %w", id, err)
	}
	if req.Season != "" {
		return req.Season, l.Str("strLeague"), nil
	}
	return l.Str("strCurrentSeason"), l.Str("strLeague"), nil
}

// eventsQuery selects the season's events in time order, or its next FreeEvents from Now
// (compared on strTimestamp, as every "next" is).
func eventsQuery(owner store.Cond, season string, req Request) store.Query {
	// One more than MaxEvents: the one past the ceiling says the calendar was cut.
	q := store.Query{Kind: record.Event, Where: []store.Cond{owner}, Limit: MaxEvents + 1,
		OrderBy: []store.Order{{Field: "dateEvent"}, {Field: "strTimestamp"}}}
	if season != "" {
		q.Where = append(q.Where, eq("strSeason", season))
	}
	if req.Upcoming {
		q.Where = append(q.Where, store.Cond{Field: "strTimestamp", Op: store.NotEmpty},
			store.Cond{Field: "strTimestamp", Op: store.Ge, Value: req.Now.UTC().Format(api.TimestampLayout)})
		q.OrderBy, q.Limit = []store.Order{{Field: "strTimestamp"}}, FreeEvents
	}
	return q
}

func eq(field, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }

// ICS writes the calendar.
func (f Feed) ICS() []byte {
	w := &writer{b: make([]byte, 0, 512+400*len(f.Events))}
	w.prop("BEGIN", "VCALENDAR")
	w.prop("VERSION", "2.0")
	w.prop("PRODID", "-//sportsdb//calendar//EN")
	w.prop("CALSCALE", "GREGORIAN")
	w.prop("METHOD", "PUBLISH")
	w.text("X-WR-CALNAME", f.Name)
	w.text("NAME", f.Name)
	if f.Season != "" {
		w.text("X-WR-CALDESC", f.Name+" "+f.Season)
	}
	w.prop("REFRESH-INTERVAL;VALUE=DURATION", refresh)
	w.prop("X-PUBLISHED-TTL", refresh)
	if f.Cut {
		// A calendar client shows no such property; one reading the file learns that the
		// season goes on past the last event listed.
		w.text("X-SPORTSDB-CUT", "first "+itoa(MaxEvents)+" events of the season only")
	}
	for _, rec := range f.Events {
		if v, ok := eventOf(rec); ok {
			v.write(w)
		}
	}
	w.prop("END", "VCALENDAR")
	return w.b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
