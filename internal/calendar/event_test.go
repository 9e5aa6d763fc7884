package calendar

import (
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
)

type recordT = record.Record

// event is a soccer event at 2026-10-05 19:45 UTC, changed by fields.
func event(fields map[string]string) record.Record {
	rec := record.Event.NewRecord()
	base := map[string]string{"idEvent": "441613", "strTimestamp": "2026-10-05T19:45:00", "dateEvent": "2026-10-05",
		"strSport": "Soccer", "strEvent": "Arsenal vs Chelsea", "strHomeTeam": "Arsenal", "strAwayTeam": "Chelsea",
		"strVenue": "Emirates Stadium", "strCity": "London", "strCountry": "England", "strStatus": "NS",
		"strLeague": "English Premier League", "strSeason": "2026-2027", "intRound": "7"}
	for k, v := range fields {
		base[k] = v
	}
	for k, v := range base {
		if v == "<null>" {
			rec.Set(k, record.Null)
			continue
		}
		rec.Set(k, record.Str(v))
	}
	return rec
}

// vevent writes one event's VEVENT.
func veventText(t *testing.T, rec record.Record) string {
	t.Helper()
	v, ok := eventOf(rec)
	if !ok {
		t.Fatalf("event %v has no VEVENT", rec)
	}
	w := &writer{}
	v.write(w)
	return unfold(string(w.b))
}

func TestStartIsUTCDateTimeOrADate(t *testing.T) {
	tests := []struct {
		name   string
		fields map[string]string
		start  string
		end    string
	}{
		{"timestamp", nil, "DTSTART:20261005T194500Z", "DTEND:20261005T214500Z"},
		{"timestamp with an offset", map[string]string{"strTimestamp": "2026-10-05T21:45:00+02:00"},
			"DTSTART:20261005T194500Z", "DTEND:20261005T214500Z"},
		{"no time: a date", map[string]string{"strTimestamp": "", "strTime": ""},
			"DTSTART;VALUE=DATE:20261005", "DTEND;VALUE=DATE:20261006"},
		{"null timestamp", map[string]string{"strTimestamp": "<null>"},
			"DTSTART;VALUE=DATE:20261005", "DTEND;VALUE=DATE:20261006"},
		{"time to be defined", map[string]string{"strStatus": "TBD", "strTimestamp": "2026-10-05T00:00:00"},
			"DTSTART;VALUE=DATE:20261005", "DTEND;VALUE=DATE:20261006"},
		{"basketball lasts 2.5 h", map[string]string{"strSport": "Basketball"},
			"DTSTART:20261005T194500Z", "DTEND:20261005T221500Z"},
		{"unknown sport: the default", map[string]string{"strSport": "Curling"},
			"DTSTART:20261005T194500Z", "DTEND:20261005T214500Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := veventText(t, event(tt.fields))
			if !strings.Contains(got, tt.start+"\r\n") || !strings.Contains(got, tt.end+"\r\n") {
				t.Fatalf("want %s and %s in\n%s", tt.start, tt.end, got)
			}
		})
	}
	if _, ok := eventOf(event(map[string]string{"strTimestamp": "", "dateEvent": ""})); ok {
		t.Fatal("an event with neither time nor date got a VEVENT")
	}
}

func TestDurationTable(t *testing.T) {
	for sport, want := range map[string]time.Duration{"Soccer": 2 * time.Hour, "American Football": 210 * time.Minute,
		"Ice Hockey": 150 * time.Minute, "Golf": 6 * time.Hour, "Handball": defaultDuration, "": defaultDuration} {
		if got := Duration(sport); got != want {
			t.Errorf("Duration(%q) = %v, want %v", sport, got, want)
		}
	}
}

