package openapi

import (
	"strings"

	"sportsdb/internal/live"
	"sportsdb/internal/store"
)

// liveParams describe the query parameters of the change feed and its streams.
var liveParams = map[string]paramDoc{
	"since": {text: "A cursor from an earlier answer (`next`, or a stream's `id:`); none: from the oldest change kept. Streams also take it from Last-Event-ID.", example: "42"},
	"kinds": {text: "Record kinds separated by commas (`event`, `livescore`, `team`, ...); none: every kind.", example: "event,livescore"},
	"limit": {text: "Changes per page, 1 to 1000 (more is read as 1000); default 100.", example: "100"},
}

// livePaths adds each surface of the change feed twice: with the key in X-API-KEY, and with
// the key as the segment before it (a browser's EventSource cannot send headers).
func livePaths(paths *obj) {
	for _, s := range live.Surfaces {
		paths.set("/api/v2/json/"+s.Path, newObj("get", liveOp(s, true)))
		paths.set("/api/v2/json/{key}/"+s.Path, newObj("get", liveOp(s, false)))
	}
}

func liveOp(s live.Surface, headerKey bool) *obj {
	var params []any
	tag, prefix := tagV2, "/api/v2/json/"
	if !headerKey {
		params = append(params, keyParam(true))
		tag, prefix = tagV2Key, "/api/v2/json/{key}/"
	}
	if strings.Contains(s.Path, "{sport}") {
		params = append(params, param("sport", "path", paramDoc{"A sport name. " + nameRule, "Soccer"}, true))
	}
	for _, q := range s.Query {
		params = append(params, param(q, "query", liveParams[q], false))
	}
	ok := newObj("description", "A page of changes, oldest first.", "headers", okHeaders(),
		"content", newObj("application/json", newObj("schema", ref("schemas", "Changes"))))
	desc := s.Summary + " Premium and business keys only."
	if s.Stream {
		ok = newObj("description", "An event stream: `id:` a cursor on every event, a `: ping` comment at least every 15 s, `event: reset` first when `since` has expired.",
			"content", newObj("text/event-stream", newObj("schema", newObj("type", "string"))))
		desc += " Opening a stream counts as one request; at most 5 open streams per premium key, 10 per business key (the next is 429)."
	}
	responses := errorResponses(newObj("200", ok))
	if !s.Stream {
		responses.set("410", newObj("description", "Cursor expired: `since` is older than the changes kept.",
			"content", newObj("application/json", newObj("schema", ref("schemas", "Message")))))
	}
	op := newObj("tags", []string{tag}, "summary", s.Route, "operationId", operationID(prefix+s.Path),
		"description", desc, "x-route", s.Route, "x-caps", liveCaps(s), "parameters", params, "responses", responses)
	if s.Stream {
		op.set("x-open-streams", newObj("premium", live.OpenStreams[store.Premium], "business", live.OpenStreams[store.Business]))
	}
	if headerKey {
		op.set("security", []any{newObj("ApiKeyHeader", []string{})})
	} else {
		op.set("security", []any{})
	}
	return op
}

// liveCaps are the changes one page holds for each tier (free keys get none); a stream is
// uncapped (0, as in a caps file), and its limit is of open streams (x-open-streams).
func liveCaps(s live.Surface) *obj {
	if s.Stream {
		return newObj("premium", 0, "business", 0)
	}
	return newObj("premium", live.MaxLimit, "business", live.MaxLimit)
}

// changesSchema is the body of GET /api/v2/json/changes.
func changesSchema() *obj {
	str := newObj("type", "string")
	change := newObj("type", "object", "additionalProperties", false,
		"required", []string{"cursor", "kind", "id", "op", "time"},
		"properties", newObj("cursor", str, "kind", str, "id", str,
			"op", newObj("enum", []string{"upsert", "delete"}),
			"time", newObj("type", "string", "description", "The commit's time, UTC, `2026-10-05 20:06:00`."),
			"by", newObj("type", "string", "description", "Who wrote: the writing key's label (or the first 8 characters of its hash), `import`, `mirror`; absent when the writer named none.")))
	return newObj("type", "object", "additionalProperties", false, "required", []string{"changes", "next"},
		"properties", newObj("changes", newObj("type", "array", "items", change),
			"next", newObj("type", "string", "description", "The cursor to ask `since` next.")))
}
