package openapi

import "sportsdb/internal/api/sportarr"

const tagSportarr = "sportarr"

// sportarrParams describe the parameters of Sportarr's dialect by name.
var sportarrParams = map[string]paramDoc{
	"name":   {"A name. " + nameRule, "Arsenal"},
	"id":     {"An id. Digits only, leading zeros ignored; anything else is an empty list.", "4328"},
	"season": {"A season name as stored (`2026-2027`, `2026`).", "2026-2027"},
	"date":   {"A day, `YYYY-MM-DD` (UTC); anything else is an empty list.", "2026-10-05"},
	"sport":  {"A sport name. " + nameRule, "Soccer"},
	"cb":     {"Sportarr's cache breaker: ignored.", ""},
	"since":  {"A cursor from an earlier answer (`next`); 0 or none: `resync` with the latest cursor. Digits only.", "0"},
	"limit":  {"Changes per page, 1 to 1000 (more is read as 1000); default 500.", "500"},
}

// sportarrPaths adds the dialect Sportarr reads (docs/CONTRACT.md section 16), one operation per
// row of its table.
func sportarrPaths(paths *obj) {
	for _, d := range sportarr.Docs() {
		params := []any{keyParam(true)}
		for _, p := range d.Params {
			params = append(params, param(p, "path", sportarrParams[p], true))
		}
		for _, q := range d.Query {
			params = append(params, param(q, "query", sportarrParams[q], false))
		}
		responses := newObj()
		if d.Schema != nil {
			ok := newObj("description", "The answer, in Sportarr's envelope and names; none is an empty list.", "headers", okHeaders(),
				"content", newObj("application/json", newObj("schema", d.Schema)))
			responses.set("200", ok).set("304", ref("responses", "NotModified"))
		}
		paths.set(d.Path, newObj("get", newObj(
			"tags", []string{tagSportarr},
			"summary", d.Route,
			"operationId", operationID(d.Path),
			"description", d.Summary+" Premium and business keys only.",
			"x-route", d.Route,
			"parameters", params,
			"security", []any{},
			"responses", errorResponses(responses),
		)))
	}
}
