package record

import "slices"

// Rename is a field the public service renamed whose older name clients still read. Lenient
// answers (serve --compat lenient) write the older name after the record's fields, with the
// value of the field it became.
type Rename struct {
	Old, Current string
	// Source is where the older name is read: the client code, or the public service's
	// older answers, that shows it.
	Source string
}

// teamModels are the clients whose team model reads the older names of team fields.
const teamModels = "client models: Jelle-S/TheSportsDb (its Team entity), the Jellyfin plugins' Providers/TheSportsDbClient.cs, Sportarr's team model"

// renames is the table, by kind. Only renames a client's code shows are listed: a kind that
// is absent has no known older name.
var renames = map[*Kind][]Rename{
	Team: {
		{"strTeamBadge", "strBadge", teamModels},
		{"strTeamLogo", "strLogo", teamModels},
		{"strTeamJersey", "strEquipment", teamModels},
		{"strTeamBanner", "strBanner", teamModels},
		{"strTeamFanart1", "strFanart1", teamModels},
		{"strTeamFanart2", "strFanart2", teamModels},
		{"strTeamFanart3", "strFanart3", teamModels},
		{"strTeamFanart4", "strFanart4", teamModels},
		{"strAlternate", "strTeamAlternate", teamModels},
		{"strStadiumLocation", "strLocation", "client models: Jelle-S/TheSportsDb (its Team entity), Sportarr's team model; the public service's older team answers carry it where strLocation is now, with the same place"},
	},
}

// Renames lists the older names of a kind's fields, in the order lenient answers write them.
func (k *Kind) Renames() []Rename { return renames[k] }

// AppendOlderNames reopens a JSON object just written for r (b ends with its '}') and adds
// each older name whose current field the object holds (written: the fields it was written
// with), with that field's value. An object without such a field is left as it is.
func AppendOlderNames(b []byte, r Record, written []string) []byte {
	rs := r.Kind.Renames()
	if len(rs) == 0 || len(b) == 0 || b[len(b)-1] != '}' {
		return b
	}
	b = b[:len(b)-1]
	empty := len(b) > 0 && b[len(b)-1] == '{'
	for _, rn := range rs {
		if !slices.Contains(written, rn.Current) || slices.Contains(written, rn.Old) {
			continue
		}
		if !empty {
			b = append(b, ',')
		}
		empty = false
		b = AppendString(b, rn.Old)
		b = append(b, ':')
		b = AppendValue(b, rn.Old, r.Get(rn.Current), false)
	}
	return append(b, '}')
}
