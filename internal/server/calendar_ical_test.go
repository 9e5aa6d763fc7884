package server_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// python is Debian's interpreter, for which python3-icalendar is installed (a python3 on
// PATH may be another one).
const python = "/usr/bin/python3"

// requireICalendar skips without Debian's python3-icalendar, or fails under CI=true.
func requireICalendar(t *testing.T) {
	t.Helper()
	if err := exec.Command(python, "-c", "import icalendar").Run(); err != nil {
		testsupport.Unavailable(t, "no python3-icalendar (%v); install it with apt-get install python3-icalendar", err)
	}
}

type parsed struct {
	Name   string
	Events []struct {
		UID, Start, End, Summary, Location, Status string
		Sequence                                   int64
	}
}

// parse reads a body with the icalendar library; its own checks (UTC starts, ends after
// starts, STATUS and SEQUENCE values, unique UIDs) make it fail.
func parse(t *testing.T, body []byte) parsed {
	t.Helper()
	file := filepath.Join(t.TempDir(), "calendar.ics")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join("testdata", "icscheck.py"), file)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("icalendar refused the calendar: %v\n%s", err, stderr.String())
	}
	var p parsed
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("icscheck output: %v: %.300s", err, out)
	}
	return p
}

// A real calendar parser reads every calendar as written: the events asked for, in UTC,
// with text that survives escaping and folding.
func TestCalendarReadByICalendar(t *testing.T) {
	requireICalendar(t)
	env := apitest.New(t, apitest.Options{Demo: true})
	ctx := t.Context()
	// An event whose text needs escaping and folding, and one without a time.
	long := "Atlético Madrid; «Bayern München», BC Šiauliai \\ 🏟 " + strings.Repeat("Ünïcödé ", 12)
	odd := record.Event.NewRecord()
	for k, v := range map[string]string{"idEvent": "990001", "strEvent": long, "idLeague": "4328", "strSeason": "2026-2027",
		"strSport": "Soccer", "dateEvent": "2026-10-20", "strVenue": "Stade, \"Nord\"; Porte 3", "strCity": "Lille", "strCountry": "France"} {
		odd.Set(k, record.Str(v))
	}
	if err := env.Store.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, odd) }); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, key, scope, id string
		name0                string
	}{
		{"league premium", env.PremiumKey, "league", "4328", "English Premier League"},
		{"league free", env.FreeKey, "league", "4328", "English Premier League"},
		{"team premium", env.PremiumKey, "team", "133604", "Arsenal"},
		{"individual sport", env.PremiumKey, "league", "4370", "Formula 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := env.Get(t, calendarPath(tt.key, tt.scope, tt.id)).Body
			p := parse(t, body)
			if p.Name != tt.name0 {
				t.Errorf("X-WR-CALNAME %q, want %q", p.Name, tt.name0)
			}
			uids := uidsIn(body)
			if len(p.Events) != len(uids) || len(uids) == 0 {
				t.Fatalf("the parser read %d events, the body has %d", len(p.Events), len(uids))
			}
			for i, ev := range p.Events {
				if ev.UID != uids[i] {
					t.Errorf("event %d: UID %s, want %s", i, ev.UID, uids[i])
				}
			}
			if tt.key != env.PremiumKey || tt.scope != "league" || tt.id != "4328" {
				return
			}
			found := false
			for _, ev := range p.Events {
				if ev.UID == "990001@sportsdb" {
					found = true
					if ev.Summary != long || ev.Location != `Stade, "Nord"; Porte 3, Lille, France` || ev.Start != "2026-10-20" || ev.End != "2026-10-21" {
						t.Errorf("the event with odd text came back as %+v", ev)
					}
				}
			}
			if !found {
				t.Error("the event with odd text is missing")
			}
		})
	}
}

// uidsIn lists the UIDs of a body in order, as written.
func uidsIn(body []byte) []string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(string(body), "\r\n ", ""), "\r\n") {
		if v, ok := strings.CutPrefix(line, "UID:"); ok {
			out = append(out, v)
		}
	}
	return out
}
