package sportarr

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// A model is how Sportarr reads one kind of object: its field names, each taken from a field
// of a record. Sportarr reads answers with .NET's JSON reader, which refuses a whole answer
// when one value does not fit its type (text where a number or a date goes), so values are
// written in the type its models declare: text as text or null, numbers as numbers or null,
// dates only when they are dates. The names come from its models (src/Sportarr.Data/Models:
// League, Team, Player, Event; TVSchedule, Sport, Country, Season in SportarrApiClient.cs).
type model []field

// field is one member of a model: its name, what appends its value read from a decoded
// record, and its JSON type ("string", "integer" or "number"; null is always allowed), for
// the OpenAPI document. Values are appended to the answer as they are read, so an answer of
// thousands of records makes no buffer per value.
type field struct {
	name     string
	appendTo func(b []byte, r record.Record) []byte
	typ      string
}

// text is the record field as text, or null.
func text(name string) field { return textOf(name, name) }

// textOf is the record field from, as text or null, under Sportarr's name.
func textOf(name, from string) field {
	return field{name, func(b []byte, r record.Record) []byte { return appendValue(b, r.Get(from)) }, "string"}
}

// number is the record field from as a whole number, null when it holds none.
func number(name, from string) field {
	return field{name, func(b []byte, r record.Record) []byte {
		n, err := strconv.ParseInt(strings.TrimSpace(r.Str(from)), 10, 64)
		if err != nil {
			return append(b, null...)
		}
		return strconv.AppendInt(b, n, 10)
	}, "integer"}
}

// date is the record field from when it is a date (YYYY-MM-DD), else null.
func date(name string, from ...string) field {
	return field{name, func(b []byte, r record.Record) []byte {
		for _, f := range from {
			if d := r.Str(f); isDate(d) {
				return record.AppendString(b, d)
			}
		}
		return append(b, null...)
	}, "string"}
}

// computed is a value worked out from the record: text, or null when ok is false.
func computed(name string, fn func(record.Record) (string, bool)) field {
	return field{name, func(b []byte, r record.Record) []byte {
		if s, ok := fn(r); ok {
			return record.AppendString(b, s)
		}
		return append(b, null...)
	}, "string"}
}

// measure is a number worked out from a text field (a height, a weight), or null.
func measure(name, from string, parse func(string) (float64, bool)) field {
	return field{name, func(b []byte, r record.Record) []byte {
		v, ok := parse(strings.ToLower(r.Str(from)))
		if !ok {
			return append(b, null...)
		}
		return strconv.AppendFloat(b, v, 'f', -1, 64)
	}, "number"}
}

var null = []byte("null")

func appendValue(b []byte, v record.Value) []byte {
	if !v.Valid {
		return append(b, null...)
	}
	return record.AppendString(b, v.S)
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// appendObject writes a record as the model: the record is decoded once, then read field
// by field.
func (m model) appendObject(b []byte, rec record.Record) ([]byte, error) {
	rec, err := rec.Decoded()
	if err != nil {
		return nil, err
	}
	b = append(b, '{')
	for i, f := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = record.AppendString(b, f.name)
		b = append(b, ':')
		b = f.appendTo(b, rec)
	}
	return append(b, '}'), nil
}

// Schema is the model as a JSON schema: every member present, each of its type or null.
func (m model) Schema() map[string]any {
	props := map[string]any{}
	names := make([]string, len(m))
	for i, f := range m {
		props[f.name] = map[string]any{"type": []string{f.typ, "null"}}
		names[i] = f.name
	}
	return object(props, names...)
}

