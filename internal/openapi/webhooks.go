package openapi

import (
	"fmt"

	"sportsdb/internal/webhooks"
)

const tagWebhooks = "webhooks"

// webhooksPaths adds the webhooks API (docs/CONTRACT.md section 15, docs/WEBHOOKS.md), key in
// X-API-KEY.
func webhooksPaths(paths *obj) {
	list, one := newObj(), newObj()
	list.set("get", webhooksOp("get", webhooks.RouteList, "List webhooks", "The key's own webhooks; an admin key's: every key's.", false, "200", "WebhookList"))
	list.set("post", webhooksOp("post", webhooks.RouteList, "Register a webhook", fmt.Sprintf("Premium and business keys (and admin keys), at most %d each. "+
		"The URL must be http or https and resolve to public addresses only (unless the server runs with --webhook-allow-private). "+
		"Delivery starts after the latest change. The answer holds the signing secret, shown this once.", webhooks.MaxPerKey), true, "201", "WebhookAnswer"))
	one.set("get", webhooksOp("get", webhooks.RouteOne, "Read a webhook", "Its status and why deliveries fail: the last status and error, the failures in a row, the next attempt; a disabled one's reason.", false, "200", "WebhookAnswer"))
	one.set("patch", webhooksOp("patch", webhooks.RouteOne, "Change a webhook", "Any of url, kinds, league and team; `status` `disabled` stops deliveries, `active` enables it again: "+
		"failures are forgotten and delivery resumes after the last change delivered.", true, "200", "WebhookAnswer"))
	one.set("delete", webhooksOp("delete", webhooks.RouteOne, "Delete a webhook", "No more deliveries; its progress is gone.", false, "204", ""))
	paths.set("/api/v2/json/webhooks", list)
	paths.set("/api/v2/json/webhooks/{id}", one)
	enable := newObj()
	enable.set("post", webhooksOp("post", webhooks.RouteOne, "Enable a webhook", "The same as PATCH with `status` `active`.", false, "200", "WebhookAnswer"))
	paths.set("/api/v2/json/webhooks/{id}/enable", enable)
}

func webhooksOp(method, route, summary, desc string, body bool, code, schema string) *obj {
	id := map[string]string{webhooks.RouteList: "webhooks", webhooks.RouteOne: "webhook"}[route]
	if summary == "Enable a webhook" {
		id = "webhook_enable"
	}
	op := newObj("tags", []string{tagWebhooks}, "summary", summary, "operationId", method+"_"+id, "description", desc, "x-route", route,
		"x-caps", newObj("free", webhooks.MaxPerKey, "premium", webhooks.MaxPerKey, "business", webhooks.MaxPerKey))
	responses := newObj()
	if schema == "" {
		responses.set(code, newObj("description", "Done; no body."))
	} else {
		responses.set(code, newObj("description", summary+": done.", "content", newObj("application/json", newObj("schema", ref("schemas", schema)))))
	}
	errorResponses(responses)
	if body {
		op.set("requestBody", newObj("required", true, "content", newObj("application/json", newObj("schema", ref("schemas", "WebhookDefinition")))))
		responses.set("400", errAnswer("Invalid API key, premium key required, or malformed JSON.", message(), nil))
		responses.set("409", errAnswer("The key has as many webhooks as it may.", message(), nil))
		responses.set("413", errAnswer("The body is larger than 64 KiB.", message(), nil))
		responses.set("415", errAnswer("The body is not JSON by its Content-Type.", message(), nil))
		responses.set("422", errAnswer("Invalid webhook: every field that breaks a rule, named (a URL that is not public says which address).", ref("schemas", "InvalidWebhook"), nil))
	}
	if route == webhooks.RouteOne {
		op.set("parameters", []any{newObj("name", "id", "in", "path", "required", true, "schema", newObj("type", "string"), "example", "wh_3f9a0c2e7b1d4a56")})
	}
	op.set("responses", responses)
	op.set("security", []any{newObj("ApiKeyHeader", []string{})})
	return op
}

