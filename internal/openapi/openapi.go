// Package openapi generates the OpenAPI 3.1 description of sportsdb from the tables the
// server routes with: the endpoint rows of v1 and v2 (api.Doc), the record kinds and their
// views, the caps table, the calendar scopes, the change feed's surfaces (live.Surfaces) and the rows of Sportarr's
// dialect (sportarr.Docs). Nothing in it lists an endpoint by hand,
// so a row added to a table is described without another edit.
package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/calendar"
	"sportsdb/internal/store"
)

// Source is what the document is generated from.
type Source struct {
	// V1 and V2 are the paths of the route tables (v1.API.Docs, v2.API.Docs).
	V1, V2 []api.Doc
	// Caps is the caps table in force (defaults and an operator's overrides).
	Caps *caps.Table
	// Calendars are the calendar scopes the server answers under /calendar/{key}/.
	Calendars []calendar.Scope
	// Version is the server's version, shown as the document's.
	Version string
}

// Tags group the operations on the reference page.
const (
	tagV1      = "v1"
	tagV1OnV2  = "v1 files under /api/v2/json"
	tagV2      = "v2"
	tagV2Key   = "v2 with the key in the path"
	tagCalndar = "calendars"
)

// Build returns the document as JSON.
func Build(src Source) ([]byte, error) {
	records := newObj()
	paths := newObj()
	for _, d := range append(append([]api.Doc(nil), src.V1...), src.V2...) {
		name := recordName(d)
		if records.get(name) == nil {
			records.set(name, recordSchema(d.Kind, d.View, d.NumericIDs))
		}
		op, err := operation(d, src.Caps, ref("schemas", name))
		if err != nil {
			return nil, err
		}
		paths.set(d.Path, newObj("get", op))
	}
	for _, sc := range src.Calendars {
		paths.set("/calendar/{key}/"+string(sc)+"/{id}.ics", newObj("get", calendarOp(sc)))
	}
	livePaths(paths)
	xmltvPaths(paths)
	sportarrPaths(paths)
	recordsPaths(paths)
	webhooksPaths(paths)
	imagesPaths(paths)
	doc := newObj(
		"openapi", "3.1.0",
		"info", newObj("title", "sportsdb", "version", src.Version, "description", intro),
		"servers", []any{newObj("url", "/")},
		"tags", []any{
			newObj("name", tagV1, "description", "The key is the path segment before the file (`123` and `3` are the public free keys)."),
			newObj("name", tagV1OnV2, "description", "Aliases real clients send: a v1 file under /api/v2/json/, the key in the path or in X-API-KEY; `/api/v2/json/{key}/livescore.php` is the older premium live score feed."),
			newObj("name", tagV2, "description", "Premium and business keys, in the X-API-KEY header."),
			newObj("name", tagV2Key, "description", "The v2 paths with the key as the segment before the group."),
			newObj("name", tagCalndar, "description", "iCalendar (RFC 5545) feeds of a team's or a league's events."),
			newObj("name", tagXMLTV, "description", "XMLTV guides for TV-guide software and IPTV players."),
			newObj("name", tagSportarr, "description", "The metadata API Sportarr reads: give Sportarr `/sportarr/{key}` as its metadata API URL."),
			newObj("name", tagRecords, "description", "Your own data: one record read, created, replaced, patched or deleted by a key with a role (editor, admin), conditional on its ETag."),
			newObj("name", tagWebhooks, "description", "Changes pushed to your URL, signed as Standard Webhooks sign: registered per key (docs/WEBHOOKS.md)."),
			newObj("name", tagImages, "description", "The pictures this server keeps, at the paths they have on the public service (docs/PICTURES.md): no key to read them."),
		},
		"paths", paths,
		"webhooks", webhookDeliveries(),
		"components", components(records),
	)
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return out, nil
}

