package mqtt

import (
	"strings"

	"sportsdb/internal/record"
)

// topics names the topics of one prefix.
type topics struct{ prefix string }

func (p *Publisher) topics() topics { return topics{prefix: p.o.Prefix} }

// status is the availability topic: "online" while a publisher is connected, "offline"
// (its last will) when it is gone.
func (t topics) status() string { return t.prefix + "/status" }

// record is {prefix}/{kind}/{id}.
func (t topics) record(k *record.Kind, id string) string {
	return t.prefix + "/" + k.Name + "/" + level(id)
}

// live is {prefix}/livescore/{sport}/{idEvent}: the sport lower case, spaces as "_".
func (t topics) live(sport, idEvent string) string {
	return t.prefix + "/livescore/" + level(strings.ReplaceAll(strings.ToLower(sport), " ", "_")) + "/" + level(idEvent)
}

// teamSensor is the state of one Home Assistant sensor of a team.
func (t topics) teamSensor(team, sensor string) string {
	return t.prefix + "/ha/team/" + level(team) + "/" + sensor
}

// level makes a value one topic level: "/" would start another, "+" and "#" are wildcards a
// topic may not hold, and an empty level would be ambiguous.
func level(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '+', '#', 0:
			return '_'
		}
		return r
	}, s)
}