// webhookSchemas are the bodies of the webhooks API and the body of a delivery.
func webhookSchemas(schemas *obj) {
	str := func(d string) *obj { return newObj("type", "string", "description", d) }
	id := func(d string) *obj { return newObj("type", "string", "pattern", "^[0-9]*$", "description", d) }
	schemas.set("WebhookDefinition", newObj("type", "object", "additionalProperties", false, "properties", newObj(
		"url", newObj("type", "string", "format", "uri", "maxLength", 2048, "description", "http:// or https://, no user or fragment."),
		"kinds", newObj("type", "array", "items", newObj("type", "string"), "description", "Kinds of the change feed to deliver (none: every kind)."),
		"league", id("Only changes of records in this league, or of their events (empty: any)."),
		"team", id("Only changes of records of this team, or of their events (empty: any)."),
		"status", newObj("enum", []string{"active", "disabled"}, "description", "PATCH only: enable or disable."))))
	stamp := newObj("type", []string{"string", "null"}, "format", "date-time")
	view := newObj("type", "object", "required", []string{"id", "url", "kinds", "status", "failures"}, "properties", newObj(
		"id", str("The webhook's id."),
		"url", str("Where changes are POSTed."),
		"kinds", newObj("type", "array", "items", newObj("type", "string")),
		"league", str("The league filter, or empty."),
		"team", str("The team filter, or empty."),
		"secret", str("whsec_ and the base64 key that signs the deliveries; in the answer of the registration only."),
		"status", newObj("enum", []string{"active", "disabled"}),
		"reason", str("Why a disabled webhook is."),
		"owner", str("The registering key's label, or the start of its hash."),
		"created", newObj("type", "string", "format", "date-time"),
		"cursor", str("The change feed cursor delivered up to."),
		"last_delivery", stamp,
		"last_status", newObj("type", "integer", "description", "The HTTP status of the last attempt (0: no answer)."),
		"last_error", str("What went wrong with the last attempt, or empty."),
		"failures", newObj("type", "integer", "description", "Failed attempts in a row."),
		"failing_since", stamp,
		"next_attempt", stamp))
	schemas.set("Webhook", view)
	schemas.set("WebhookAnswer", newObj("type", "object", "required", []string{"webhook"}, "properties", newObj("webhook", ref("schemas", "Webhook"))))
	schemas.set("WebhookList", newObj("type", "object", "required", []string{"webhooks"}, "properties",
		newObj("webhooks", newObj("type", "array", "items", ref("schemas", "Webhook")))))
	problem := newObj("type", "object", "required", []string{"field", "problem"}, "properties", newObj("field", newObj("type", "string"), "problem", newObj("type", "string")))
	schemas.set("InvalidWebhook", newObj("type", "object", "required", []string{"Message", "errors"}, "properties",
		newObj("Message", newObj("const", "Invalid webhook"), "errors", newObj("type", "array", "minItems", 1, "items", problem))))
	schemas.set("WebhookMessage", newObj("type", "object", "required", []string{"cursor", "kind", "id", "op", "time"}, "additionalProperties", false,
		"properties", newObj(
			"cursor", str("The change's cursor: decimal, increasing; deliveries to one webhook come in its order."),
			"kind", str("The record's kind."),
			"id", str("The record's id."),
			"op", newObj("enum", []string{"upsert", "delete"}),
			"time", str("When the change was committed, UTC, 2006-01-02 15:04:05."),
			"by", str("Who wrote it: a key's label, import, mirror; absent when no one was named."),
			"record", newObj("type", []string{"object", "null"}, "additionalProperties", newObj("type", []string{"string", "null"}),
				"description", "An upsert's record as the v2 lookup of its kind writes it, as it is when delivered (null when deleted since); absent for a delete."))))
}

// webhookDeliveries describes what sportsdb POSTs to a registered webhook (OpenAPI 3.1's
// top-level webhooks).
func webhookDeliveries() *obj {
	header := func(name, desc string) *obj {
		return newObj("name", name, "in", "header", "required", true, "description", desc, "schema", newObj("type", "string"))
	}
	return newObj("change", newObj("post", newObj(
		"tags", []string{tagWebhooks}, "summary", "A change, delivered", "operationId", "webhook_delivery",
		"description", "Each change the webhook's filters select, in cursor order, at least once; a 2xx within 10 s is a delivery, "+
			"anything else is retried (5 s, 30 s, 2 min, 10 min, 30 min, then hourly) for 24 hours, then the webhook is disabled. "+
			"Signed as Standard Webhooks sign.",
		"parameters", []any{
			header("webhook-id", "msg_{webhook}_{cursor}: unique per message, the same on a retry."),
			header("webhook-timestamp", "Unix seconds of the attempt."),
			header("webhook-signature", "v1, then the base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\" keyed with the bytes of the secret's base64 after whsec_."),
		},
		"requestBody", newObj("required", true, "content", newObj("application/json", newObj("schema", ref("schemas", "WebhookMessage")))),
		"responses", newObj("200", newObj("description", "Any 2xx: delivered.")))))
}
