package calendar

import (
	"hash/crc32"
	"strings"
	"time"

	"sportsdb/internal/record"
)

// vevent is one event as its VEVENT shows it.
type vevent struct {
	uid      string
	start    time.Time
	end      time.Time
	allDay   bool // start and end are DATE values (the event has no known time)
	summary  string
	location string
	about    string // DESCRIPTION
	// cancelled: postponed, cancelled or abandoned (STATUS:CANCELLED).
	cancelled bool
	// result: the event is over and its score is in the summary.
	result bool
}

// durations is how long an event of each sport is shown to last: kick-off to final whistle
// with breaks, rounded up to the half hour (lower-case sport names). Other sports last
// defaultDuration.
var durations = map[string]time.Duration{
	"soccer":            2 * time.Hour,
	"rugby":             2 * time.Hour,
	"motorsport":        2 * time.Hour,
	"basketball":        150 * time.Minute,
	"ice hockey":        150 * time.Minute,
	"baseball":          3 * time.Hour,
	"american football": 210 * time.Minute,
	"fighting":          4 * time.Hour,
	"golf":              6 * time.Hour,
}

const defaultDuration = 2 * time.Hour

// Duration is how long an event of sport is shown to last.
func Duration(sport string) time.Duration {
	if d, ok := durations[strings.ToLower(strings.TrimSpace(sport))]; ok {
		return d
	}
	return defaultDuration
}

// eventOf reads a stored event. ok is false for an event with neither a time nor a date,
// which no VEVENT can hold.
func eventOf(rec record.Record) (vevent, bool) {
	v := vevent{uid: rec.Str("idEvent") + "@sportsdb"}
	var ok bool
	if v.start, v.allDay, ok = startOf(rec); !ok {
		return v, false
	}
	if v.allDay {
		v.end = v.start.AddDate(0, 0, 1)
	} else {
		v.end = v.start.Add(Duration(rec.Str("strSport")))
	}
	status := strings.ToUpper(strings.TrimSpace(rec.Str("strStatus")))
	offNote := calledOff(status, rec.Str("strPostponed"))
	v.cancelled = offNote != ""
	v.result = !v.cancelled && !pendingOrInPlay(status) &&
		!rec.Get("intHomeScore").Empty() && !rec.Get("intAwayScore").Empty()
	v.summary = summary(rec, v.result)
	if offNote != "" {
		v.summary += " (" + offNote + ")"
	}
	v.location = joinNonEmpty(rec.Str("strVenue"), rec.Str("strCity"), rec.Str("strCountry"))
	v.about = describe(rec)
	return v, true
}

// startOf is when an event starts: strTimestamp in UTC, or, when the time is not known
// (no strTimestamp, or strStatus TBD: time to be defined), the date alone.
func startOf(rec record.Record) (t time.Time, allDay, ok bool) {
	ts := strings.TrimSpace(rec.Str("strTimestamp"))
	if t, ok := parseTimestamp(ts); ok && !strings.EqualFold(rec.Str("strStatus"), "TBD") {
		return t.UTC(), false, true
	}
	date := strings.TrimSpace(rec.Str("dateEvent"))
	if date == "" && len(ts) >= len(time.DateOnly) {
		date = ts[:len(time.DateOnly)]
	}
	d, err := time.ParseInLocation(time.DateOnly, date, time.UTC)
	return d, true, err == nil
}

// timestampLayouts are the forms strTimestamp takes: UTC without an offset (what the public
// service sends), and with one.
var timestampLayouts = []string{"2006-01-02T15:04:05", time.RFC3339, "2006-01-02 15:04:05"}

