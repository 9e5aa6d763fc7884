package records

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// The layouts of an event's times, as the public service writes them: strTimestamp
// "2014-12-29T20:00:00" is dateEvent and strTime (seconds included) in UTC.
const (
	dateLayout  = "2006-01-02"
	timeLayout  = "15:04:05"
	stampLayout = dateLayout + "T" + timeLayout
)

// onWrite is what the server keeps besides a record written: it runs once per record, inside
// the write's transaction, before the record is stored, and answers the record to store: its
// derived fields filled (derive), and for an event its live score entry kept
// (keepLiveScore). progress is an event's strProgress, which the event itself does not keep:
// "" leaves the entry's.
func onWrite(ctx context.Context, tx store.Tx, now time.Time, r record.Record, progress string) (record.Record, error) {
	named := &namedRecords{tx: tx}
	r, err := derive(ctx, named, r)
	if err != nil || r.Kind != record.Event {
		return r, err
	}
	return r, keepLiveScore(ctx, tx, named, now, r, progress)
}

// from is a derivation from the record an id field names: each pair of fields, the
// written record's and the named record's, fills the first from the second.
type from struct {
	id     string
	kind   *record.Kind
	fields [][2]string
}

// derivations are, by kind, the fields the recordings of the public service
// (testdata/recorded) show equal to those of the record an id names, in every record that
// has both: an event's league, sport and teams; a team's leagues and sport; a player's team
// and sport. A field is filled from the first derivation that has it.
var derivations = map[*record.Kind][]from{
	record.Event: {
		{"idLeague", record.League, [][2]string{{"strLeague", "strLeague"}, {"strLeagueBadge", "strBadge"}, {"strSport", "strSport"}}},
		{"idHomeTeam", record.Team, [][2]string{{"strHomeTeam", "strTeam"}, {"strHomeTeamBadge", "strBadge"}, {"strSport", "strSport"}}},
		{"idAwayTeam", record.Team, [][2]string{{"strAwayTeam", "strTeam"}, {"strAwayTeamBadge", "strBadge"}, {"strSport", "strSport"}}},
	},
	record.Team: {
		{"idLeague", record.League, [][2]string{{"strLeague", "strLeague"}, {"strSport", "strSport"}}},
		{"idLeague2", record.League, [][2]string{{"strLeague2", "strLeague"}}},
		{"idLeague3", record.League, [][2]string{{"strLeague3", "strLeague"}}},
		{"idLeague4", record.League, [][2]string{{"strLeague4", "strLeague"}}},
		{"idLeague5", record.League, [][2]string{{"strLeague5", "strLeague"}}},
		{"idLeague6", record.League, [][2]string{{"strLeague6", "strLeague"}}},
		{"idLeague7", record.League, [][2]string{{"strLeague7", "strLeague"}}},
	},
	record.Player: {
		{"idTeam", record.Team, [][2]string{{"strTeam", "strTeam"}, {"strSport", "strSport"}}},
	},
}

// derive fills a record's empty fields that the records its ids name give (derivations), as
// the transaction sees them, and an event's that its own fields give (deriveEvent). A field
// the writer set is kept as it is; what cannot be derived (an id naming no record, a date
// that is not one) stays empty.
func derive(ctx context.Context, named *namedRecords, r record.Record) (record.Record, error) {
	ds, ok := derivations[r.Kind]
	if !ok {
		return r, nil
	}
	out := r.Clone()
	for _, d := range ds {
		if out.Str(d.id) == "" || !anyEmpty(out, d.fields) {
			continue
		}
		src, err := named.read(ctx, d.kind, out.Str(d.id))
		if err != nil {
			return out, err
		}
		for _, f := range d.fields {
			fill(out, f[0], src.Str(f[1]))
		}
	}
	if out.Kind == record.Event {
		deriveEvent(out)
	}
	return out, nil
}

func anyEmpty(r record.Record, fields [][2]string) bool {
	for _, f := range fields {
		if r.Get(f[0]).Empty() {
			return true
		}
	}
	return false
}

// deriveEvent fills strTimestamp from dateEvent and strTime and back (deriveTimes), then
// strEvent ("Home vs Away"), strEventAlternate ("Away @ Home") and strFilename ("League
// YYYY-MM-DD" and the event's name), from the names as written or derived. dateEventLocal and
// strTimeLocal are not derived: the public service writes them in the venue's time zone,
// which no record holds.
func deriveEvent(ev record.Record) {
	deriveTimes(ev)
	home, away := ev.Str("strHomeTeam"), ev.Str("strAwayTeam")
	if home != "" && away != "" {
		fill(ev, "strEvent", home+" vs "+away)
		fill(ev, "strEventAlternate", away+" @ "+home)
	}
	if l, d, name := ev.Str("strLeague"), ev.Str("dateEvent"), ev.Str("strEvent"); l != "" && d != "" && name != "" {
		fill(ev, "strFilename", l+" "+d+" "+name)
	}
}

// deriveTimes fills strTimestamp from dateEvent and strTime ("20:00" or "20:00:00"), or
// dateEvent and strTime from strTimestamp, whichever side is empty and the other valid.
func deriveTimes(ev record.Record) {
	date, dateErr := time.Parse(dateLayout, ev.Str("dateEvent"))
	clock, clockErr := parseClock(ev.Str("strTime"))
	if dateErr == nil && clockErr == nil {
		fill(ev, "strTimestamp", date.Add(clock).Format(stampLayout))
	}
	if stamp, err := parseStamp(ev.Str("strTimestamp")); err == nil {
		fill(ev, "dateEvent", stamp.Format(dateLayout))
		fill(ev, "strTime", stamp.Format(timeLayout))
	}
}

// parseClock reads a time of day, "20:00:00" or "20:00", as the time since midnight.
func parseClock(s string) (time.Duration, error) {
	for _, layout := range []string{timeLayout, "15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Sub(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)), nil
		}
	}
	return 0, fmt.Errorf("not a time of day: %q", s)
}

// parseStamp reads a strTimestamp: the public service's form, with or without a zone
// (RFC 3339).
func parseStamp(s string) (time.Time, error) {
	if t, err := time.Parse(stampLayout, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	return t.UTC(), err
}

// fill sets field to v when the record leaves it empty and v is not.
func fill(r record.Record, field, v string) {
	if v != "" && r.Get(field).Empty() {
		r.Set(field, record.Str(v))
	}
}

// namedRecords reads, for the write of one record, the records its ids name (an event's
// league for its derived fields and again for its live score entry), each once.
type namedRecords struct {
	tx  store.Tx
	got map[namedKey]record.Record
}

type namedKey struct {
	kind *record.Kind
	id   string
}

// read returns the record of kind k with that id as the transaction sees it, or an empty
// record of the kind when id is empty or names none.
func (n *namedRecords) read(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	key := namedKey{k, id}
	if r, ok := n.got[key]; ok {
		return r, nil
	}
	none := k.NewRecord()
	if id == "" {
		return none, nil
	}
	rt, ok := n.tx.(store.ReadTx)
	if !ok {
		return none, errors.New("records: the store's transaction cannot read a record")
	}
	r, err := rt.Read(ctx, k, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		r = none
	case err != nil:
		return none, fmt.Errorf("records: read %s %s: %w", k.Name, id, err)
	}
	if n.got == nil {
		n.got = map[namedKey]record.Record{}
	}
	n.got[key] = r
	return r, nil
}
