package gen

import (
	"fmt"
	"strconv"
	"strings"

	"sportsdb/internal/record"
)

// fields sets values on a record by field name: a string, an int (written as text, as the
// public service sends numbers), or nil for null.
func fields(k *record.Kind, kv ...any) record.Record {
	r := k.NewRecord()
	for i := 0; i+1 < len(kv); i += 2 {
		f := kv[i].(string)
		switch v := kv[i+1].(type) {
		case nil:
		case string:
			r.Set(f, record.Str(v))
		case int:
			r.Set(f, record.Str(strconv.Itoa(v)))
		case record.Value:
			r.Set(f, v)
		default:
			panic(fmt.Sprintf("gen: field %s: unsupported %T", f, v))
		}
	}
	return r
}

// optional is a value only when cond holds, null otherwise.
func optional(cond bool, s string) record.Value {
	if cond {
		return record.Str(s)
	}
	return record.Null
}

func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(record.Fold(s)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Description templates by language; %[1]s is the name, %[2]s the place, %[3]d a year,
// %[4]s the sport.
var teamTexts = map[string]string{
	"strDescriptionEN": "%[1]s is a professional %[4]s club based in %[2]s. Founded in %[3]d, the club plays its home games in front of loyal supporters and has a long rivalry with its neighbours.",
	"strDescriptionDE": "%[1]s ist ein %[4]s-Verein aus %[2]s. Der Verein wurde %[3]d gegründet und trägt seine Heimspiele vor treuen Anhängern aus.",
	"strDescriptionFR": "%[1]s est un club de %[4]s basé à %[2]s. Fondé en %[3]d, le club joue ses matchs à domicile devant des supporters fidèles.",
	"strDescriptionES": "%[1]s es un club de %[4]s con sede en %[2]s. Fundado en %[3]d, disputa sus partidos como local ante una afición fiel.",
	"strDescriptionIT": "%[1]s è una società di %[4]s con sede a %[2]s. Fondata nel %[3]d, gioca le partite casalinghe davanti a tifosi fedeli.",
	"strDescriptionPT": "%[1]s é um clube de %[4]s sediado em %[2]s. Fundado em %[3]d, joga em casa diante de uma torcida fiel.",
	"strDescriptionNO": "%[1]s er en %[4]s-klubb fra %[2]s. Klubben ble stiftet i %[3]d.",
}

var teamTextOrder = []string{"strDescriptionEN", "strDescriptionDE", "strDescriptionFR", "strDescriptionES", "strDescriptionIT", "strDescriptionPT", "strDescriptionNO"}

func teamDescriptions(name, place string, year int, sport string) []any {
	var kv []any
	for _, f := range teamTextOrder {
		kv = append(kv, f, fmt.Sprintf(teamTexts[f], name, place, year, sport))
	}
	return kv
}

func leagueText(l *league) string {
	return fmt.Sprintf("The %s is a %s competition in %s, founded in %d. %d teams take part each season, and the champion is decided over %d rounds.",
		l.name, l.sport.name, l.country.name, l.formed, len(l.teams), l.rounds)
}

func seasonText(l *league, season string, n int) string {
	return fmt.Sprintf("The %s %s was the %s season of the %s. %d teams competed for the title.", season, l.name, ordinal(n), l.name, len(l.teams))
}

func playerText(p player, sport string) string {
	return fmt.Sprintf("%s (born %s in %s) is a %s player who plays as a %s for %s, wearing the number %d.",
		p.name(), p.born.Format("2 January 2006"), p.nationality, strings.ToLower(sport), strings.ToLower(p.position), p.team.name, p.number)
}

func sportText(s *sportDef) string {
	if s.individual {
		return fmt.Sprintf("%s is an individual sport: competitors meet at events through the season and are ranked by their results.", s.name)
	}
	return fmt.Sprintf("%s is a team sport played between two teams. The team with the higher score at the end of the game wins.", s.name)
}
