package openapi

// matchKey is the group of v2 match/event (docs/CONTRACT.md section 17), whose answer holds
// each event inside an object with its score and reasons.
const matchKey = "match"

// matchItem is one item of a match answer: the event (rec) with how well it fits.
func matchItem(rec *obj) *obj {
	return newObj("type", "object", "required", []string{"score", "why", "event"}, "additionalProperties", false,
		"description", "An event the file name may record, best first: at most 5, none when the name is no game.",
		"properties", newObj(
			"score", newObj("type", "string", "description", "How well the event fits the name, `0.00` to `1.00`.", "example", "0.97"),
			"why", newObj("type", "string", "description", "What fitted: teams, date (and how many days off), league, round, session."),
			"event", rec))
}
