package openapi

import (
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// ref is a JSON reference to a component.
func ref(kind, name string) *obj { return newObj("$ref", "#/components/"+kind+"/"+name) }

// value is the schema of one field: a string or null, or (numericIDs, an id field) also an
// integer, as the answer writes it.
func value(field string, numericIDs bool) *obj {
	if numericIDs && record.IsIDField(field) {
		return newObj("type", []string{"integer", "string", "null"},
			"description", "An id: a JSON number in search answers when it holds an integer.")
	}
	o := newObj("type", []string{"string", "null"})
	if d := fieldHint(field); d != "" {
		o.set("description", d)
	}
	return o
}

// fieldHint says what a field's text holds, from the naming convention of the records.
func fieldHint(f string) string {
	switch {
	case record.IsIDField(f):
		return "An id, as text."
	case strings.HasPrefix(f, "int"):
		return "A number, as text (`\"0\"` can mean unknown)."
	case strings.HasPrefix(f, "date"):
		return "A date, `YYYY-MM-DD`."
	}
	return ""
}

// recordSchema is the schema of a kind written in a view: every field of the view, in wire
// order, each a string or null. Further fields are strings or null too: a full record ends
// with the fields its import held beyond its kind, and a few files add fields of their own
// (searchplayers.php its relevance, search_all_seasons.php the fields its flags ask for).
func recordSchema(k *record.Kind, view string, numericIDs bool) *obj {
	fields := k.View(view).Fields
	props := newObj()
	for _, f := range fields {
		props.set(f, value(f, numericIDs))
	}
	extra := newObj("type", []string{"string", "null"})
	if numericIDs {
		extra.set("type", []string{"integer", "string", "null"})
	}
	return newObj("type", "object",
		"title", k.Name+" ("+view+" view)",
		"description", "A "+k.Name+" record in the "+view+" view: fields in the order they are sent, strings or null.",
		"required", fields, "properties", props, "additionalProperties", extra)
}

// recordName is the component name of a kind in a view.
func recordName(d api.Doc) string {
	n := d.Kind.Name + "." + d.View
	if d.NumericIDs {
		n += ".numericIds"
	}
	return n
}

// message is the body {"Message": "..."}, with the texts it can hold.
func message(texts ...string) *obj {
	m := newObj("type", "string")
	if len(texts) == 1 {
		m.set("const", texts[0])
	} else if len(texts) > 1 {
		m.set("enum", texts)
	}
	return newObj("type", "object", "required", []string{"Message"},
		"properties", newObj("Message", m), "additionalProperties", false)
}

// answerSchema is the body of a 200 answer of the row.
func answerSchema(d api.Doc, rec *obj) *obj {
	if d.V1 {
		return newObj("type", "object", "required", []string{d.Key}, "additionalProperties", false,
			"properties", newObj(d.Key, newObj("oneOf", []any{
				newObj("type", "array", "items", rec, "description", "The records found."),
				newObj("type", "null", "description", "No result."),
				newObj("type", "string", "description", "A rejected parameter: the public service's message."),
			})))
	}
	if d.Key == matchKey {
		rec = matchItem(rec)
	}
	found := newObj("type", "object", "required", []string{d.Key}, "additionalProperties", false,
		"properties", newObj(d.Key, newObj("type", "array", "minItems", 1, "items", rec)))
	return newObj("oneOf", []any{found, ref("schemas", "NoData")})
}

// components are the schemas, headers and error answers every operation shares.
func components(records *obj) *obj {
	retry := ref("headers", "Retry-After")
	schemas := newObj(
		"Message", message(),
		"NoData", message("No data found"),
		"Changes", changesSchema(),
		"RateLimited", newObj("oneOf", []any{
			newObj("type", "object", "required", []string{"message", "error"}, "additionalProperties", false,
				"description", "Over the key's requests per minute (the public service's shape).",
				"properties", newObj("message", newObj("type", "string"), "error", newObj("const", 429))),
			message("Too many invalid API keys from this address"),
		}))
	for _, k := range records.keys {
		schemas.set(k, records.get(k))
	}
	recordSchemas(schemas)
	batchSchemas(schemas)
	webhookSchemas(schemas)
	errBody := func(desc, schema string, headers *obj) *obj {
		o := newObj("description", desc)
		if headers != nil {
			o.set("headers", headers)
		}
		return o.set("content", newObj("application/json", newObj("schema", ref("schemas", schema))))
	}
	header := func(desc, typ string) *obj {
		return newObj("description", desc, "schema", newObj("type", typ))
	}
	return newObj(
		"securitySchemes", newObj(
			"ApiKeyHeader", newObj("type", "apiKey", "in", "header", "name", "X-API-KEY",
				"description", "A premium or business key in the X-API-KEY header (v2, and v1 files under /api/v2/json/)."),
		),
		"headers", newObj(
			"Retry-After", header("Seconds until a request may be sent again.", "integer"),
			"X-RateLimit-Limit", header("Requests per rolling minute of the key.", "integer"),
			"X-RateLimit-Remaining", header("Requests left in the current window.", "integer"),
			"X-RateLimit-Reset", header("Seconds until a slot frees.", "integer"),
			"RateLimit-Policy", header(`IETF form of the limit: "default";q=N;w=60.`, "string"),
			"RateLimit", header(`IETF form of what is left: "default";r=R;t=S.`, "string"),
			"ETag", header("The answer's entity tag; send it back in If-None-Match for a 304.", "string"),
			"RecordETag", header("The record's version (a hash of its stored fields, the same on every replica): send it in If-Match to write only that version.", "string"),
		),
		"schemas", schemas,
		"responses", newObj(
			"NotModified", newObj("description", "Not modified: If-None-Match named the answer's current ETag; no body."),
			"BadKey", errBody("Invalid API key (unknown, missing or malformed), or `Premium API key required` for a free key on a premium-only path.", "Message", nil),
			"NotFound", errBody("Not found: a path or file no table names.", "Message", nil),
			"RateLimited", errBody("Too many requests; wait Retry-After seconds.", "RateLimited", newObj("Retry-After", retry)),
			"Unavailable", errBody("Service unavailable (the database did not answer); retry after Retry-After seconds.", "Message", newObj("Retry-After", retry)),
		),
	)
}

// okHeaders are the headers of every answer to a known key.
func okHeaders() *obj {
	h := newObj()
	for _, n := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "ETag"} {
		h.set(n, ref("headers", n))
	}
	return h
}

// errorResponses are the error answers every API operation can give.
func errorResponses(r *obj) *obj {
	return r.set("400", ref("responses", "BadKey")).set("404", ref("responses", "NotFound")).
		set("429", ref("responses", "RateLimited")).set("503", ref("responses", "Unavailable"))
}
