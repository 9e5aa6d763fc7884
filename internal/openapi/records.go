package openapi

import (
	"fmt"

	"sportsdb/internal/api/records"
	"sportsdb/internal/record"
)

const tagRecords = "records"

// recordsPaths adds the records API (docs/CONTRACT.md section 13), with the key in X-API-KEY
// and as the segment before records/.
func recordsPaths(paths *obj) {
	paths.set("/api/v2/json/records/{kind}/{id}", recordsItem(true))
	paths.set("/api/v2/json/{key}/records/{kind}/{id}", recordsItem(false))
	paths.set("/api/v2/json/records", batchItem(true))
	paths.set("/api/v2/json/{key}/records", batchItem(false))
	paths.set("/api/v2/json/records/{kind}/{id}/history", historyItem(true))
	paths.set("/api/v2/json/{key}/records/{kind}/{id}/history", historyItem(false))
}

// derivedDesc is what a PUT or PATCH fills besides what it sends (docs/CONTRACT.md section 13).
const derivedDesc = "Fields left empty that can be derived are filled, never those the writer set: an event's " +
	"league, sport and team names and badges from the records `idLeague`, `idHomeTeam` and `idAwayTeam` name, " +
	"`strTimestamp` (`2026-10-10T19:45:00`) from `dateEvent` and `strTime` and back, `strEvent` (`Home vs Away`), " +
	"`strEventAlternate` (`Away @ Home`) and `strFilename` (`League YYYY-MM-DD Home vs Away`); a team's league " +
	"names and sport from `idLeague` to `idLeague7`; a player's team name and sport from `idTeam`. An event may " +
	"also carry `strProgress` (the minute), which its live score entry keeps: an event with an in-play " +
	"`strStatus` has one (kind `livescore`, id the event's), kept for 2 hours after the event ends."

func recordsItem(headerKey bool) *obj {
	item := newObj()
	for _, m := range []struct{ method, summary, desc string }{
		{"get", "Read one record", "The stored record, every field of its kind in wire order, with its ETag (its version). " +
			"Keys with a role, premium and business keys."},
		{"put", "Create or replace one record", "The body is the whole record: fields of the kind (v1 names), strings or null; " +
			"an id field, if sent, equals the path's. Creates (201) or replaces (200); answers the stored record with its new ETag. " +
			"`If-None-Match: *` creates only. " + derivedDesc + " Editor and admin keys."},
		{"patch", "Change fields of one record", "A JSON merge patch (RFC 7396) of the stored record: a string sets a field, " +
			"null clears it, a field not named stays. 404 when there is no record. " + derivedDesc + " Editor and admin keys."},
		{"delete", "Delete one record", "The record is gone from every answer and the change feed has a `delete`. " +
			"Nothing is cascaded (an event's lineup stays until deleted itself), but the live score entry the server kept " +
			"of an event goes with it. Editor and admin keys."},
	} {
		item.set(m.method, recordsOp(m.method, m.summary, m.desc, headerKey))
	}
	return item
}

