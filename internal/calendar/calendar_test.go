package calendar_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/calendar"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

var now = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

func rec(k *record.Kind, fields ...string) record.Record {
	r := k.NewRecord()
	for i := 0; i+1 < len(fields); i += 2 {
		r.Set(fields[i], record.Str(fields[i+1]))
	}
	return r
}

// fixture: league 10 (current season 2026-2027) with team 1; team 2 of a league that is not
// stored; 40 events of team 1 a day apart around now, half in each of two seasons.
func fixture(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	recs := []record.Record{
		rec(record.League, "idLeague", "10", "strLeague", "Test League", "strSport", "Soccer", "strCurrentSeason", "2026-2027"),
		rec(record.Team, "idTeam", "1", "strTeam", "Home FC", "idLeague", "10"),
		rec(record.Team, "idTeam", "2", "strTeam", "Lost FC", "idLeague", "77"),
	}
	for i := range 40 {
		at := now.AddDate(0, 0, i-20)
		season := "2026-2027"
		if i%2 == 1 {
			season = "2025-2026"
		}
		recs = append(recs, rec(record.Event, "idEvent", fmt.Sprint(5000+i), "idLeague", "10", "strSeason", season,
			"strSport", "Soccer", "strEvent", "Home FC vs Lost FC", "idHomeTeam", "1", "idAwayTeam", "2",
			"strTimestamp", at.Format("2006-01-02T15:04:05"), "dateEvent", at.Format(time.DateOnly)))
	}
	err = st.Write(ctx, func(tx store.Tx) error {
		for _, r := range recs {
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestLoad(t *testing.T) {
	st := fixture(t)
	tests := []struct {
		name    string
		req     calendar.Request
		calName string
		season  string
		count   int
		first   string
	}{
		{"league, current season", calendar.Request{Scope: calendar.League, ID: "10"}, "Test League", "2026-2027", 20, "5000"},
		{"league, season asked", calendar.Request{Scope: calendar.League, ID: "10", Season: "2025-2026"}, "Test League", "2025-2026", 20, "5001"},
		{"team, its league's season", calendar.Request{Scope: calendar.Team, ID: "1"}, "Home FC", "2026-2027", 20, "5000"},
		{"team of a league not stored: every season", calendar.Request{Scope: calendar.Team, ID: "2"}, "Lost FC", "", 40, "5000"},
		{"upcoming: from now, at most 15", calendar.Request{Scope: calendar.Team, ID: "2", Upcoming: true}, "Lost FC", "", 15, "5020"},
		{"upcoming in a season", calendar.Request{Scope: calendar.League, ID: "10", Upcoming: true}, "Test League", "2026-2027", 10, "5020"},
		{"a season with no events", calendar.Request{Scope: calendar.League, ID: "10", Season: "1999"}, "Test League", "1999", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Now = now
			feed, err := calendar.Load(context.Background(), st, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if feed.Name != tt.calName || feed.Season != tt.season || len(feed.Events) != tt.count {
				t.Fatalf("got %q %q %d events, want %q %q %d", feed.Name, feed.Season, len(feed.Events), tt.calName, tt.season, tt.count)
			}
			if tt.count > 0 && feed.Events[0].Str("idEvent") != tt.first {
				t.Errorf("first event %s, want %s", feed.Events[0].Str("idEvent"), tt.first)
			}
			for i := 1; i < len(feed.Events); i++ {
				if feed.Events[i].Str("strTimestamp") < feed.Events[i-1].Str("strTimestamp") {
					t.Fatalf("events out of time order at %d", i)
				}
			}
			if got := strings.Count(string(feed.ICS()), "BEGIN:VEVENT"); got != tt.count {
				t.Errorf("%d VEVENTs, want %d", got, tt.count)
			}
		})
	}
}

func TestLoadUnknown(t *testing.T) {
	st := fixture(t)
	for _, req := range []calendar.Request{
		{Scope: calendar.Team, ID: "3"},
		{Scope: calendar.League, ID: "77"},
		{Scope: "player", ID: "1"},
	} {
		if _, err := calendar.Load(context.Background(), st, req); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%+v: %v, want ErrNotFound", req, err)
		}
	}
}