const intro = "Wire-compatible with TheSportsDB's read API v1 and v2. " +
	"Names in query values and v2 path segments: `_`, `+` and `%20` mean a space; matching is " +
	"case- and accent-insensitive. Record values are strings or null (v2 search answers send " +
	"integer ids as numbers). v1 answers no result as `{\"<key>\":null}` and a parameter " +
	"combination not allowed as an empty body; v2 answers `{\"Message\":\"No data found\"}`. " +
	"A path not listed here answers HTTP 404 `{\"Message\":\"Not found\"}`. " +
	"Every key is limited per rolling minute (free 30, premium 100, business 120 by default) across v1 and v2."

// operation is the GET of one path of a route table.
func operation(d api.Doc, table *caps.Table, rec *obj) (*obj, error) {
	params, err := parameters(d)
	if err != nil {
		return nil, err
	}
	tag := tagV1
	switch {
	case !d.V1 && d.HeaderKey:
		tag = tagV2
	case !d.V1:
		tag = tagV2Key
	case strings.HasPrefix(d.Path, "/api/v2/"):
		tag = tagV1OnV2
	}
	desc := fmt.Sprintf("Answers `%s` records (%s view) under the key `%s`. Route `%s`.", d.Kind.Name, d.View, d.Key, d.Route)
	if d.PremiumOnly {
		desc += " Premium and business keys only."
	}
	if d.V1 {
		desc += " No result is `null`; a parameter combination not allowed is HTTP 200 with an empty body."
	}
	ok := newObj("description", "The records, or no result.", "headers", okHeaders(),
		"content", newObj("application/json", newObj("schema", answerSchema(d, rec))))
	op := newObj(
		"tags", []string{tag},
		"summary", d.Route,
		"operationId", operationID(d.Path),
		"description", desc,
		"x-route", d.Route,
		"x-caps", capsOf(d, table),
	)
	if len(params) > 0 {
		op.set("parameters", params)
	}
	op.set("responses", errorResponses(newObj("200", ok, "304", ref("responses", "NotModified"))))
	if d.HeaderKey {
		op.set("security", []any{newObj("ApiKeyHeader", []string{})})
	} else {
		op.set("security", []any{})
	}
	return op, nil
}

// capsOf is the records one call returns to each tier, as the caps table says now.
func capsOf(d api.Doc, table *caps.Table) *obj {
	c := newObj()
	if !d.PremiumOnly {
		c.set("free", table.Limit(d.Cap, store.Free))
	}
	return c.set("premium", table.Limit(d.Cap, store.Premium)).set("business", table.Limit(d.Cap, store.Business))
}

// parameters are the key segment, the path parameters and the query parameters of a path.
func parameters(d api.Doc) ([]any, error) {
	var out []any
	for _, p := range pathParams(d.Path) {
		if p == "key" {
			out = append(out, keyParam(d.PremiumOnly))
			continue
		}
		pd, ok := v2Params[p]
		if !ok {
			return nil, fmt.Errorf("openapi: %s: no description of the path parameter {%s}", d.Path, p)
		}
		out = append(out, param(p, "path", pd, true))
	}
	for _, p := range v1ParamNames(d.Params) {
		pd, ok := v1Param(d.Route, p)
		if !ok {
			return nil, fmt.Errorf("openapi: %s: no description of the parameter %s", d.Route, p)
		}
		out = append(out, param(p, "query", pd, false))
	}
	return out, nil
}

func param(name, in string, pd paramDoc, required bool) *obj {
	o := newObj("name", name, "in", in, "required", required, "description", pd.text, "schema", newObj("type", "string"))
	if pd.example != "" {
		o.set("example", pd.example)
	}
	return o
}

// keyParam is the key as a path segment; the public free key is its example where a free
// key may call.
func keyParam(premiumOnly bool) *obj {
	if premiumOnly {
		return newObj("name", "key", "in", "path", "required", true,
			"description", "A premium or business API key.", "schema", newObj("type", "string"))
	}
	return newObj("name", "key", "in", "path", "required", true,
		"description", "The API key. `123` and `3` are the public free keys.",
		"schema", newObj("type", "string"), "example", "123")
}

// operationID is a path written as one identifier.
func operationID(path string) string {
	r := strings.NewReplacer("/", "_", "{", "", "}", "")
	return strings.TrimPrefix(r.Replace(path), "_")
}