func TestSummaryStatusAndLocation(t *testing.T) {
	tests := []struct {
		name   string
		fields map[string]string
		want   []string
	}{
		{"scheduled", nil, []string{"SUMMARY:Arsenal vs Chelsea\r\n", "STATUS:CONFIRMED\r\n",
			`LOCATION:Emirates Stadium\, London\, England` + "\r\n", `DESCRIPTION:English Premier League\, 2026-2027\, round 7`}},
		{"played", map[string]string{"strStatus": "FT", "intHomeScore": "2", "intAwayScore": "1"},
			[]string{"SUMMARY:Arsenal 2-1 Chelsea\r\n", "STATUS:CONFIRMED\r\n"}},
		{"older event without a status", map[string]string{"strStatus": "<null>", "intHomeScore": "0", "intAwayScore": "3"},
			[]string{"SUMMARY:Arsenal 0-3 Chelsea\r\n"}},
		{"in play: no live score", map[string]string{"strStatus": "2H", "intHomeScore": "1", "intAwayScore": "0"},
			[]string{"SUMMARY:Arsenal vs Chelsea\r\n", "STATUS:CONFIRMED\r\n"}},
		{"postponed (soccer code)", map[string]string{"strStatus": "PST"},
			[]string{"SUMMARY:Arsenal vs Chelsea (postponed)\r\n", "STATUS:CANCELLED\r\n"}},
		{"postponed (other sports)", map[string]string{"strStatus": "POST"}, []string{"STATUS:CANCELLED\r\n"}},
		{"postponed flag", map[string]string{"strStatus": "<null>", "strPostponed": "yes"}, []string{"STATUS:CANCELLED\r\n"}},
		{"cancelled", map[string]string{"strStatus": "CANC"}, []string{"SUMMARY:Arsenal vs Chelsea (cancelled)\r\n", "STATUS:CANCELLED\r\n"}},
		{"abandoned with a score", map[string]string{"strStatus": "ABD", "intHomeScore": "1", "intAwayScore": "1"},
			[]string{"SUMMARY:Arsenal vs Chelsea (abandoned)\r\n", "STATUS:CANCELLED\r\n"}},
		{"final stage", map[string]string{"intRound": "200"}, []string{`DESCRIPTION:English Premier League\, 2026-2027\, final`}},
		{"no venue", map[string]string{"strVenue": "", "strCity": "<null>"}, []string{"LOCATION:England\r\n"}},
		{"UID", nil, []string{"UID:441613@sportsdb\r\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := veventText(t, event(tt.fields))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in\n%s", w, got)
				}
			}
		})
	}
}

func TestRevisionMovesWithTheEventAndOnlyThen(t *testing.T) {
	rev := func(fields map[string]string) (string, int64) {
		v, ok := eventOf(event(fields))
		if !ok {
			t.Fatal("no VEVENT")
		}
		m, seq := v.revision()
		return m.Format(utcLayout), seq
	}
	m0, s0 := rev(nil)
	if m1, s1 := rev(nil); m1 != m0 || s1 != s0 {
		t.Fatalf("the same event gave %s/%d then %s/%d", m0, s0, m1, s1)
	}
	// Fields a VEVENT does not show leave it as it is.
	if m1, s1 := rev(map[string]string{"strThumb": "https://x/y.jpg", "intSpectators": "60000"}); m1 != m0 || s1 != s0 {
		t.Fatalf("a field not shown moved the revision: %s/%d", m1, s1)
	}
	changes := []struct {
		name   string
		fields map[string]string
		later  bool // the lifecycle goes forward: SEQUENCE must grow
	}{
		{"kick-off a day later", map[string]string{"strTimestamp": "2026-10-06T19:45:00"}, true},
		{"kick-off an hour earlier", map[string]string{"strTimestamp": "2026-10-05T18:45:00"}, false},
		{"postponed", map[string]string{"strStatus": "PST"}, true},
		{"played", map[string]string{"strStatus": "FT", "intHomeScore": "2", "intAwayScore": "1"}, true},
		{"another venue", map[string]string{"strVenue": "Wembley Stadium"}, false},
	}
	for _, c := range changes {
		m1, s1 := rev(c.fields)
		if m1 == m0 || s1 == s0 {
			t.Errorf("%s: revision stayed %s/%d", c.name, m1, s1)
		}
		if c.later && s1 <= s0 {
			t.Errorf("%s: SEQUENCE went from %d to %d", c.name, s0, s1)
		}
	}
}
