package openapi

import "sportsdb/internal/calendar"

// calendarOp is the GET of a calendar feed (docs/CONTRACT.md section 10).
func calendarOp(sc calendar.Scope) *obj {
	example := "4328"
	if sc == calendar.Team {
		example = "133604"
	}
	id := newObj("name", "id", "in", "path", "required", true,
		"description", "The "+string(sc)+" id, digits, followed by `.ics` in the path.",
		"schema", newObj("type", "string"), "example", example)
	season := newObj("name", "season", "in", "query", "required", false,
		"description", "A season name; default the current season.", "schema", newObj("type", "string"))
	ics := newObj("description", "RFC 5545 calendar: one VEVENT per event (a free key gets the next 15 events, a premium key the whole season).",
		"headers", okHeaders(),
		"content", newObj("text/calendar", newObj("schema", newObj("type", "string"))))
	responses := errorResponses(newObj("200", ics, "304", ref("responses", "NotModified")))
	return newObj(
		"tags", []string{tagCalndar},
		"summary", "calendar/"+string(sc),
		"operationId", "calendar_"+string(sc),
		"description", "The events of a "+string(sc)+" as an iCalendar feed to subscribe to. Free keys allowed; rate limited like any request.",
		"x-route", "calendar/"+string(sc),
		"parameters", []any{keyParam(false), id, season},
		"security", []any{},
		"responses", responses,
	)
}
