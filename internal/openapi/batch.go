package openapi

import (
	"fmt"

	"sportsdb/internal/api/records"
)

// batchItem is POST /api/v2/json/records: many records and deletes in one write.
func batchItem(headerKey bool) *obj {
	params, prefix := keyPrefix(headerKey)
	op := newObj("tags", []string{tagRecords}, "summary", "Write many records in one transaction",
		"operationId", "post_"+operationID(prefix+"records"),
		"description", "What `sportsdb import` reads from one file, in one transaction: as `application/x-ndjson`, one record a line "+
			"and delete lines `{\"delete\":{\"kind\":\"event\",\"id\":\"123\"}}`; as `application/json`, any TheSportsDB response body, "+
			"an array of records or one record. Each record is merged into the stored one as an import merges it (a null or empty "+
			"value never erases a stored one); each is checked as a single write is (locks, `strLocked`). The first line that fails "+
			"fails the batch, named in the answer's Message (`line 3`, `teams[2]`), and nothing of it is kept. A delete of a record "+
			"that is not stored is 404. Editor and admin keys. Writes count against the key's rate limit.",
		"x-route", records.Route, "x-caps", newObj("free", 1, "premium", 1, "business", 1))
	if len(params) > 0 {
		op.set("parameters", params)
	}
	counts := newObj("type", "object", "required", []string{"upserted", "deleted", "unchanged"}, "additionalProperties", false,
		"properties", newObj(
			"upserted", newObj("type", "integer", "description", "Records created or changed."),
			"deleted", newObj("type", "integer", "description", "Records deleted."),
			"unchanged", newObj("type", "integer", "description", "Records sent as they were stored already.")))
	responses := newObj("200", newObj("description", "Written.", "content", newObj("application/json", newObj("schema", counts))))
	errorResponses(responses)
	responses.set("400", errAnswer("Invalid API key, or a body that is not JSON: `Malformed JSON (line 2): ...`.", message(), nil))
	responses.set("403", errAnswer("A key without a role, or an editor key that sets or clears `strLocked` (the line named).", message(), nil))
	responses.set("404", errAnswer("A delete line names a record that is not stored (the line named).", message(), nil))
	responses.set("413", errAnswer(fmt.Sprintf("The body is larger than %d MiB.", records.MaxBatch>>20), message(), nil))
	responses.set("415", errAnswer("The body is neither JSON nor NDJSON by its Content-Type.", message(), nil))
	responses.set("422", errAnswer("A record or delete line that breaks a rule of import (the line named in Message), or a body with "+
		"no record and no delete line.", ref("schemas", "InvalidBatch"), nil))
	responses.set("423", errAnswer("A locked record written or deleted by an editor key (the line named).", message(), nil))
	op.set("responses", responses)
	body := newObj("type", "string", "description", "NDJSON: records, one a line, and delete lines.")
	op.set("requestBody", newObj("required", true, "content", newObj(
		"application/x-ndjson", newObj("schema", body),
		"application/json", newObj("schema", newObj("description", "A TheSportsDB response body, an array of records or one record.")))))
	setSecurity(op, headerKey)
	return newObj("post", op)
}

// batchSchemas are the bodies of a batch's 422.
func batchSchemas(schemas *obj) {
	problem := newObj("type", "object", "required", []string{"field", "problem"}, "additionalProperties", false,
		"properties", newObj("field", newObj("type", "string", "description", "The field (\"\" for the record as a whole)."),
			"problem", newObj("type", "string")))
	schemas.set("InvalidBatch", newObj("type", "object", "required", []string{"Message", "errors"}, "additionalProperties", false,
		"properties", newObj("Message", newObj("type", "string", "description", "`Invalid record (line 3)`, or `Nothing to write`."),
			"errors", newObj("type", "array", "minItems", 1, "items", problem))))
}

// historyItem is GET .../records/{kind}/{id}/history: a record's changes, newest first.
func historyItem(headerKey bool) *obj {
	params, prefix := keyPrefix(headerKey)
	params = append(params, kindParam(), idParam())
	op := newObj("tags", []string{tagRecords}, "summary", "A record's history",
		"operationId", "get_"+operationID(prefix+"records/{kind}/{id}/history"),
		"description", "The record's changes the change feed still keeps (`--change-retention`), newest first, each with its cursor, "+
			"operation, time, writer (`by`: a key's label or the start of its hash, never a key; `import`, `mirror`) and the record "+
			"as the change left it. Changes written through the records API keep the record; those of imports, the mirror and "+
			"`gen` do not: the newest change shows the stored record, an older one null, as a delete does. "+
			"Keys with a role, premium and business keys. 404 when there is neither a record nor a kept change.",
		"x-route", records.Route, "x-caps", newObj("free", 1, "premium", 1, "business", 1), "parameters", params)
	entry := newObj("type", "object", "required", []string{"cursor", "op", "time", "record"}, "additionalProperties", false,
		"properties", newObj(
			"cursor", newObj("type", "string", "description", "The change's cursor in the change feed."),
			"op", newObj("type", "string", "enum", []string{"upsert", "delete"}),
			"time", newObj("type", "string", "description", "UTC, `YYYY-MM-DD HH:MM:SS`."),
			"by", newObj("type", "string", "description", "Who wrote it; absent when the writer named none."),
			"record", newObj("type", []string{"object", "null"}, "additionalProperties", newObj("type", []string{"string", "null"}),
				"description", "Every field of the kind in wire order, as the change left the record; null for a delete or where not kept.")))
	answer := newObj("type", "object", "required", []string{"history"}, "additionalProperties", false,
		"properties", newObj("history", newObj("type", "array", "items", entry)))
	responses := newObj("200", newObj("description", "The history.", "content", newObj("application/json", newObj("schema", answer))))
	errorResponses(responses)
	op.set("responses", responses)
	setSecurity(op, headerKey)
	return newObj("get", op)
}
