package openapi

import (
	"fmt"

	"sportsdb/internal/xmltv"
)

const tagXMLTV = "xmltv"

// xmltvPaths adds the XMLTV guides (docs/CONTRACT.md section 17).
func xmltvPaths(paths *obj) {
	days := newObj("name", "days", "in", "query", "required", false,
		"description", fmt.Sprintf("Days of the guide from today (UTC), %d to %d; default %d.", 1, xmltv.MaxDays, xmltv.DefaultDays),
		"schema", newObj("type", "integer", "minimum", 1, "maximum", xmltv.MaxDays))
	country := newObj("name", "country", "in", "query", "required", true,
		"description", "The channels' country, as TV listings name it (strCountry). "+nameRule,
		"schema", newObj("type", "string"), "example", "United Kingdom")
	id := newObj("name", "id", "in", "path", "required", true,
		"description", "The team id, digits, followed by `.xml` in the path.",
		"schema", newObj("type", "string"), "example", "133604")
	paths.set("/xmltv/{key}/tv.xml", newObj("get", xmltvOp(xmltv.RouteCountry,
		"The TV listings of a channel country: one channel per channel, one programme per listing.", country, days)))
	paths.set("/xmltv/{key}/team/{id}.xml", newObj("get", xmltvOp(xmltv.RouteTeam,
		"A team's games as one channel (its badge as icon), each a programme with the league as category.", id, days)))
}

func xmltvOp(route, what string, params ...*obj) *obj {
	guide := newObj("description", fmt.Sprintf("An XMLTV guide, valid against xmltv.dtd: times in UTC with their offset, "+
		"channel ids from record ids. A free key gets the next %d programmes, a premium key every programme of the days.", xmltv.FreeProgrammes),
		"headers", okHeaders(),
		"content", newObj("application/xml", newObj("schema", newObj("type", "string"))))
	list := []any{keyParam(false)}
	for _, p := range params {
		list = append(list, p)
	}
	return newObj(
		"tags", []string{tagXMLTV},
		"summary", route,
		"operationId", "xmltv_"+route[len("xmltv/"):],
		"description", what+" For TV-guide software and IPTV players. Free keys allowed; rate limited like any request.",
		"x-route", route,
		"parameters", list,
		"security", []any{},
		"responses", errorResponses(newObj("200", guide, "304", ref("responses", "NotModified"))),
	)
}