// object is the schema of an object with these members, each required, and no others.
func object(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// arrayOf is the schema of an array of items.
func arrayOf(items map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": items}
}

// The models. tsdbId is Sportarr's cross-reference to TheSportsDB's id, which is ours.
var (
	leagueModel = model{
		text("idLeague"), textOf("tsdbId", "idLeague"), text("strLeague"), text("strSport"),
		text("strLeagueAlternate"), text("strCountry"), text("strCurrentSeason"), text("strGender"),
		text("intFormedYear"), text("strDescriptionEN"), text("strBadge"), text("strLogo"),
		text("strBanner"), text("strPoster"), text("strFanart1"), text("strWebsite"),
	}

	// Team: strAlternate, strStadiumLocation, strTeamBadge, strTeamJersey and strTeamBanner
	// are the older names Sportarr's Team model reads; its years and capacity are numbers.
	teamModel = model{
		text("idTeam"), textOf("tsdbId", "idTeam"), text("strTeam"), text("strTeamShort"),
		textOf("strAlternate", "strTeamAlternate"), text("strSport"), text("idLeague"), text("strLeague"),
		text("strCountry"), text("strStadium"), textOf("strStadiumLocation", "strLocation"),
		number("intStadiumCapacity", "intStadiumCapacity"), text("strDescriptionEN"),
		textOf("strTeamBadge", "strBadge"), text("strBadge"), text("strLogo"),
		textOf("strTeamJersey", "strEquipment"), textOf("strTeamBanner", "strBanner"),
		text("strWebsite"), number("intFormedYear", "intFormedYear"),
		text("strColour1"), text("strColour2"), text("strGender"),
	}

	// Player: Sportarr reads dateBorn as a date, strHeight as a whole number (centimetres
	// here) and strWeight as a number (kilograms here).
	playerModel = model{
		text("idPlayer"), text("strPlayer"), textOf("strSurname", "strLastName"), text("strSport"),
		text("idTeam"), text("strTeam"), text("strPosition"), text("strNationality"),
		date("dateBorn", "dateBorn"), text("strBirthLocation"),
		measure("strHeight", "strHeight", centimetres), measure("strWeight", "strWeight", kilograms),
		text("strNumber"), text("strDescriptionEN"), text("strCutout"), text("strThumb"),
		text("strBanner"), text("strSide"), text("strWebsite"), text("strGender"), text("strStatus"),
	}

	// Event, also written from live score entries (which have no strEvent of their own).
	// broadcastDate is the day the event is on where it is played (dateEventLocal), else its
	// UTC day: Sportarr names files by it.
	eventModel = model{
		text("idEvent"), textOf("tsdbId", "idEvent"), computed("strEvent", eventName), text("strSport"),
		text("idLeague"), text("strLeague"), text("strSeason"), text("intRound"),
		text("idHomeTeam"), text("idAwayTeam"), text("strHomeTeam"), text("strAwayTeam"),
		text("strTimestamp"), text("dateEvent"), date("broadcastDate", "dateEventLocal", "dateEvent"),
		text("strVenue"), text("strCountry"), text("intHomeScore"), text("intAwayScore"),
		text("strStatus"), text("strProgress"), text("strPostponed"), text("strDescriptionEN"),
		text("strPoster"), text("strThumb"), text("strBanner"), text("strFanart"),
		text("strHomeTeamBadge"), text("strAwayTeamBadge"),
	}

	seasonModel = model{text("strSeason"), text("strPoster"), text("strBadge"), text("strDescriptionEN")}

	sportModel = model{
		textOf("name", "strSport"), textOf("description", "strSportDescription"),
		computed("iconUrl", firstOf("strSportIconGreen", "strSportThumb")),
	}

	countryModel = model{textOf("name", "name_en"), textOf("code", "code"), textOf("flagUrl", "flag_url_32")}

	// TVSchedule: broadcastTime is an instant in ISO 8601, as .NET reads a date.
	tvModel = model{
		textOf("eventId", "idEvent"), textOf("eventName", "strEvent"), computed("broadcastTime", tvTime),
		textOf("network", "strChannel"), textOf("channel", "strChannel"),
		computed("streamingService", func(record.Record) (string, bool) { return "", false }),
		textOf("country", "strCountry"),
	}
)

// eventName is the event's name; a live score entry has none, and is "Home vs Away".
func eventName(r record.Record) (string, bool) {
	if v := r.Get("strEvent"); v.Valid {
		return v.S, true
	}
	return r.Str("strHomeTeam") + " vs " + r.Str("strAwayTeam"), true
}

// firstOf is the first of the fields that holds a value.
func firstOf(fields ...string) func(record.Record) (string, bool) {
	return func(r record.Record) (string, bool) {
		for _, f := range fields {
			if s := r.Str(f); s != "" {
				return s, true
			}
		}
		return "", false
	}
}

// tvTime is a listing's start as an instant: its strTimeStamp, else its day and time.
func tvTime(r record.Record) (string, bool) {
	if t, ok := instant(r.Str("strTimeStamp")); ok {
		return t, true
	}
	return instant(r.Str("dateEvent") + "T" + r.Str("strTime"))
}

// instant reads a timestamp as stored (UTC, with or without an offset) and writes it in UTC.
func instant(s string) (string, bool) {
	for _, layout := range []string{time.RFC3339, api.TimestampLayout, "2006-01-02T15:04", time.DateTime} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t.UTC().Format(time.RFC3339), true
		}
	}
	return "", false
}

var (
	cmRe     = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*cm`)
	metresRe = regexp.MustCompile(`(\d+[.,]\d+)\s*m\b`)
	feetRe   = regexp.MustCompile(`(\d+)\s*(?:ft|')\s*(?:(\d+)\s*(?:in|")?)?`)
	kgRe     = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*kg`)
	poundsRe = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*lb`)
)

// centimetres reads a height as TheSportsDB writes it ("1.85 m (6 ft 1 in)", "186 cm",
// "6 ft 1 in", "186"), in whole centimetres.
func centimetres(s string) (float64, bool) {
	if m := cmRe.FindStringSubmatch(s); m != nil {
		return round(decimal(m[1]), 0), true
	}
	if m := metresRe.FindStringSubmatch(s); m != nil {
		return round(decimal(m[1])*100, 0), true
	}
	if m := feetRe.FindStringSubmatch(s); m != nil {
		inches := decimal(m[1]) * 12
		if m[2] != "" {
			inches += decimal(m[2])
		}
		return round(inches*2.54, 0), true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 50 && n <= 280 {
		return float64(n), true
	}
	return 0, false
}

// kilograms reads a weight ("80 kg", "176 lbs"), in kilograms to a tenth.
func kilograms(s string) (float64, bool) {
	if m := kgRe.FindStringSubmatch(s); m != nil {
		return round(decimal(m[1]), 1), true
	}
	if m := poundsRe.FindStringSubmatch(s); m != nil {
		return round(decimal(m[1])*0.45359237, 1), true
	}
	return 0, false
}

func decimal(s string) float64 {
	f, _ := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	return f
}

func round(f float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}