func parseTimestamp(s string) (time.Time, bool) {
	for _, l := range timestampLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// calledOff names why an event will not take place as scheduled (the strStatus codes of
// postponed, cancelled and abandoned events, or strPostponed "yes"), or is "".
func calledOff(status, postponed string) string {
	switch status {
	case "PST", "POST":
		return "postponed"
	case "CANC":
		return "cancelled"
	case "ABD":
		return "abandoned"
	}
	if strings.EqualFold(strings.TrimSpace(postponed), "yes") {
		return "postponed"
	}
	return ""
}

// pendingOrInPlay says whether a strStatus code is one of a game not started, in play or
// suspended: its scores, if any, are not a result. Any other code, or none (older events
// carry none, even with a final score), leaves the scores as the result.
func pendingOrInPlay(status string) bool {
	switch status {
	case "NS", "TBD", "1H", "HT", "2H", "ET", "BT", "P", "PT", "OT", "SO", "SUSP", "INT", "INTR":
		return true
	}
	for _, p := range []struct {
		prefix string
		max    byte
	}{{"Q", '4'}, {"P", '3'}, {"IN", '9'}, {"S", '5'}} {
		if len(status) == len(p.prefix)+1 && strings.HasPrefix(status, p.prefix) &&
			status[len(p.prefix)] >= '1' && status[len(p.prefix)] <= p.max {
			return true
		}
	}
	return false
}

// summary is strEvent, or "Home 2-1 Away" once the result is in.
func summary(rec record.Record, result bool) string {
	home, away := rec.Str("strHomeTeam"), rec.Str("strAwayTeam")
	if result && home != "" && away != "" {
		return home + " " + rec.Str("intHomeScore") + "-" + rec.Str("intAwayScore") + " " + away
	}
	if s := rec.Str("strEvent"); s != "" {
		return s
	}
	if home != "" && away != "" {
		return home + " vs " + away
	}
	return "Event " + rec.Str("idEvent")
}

// stages are the intRound codes that name a stage rather than a round number.
var stages = map[string]string{"125": "quarter-final", "150": "semi-final", "160": "playoff",
	"170": "playoff semi-final", "180": "playoff final", "200": "final", "400": "qualifier", "500": "pre-season"}

// describe is the DESCRIPTION: league, season and round.
func describe(rec record.Record) string {
	round := rec.Str("intRound")
	if name, ok := stages[round]; ok {
		round = name
	} else if round != "" && round != "0" {
		round = "round " + round
	} else {
		round = ""
	}
	return joinNonEmpty(rec.Str("strLeague"), rec.Str("strSeason"), round)
}

func joinNonEmpty(parts ...string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ", ")
}

// revisionEpoch is SEQUENCE 0.
var revisionEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// revision is the event's LAST-MODIFIED and SEQUENCE. The store keeps no modification time
// and no history, so both are computed from what the VEVENT shows, the same way on every
// replica: an identical re-import leaves them as they are, and a new start, status, result,
// venue or name moves them. The instant is
//
//   - the start, while the event is scheduled (or in play: a live score is not shown);
//   - the start plus one minute once it is postponed, cancelled or abandoned;
//   - the end (start plus the sport's duration) once the result is in;
//
// plus 0 to 59 seconds read from the summary and location text (CRC-32 modulo 60), so a
// change of venue or name alone moves it too. SEQUENCE is that instant in seconds since
// 2000-01-01T00:00:00Z (0 before; a 32-bit INTEGER holds it until 2068). It grows as an
// event goes from scheduled to called off or played, and with a later start; without a
// history, a start moved earlier gives a smaller value.
func (v vevent) revision() (modified time.Time, sequence int64) {
	at := v.start
	switch {
	case v.cancelled:
		at = at.Add(time.Minute)
	case v.result:
		at = v.end
	}
	text := crc32.ChecksumIEEE([]byte(v.summary + "\n" + v.location))
	at = at.Add(time.Duration(text%60) * time.Second)
	return at, max(0, int64(at.Sub(revisionEpoch)/time.Second))
}

// write appends the VEVENT.
func (v vevent) write(w *writer) {
	modified, seq := v.revision()
	w.prop("BEGIN", "VEVENT")
	w.text("UID", v.uid)
	// DTSTAMP is the revision too, not the moment of the request: the same data gives the
	// same body, which the ETag needs.
	w.stamp("DTSTAMP", modified)
	if v.allDay {
		w.date("DTSTART", v.start)
		w.date("DTEND", v.end)
	} else {
		w.stamp("DTSTART", v.start)
		w.stamp("DTEND", v.end)
	}
	w.text("SUMMARY", v.summary)
	if v.location != "" {
		w.text("LOCATION", v.location)
	}
	if v.about != "" {
		w.text("DESCRIPTION", v.about)
	}
	status := "CONFIRMED"
	if v.cancelled {
		status = "CANCELLED"
	}
	w.prop("STATUS", status)
	w.stamp("LAST-MODIFIED", modified)
	w.prop("SEQUENCE", itoa(seq))
	w.prop("END", "VEVENT")
}