func recordsOp(method, summary, desc string, headerKey bool) *obj {
	params, prefix := keyPrefix(headerKey)
	params = append(params, kindParam(), idParam())
	conditional := method != "get"
	if conditional {
		params = append(params, newObj("name", "If-Match", "in", "header", "required", false,
			"description", "ETags, or `*`: write only if the record's current ETag is one of them (else 412).", "schema", newObj("type", "string")))
	}
	if method == "put" || method == "get" {
		what := "`*`: create only (412 when the record exists)."
		if method == "get" {
			what = "An ETag from an earlier answer: 304 while the record is unchanged."
		}
		params = append(params, newObj("name", "If-None-Match", "in", "header", "required", false,
			"description", what, "schema", newObj("type", "string")))
	}
	op := recordsOpHead(method, summary, desc, prefix, params)
	headers := newObj("ETag", ref("headers", "RecordETag"))
	answer := func(d string) *obj {
		return newObj("description", d, "headers", headers, "content", newObj("application/json", newObj("schema", ref("schemas", "RecordAnswer"))))
	}
	responses := newObj()
	switch method {
	case "get":
		responses.set("200", answer("The record.")).set("304", ref("responses", "NotModified"))
	case "put":
		responses.set("200", answer("Replaced.")).set("201", answer("Created."))
	case "patch":
		responses.set("200", answer("Changed."))
	case "delete":
		responses.set("204", newObj("description", "Deleted; no body."))
	}
	errorResponses(responses)
	if method != "get" {
		responses.set("403", errAnswer("A key without a role (`This key cannot write`), or an editor key that sets or clears `strLocked`.",
			message("This key cannot write", "Only an admin key sets or clears strLocked"), nil))
		responses.set("412", errAnswer("Precondition failed: another write came first (If-Match), or the record exists (If-None-Match: *). ETag is the current version.",
			message("Precondition failed"), headers))
		responses.set("423", errAnswer("Locked: the record's strLocked is `locked`, and only an admin key writes it.", message("Locked"), nil))
	}
	if method == "put" || method == "patch" {
		responses.set("400", errAnswer("Invalid API key, or malformed JSON.", message(), nil))
		responses.set("413", errAnswer(fmt.Sprintf("The body is larger than %d MiB.", records.MaxBody>>20), message(), nil))
		responses.set("415", errAnswer("The body is not JSON by its Content-Type (application/json, or application/merge-patch+json).", message(), nil))
		responses.set("422", errAnswer("Invalid record: every field that breaks a rule of import, named.", ref("schemas", "InvalidRecord"), nil))
		body := newObj("type", "object", "additionalProperties", newObj("type", []string{"string", "null"}),
			"description", "Fields of the kind, by their v1 names.")
		types := newObj("application/json", newObj("schema", body))
		if method == "patch" {
			types.set("application/merge-patch+json", newObj("schema", body))
		}
		op.set("requestBody", newObj("required", true, "content", types))
	}
	op.set("responses", responses)
	setSecurity(op, headerKey)
	return op
}

// keyPrefix is where a records path's key is: in X-API-KEY (no parameter), or as the
// segment before records/.
func keyPrefix(headerKey bool) (params []any, prefix string) {
	if headerKey {
		return nil, "/api/v2/json/"
	}
	return []any{keyParam(false)}, "/api/v2/json/{key}/"
}

// setSecurity says how an operation of a records path takes its key.
func setSecurity(op *obj, headerKey bool) {
	if headerKey {
		op.set("security", []any{newObj("ApiKeyHeader", []string{})})
	} else {
		op.set("security", []any{})
	}
}

// idParam is the {id} of a records path.
func idParam() *obj {
	return newObj("name", "id", "in", "path", "required", true,
		"description", "The record's id: its key fields' values joined by `|` (a season: `4328|2026-2027`).",
		"schema", newObj("type", "string"), "example", "133604")
}

// kindParam is the {kind} of a records path.
func kindParam() *obj {
	kinds := make([]string, len(record.Kinds))
	for i, k := range record.Kinds {
		kinds[i] = k.Name
	}
	return newObj("name", "kind", "in", "path", "required", true, "description", "The record's kind, as the change feed names it.",
		"schema", newObj("type", "string", "enum", kinds), "example", "team")
}

func recordsOpHead(method, summary, desc, prefix string, params []any) *obj {
	return newObj("tags", []string{tagRecords}, "summary", summary, "operationId", method+"_"+operationID(prefix+"records/{kind}/{id}"),
		"description", desc+" Writes count against the key's rate limit.", "x-route", records.Route,
		// One record an answer, whatever the tier.
		"x-caps", newObj("free", 1, "premium", 1, "business", 1), "parameters", params)
}

func errAnswer(desc string, schema, headers *obj) *obj {
	o := newObj("description", desc)
	if headers != nil {
		o.set("headers", headers)
	}
	return o.set("content", newObj("application/json", newObj("schema", schema)))
}

// recordSchemas are the bodies of the records API's answers and its 422.
func recordSchemas(schemas *obj) {
	schemas.set("RecordAnswer", newObj("type", "object", "required", []string{"record"}, "additionalProperties", false,
		"properties", newObj("record", newObj("type", "object", "additionalProperties", newObj("type", []string{"string", "null"}),
			"description", "Every field of the kind in wire order, then the fields it was imported with that the kind lacks."))))
	problem := newObj("type", "object", "required", []string{"field", "problem"}, "additionalProperties", false,
		"properties", newObj("field", newObj("type", "string", "description", "The field (\"\" for the body as a whole)."),
			"problem", newObj("type", "string")))
	schemas.set("InvalidRecord", newObj("type", "object", "required", []string{"Message", "errors"}, "additionalProperties", false,
		"properties", newObj("Message", newObj("const", "Invalid record"), "errors", newObj("type", "array", "minItems", 1, "items", problem))))
}
