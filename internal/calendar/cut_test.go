package calendar_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/calendar"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// seasonOf is a store of one league whose season holds n events (only Get and Find answer).
type seasonOf struct {
	store.Records
	n int
}

func (s seasonOf) Get(_ context.Context, k *record.Kind, id string) (record.Record, error) {
	return rec(record.League, "idLeague", id, "strLeague", "Big League", "strCurrentSeason", "2026"), nil
}

func (s seasonOf) Find(_ context.Context, q store.Query) ([]record.Record, error) {
	n := s.n
	if q.Limit > 0 && q.Limit < n {
		n = q.Limit
	}
	out := make([]record.Record, n)
	for i := range out {
		out[i] = rec(record.Event, "idEvent", strconv.Itoa(i+1), "strEvent", "E"+strconv.Itoa(i+1),
			"dateEvent", "2026-10-05", "strTimestamp", "2026-10-05T12:00:00", "strSport", "Soccer")
	}
	return out, nil
}

// A season of more events than a calendar holds is cut at MaxEvents, and the calendar says
// so; one that fits whole says nothing.
func TestCalendarSaysWhenItWasCut(t *testing.T) {
	for _, tc := range []struct {
		events int
		cut    bool
	}{{calendar.MaxEvents, false}, {calendar.MaxEvents + 1, true}, {calendar.MaxEvents + 2000, true}} {
		feed, err := calendar.Load(context.Background(), seasonOf{n: tc.events}, calendar.Request{Scope: calendar.League, ID: "4328"})
		if err != nil {
			t.Fatal(err)
		}
		ics := string(feed.ICS())
		if n := strings.Count(ics, "BEGIN:VEVENT\r\n"); n != min(tc.events, calendar.MaxEvents) {
			t.Errorf("%d events stored: %d in the calendar", tc.events, n)
		}
		said := strings.Contains(ics, "\r\nX-SPORTSDB-CUT:first 10000 events of the season only\r\n")
		if said != tc.cut || feed.Cut != tc.cut {
			t.Errorf("%d events stored: cut said %v, Cut %v; want %v", tc.events, said, feed.Cut, tc.cut)
		}
	}
}
