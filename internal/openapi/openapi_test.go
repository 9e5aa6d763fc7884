package openapi_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/api/records"
	"sportsdb/internal/api/sportarr"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/apitest"
	"sportsdb/internal/calendar"
	"sportsdb/internal/live"
	"sportsdb/internal/media"
	"sportsdb/internal/openapi"
	"sportsdb/internal/openapi/openapitest"
	"sportsdb/internal/webhooks"
	"sportsdb/internal/xmltv"
)

type operation struct {
	Route string         `json:"x-route"`
	Caps  map[string]int `json:"x-caps"`
}

type document struct {
	OpenAPI string                          `json:"openapi"`
	Paths   map[string]map[string]operation `json:"paths"`
}

func build(t *testing.T, table *caps.Table) (document, *v1.API, *v2.API) {
	t.Helper()
	d := api.Deps{Caps: table}
	a1, a2 := v1.New(d), v2.New(d)
	raw, err := openapi.Build(openapi.For(a1, a2, table, "test"))
	if err != nil {
		t.Fatal(err)
	}
	var doc document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc, a1, a2
}

// Every path the tables route is a path of the document, and every route name is an
// operation's: a row added to a table is described without another edit.
func TestEveryRouteIsDescribed(t *testing.T) {
	doc, a1, a2 := build(t, caps.New())
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	want := len(a1.Docs()) + len(a2.Docs()) + len(calendar.Scopes) + 2*len(live.Surfaces) + len(xmltv.Routes) + len(sportarr.Docs()) + 6 + 3 + 2
	if len(doc.Paths) != want {
		t.Errorf("%d paths, want %d (v1 %d, v2 %d, calendars %d, change feed %d twice, xmltv %d, sportarr %d, records 6, webhooks 3, images 2)", len(doc.Paths), want,
			len(a1.Docs()), len(a2.Docs()), len(calendar.Scopes), len(live.Surfaces), len(xmltv.Routes), len(sportarr.Docs()))
	}
	described := map[string]bool{}
	for _, item := range doc.Paths {
		for _, op := range item {
			described[op.Route] = true
		}
	}
	routes := slices.Concat(a1.Routes(), a2.Routes(), live.Routes(), xmltv.Routes,
		sportarr.NewSurface(nil, nil, nil, nil).Routes(), []string{records.Route, webhooks.RouteList, webhooks.RouteOne}, media.Routes)
	for _, r := range routes {
		if !described[r] {
			t.Errorf("route %s is in no operation", r)
		}
	}
	for _, d := range append(a1.Docs(), a2.Docs()...) {
		if _, ok := doc.Paths[d.Path]; !ok {
			t.Errorf("path %s is not described", d.Path)
		}
	}
}

// x-caps are the caps table's, overrides included.
func TestCapsComeFromTheTable(t *testing.T) {
	table := caps.New()
	doc, _, _ := build(t, table)
	if got := doc.Paths["/api/v1/json/{key}/searchteams.php"]["get"].Caps; got["free"] != 1 || got["premium"] != 100 {
		t.Errorf("searchteams.php caps %v, want free 1 premium 100", got)
	}
	if _, free := doc.Paths["/api/v2/json/search/team/{name}"]["get"].Caps["free"]; free {
		t.Error("a premium-only path lists a free cap")
	}
	file := t.TempDir() + "/caps.json"
	if err := os.WriteFile(file, []byte(`{"v1/searchteams.php":{"free":3,"premium":7}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := table.LoadFile(file); err != nil {
		t.Fatal(err)
	}
	doc, _, _ = build(t, table)
	if got := doc.Paths["/api/v2/json/{key}/searchteams.php"]["get"].Caps; got["free"] != 3 || got["premium"] != 7 {
		t.Errorf("overridden caps %v, want free 3 premium 7", got)
	}
}

// Every recorded answer of the public service validates against the document's schema of
// its path: a rejected key as a 400, the rest as a 200. A recorded file no table routes
// (the server answers it 404) is no path of the document either.
func TestRecordedAnswersValidate(t *testing.T) {
	v := openapitest.New(t)
	_, a1, a2 := build(t, caps.New())
	checked := 0
	for _, set := range []string{"v1-free", "v2"} {
		for _, fx := range apitest.Fixtures(t, set) {
			body, err := os.ReadFile(fx.File)
			if err != nil {
				t.Fatal(err)
			}
			path := strings.ReplaceAll(fx.PathQuery, "{key}", "123")
			if _, ok := v.Match(strings.SplitN(path, "?", 2)[0]); !ok && !routed(path, a2, a1) {
				t.Logf("%s/%s: %s is no endpoint of the tables (answered 404), not described", set, fx.Name, path)
				continue
			}
			status := 200
			if strings.HasPrefix(fx.Auth, "wrong key") {
				status = 400
			}
			if err := v.Check(path, status, body); err != nil {
				t.Errorf("%s/%s: %v", set, fx.Name, err)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d recorded answers checked", checked)
	}
}

// routed says whether a route table names the endpoint of an API path.
func routed(path string, mounts ...api.Mount) bool {
	version, segs, ok := api.SplitPath(strings.SplitN(path, "?", 2)[0])
	if !ok {
		return false
	}
	for _, m := range mounts {
		if t, ok := m.Match(version, segs); ok {
			return t.Known()
		}
	}
	return false
}

// The schemas refuse what the API never sends, so a passing check says something.
func TestSchemasRefuseOtherAnswers(t *testing.T) {
	v := openapitest.New(t)
	for _, c := range []struct {
		name, path string
		status     int
		body       string
	}{
		{"number in a v1 record", "/api/v1/json/123/all_sports.php", 200, `{"sports":[{"idSport":1,"strSport":"Soccer","strFormat":null,"strSportThumb":null,"strSportThumbBW":null,"strSportIconGreen":null,"strSportDescription":null}]}`},
		{"field missing", "/api/v1/json/123/all_countries.php", 200, `{"countries":[{"name_en":"Andorra"}]}`},
		{"wrong record key", "/api/v1/json/123/all_countries.php", 200, `{"country":null}`},
		{"empty array on v1", "/api/v2/json/search/team/x", 200, `{"search":[]}`},
		{"v1 null on v2", "/api/v2/json/lookup/team/1", 200, `{"lookup":null}`},
		{"unknown status", "/api/v2/json/lookup/team/1", 418, `{"Message":"x"}`},
		{"unknown path", "/api/v3/json/x", 200, `{}`},
		{"429 in another shape", "/api/v2/json/lookup/team/1", 429, `{"Message":"slow down","error":429}`},
		{"match item without its score", "/api/v2/json/match/event", 200, `{"match":[{"why":"teams","event":{"idEvent":"1"}}]}`},
	} {
		if err := v.Check(c.path, c.status, []byte(c.body)); err == nil {
			t.Errorf("%s: %s %d %s validated", c.name, c.path, c.status, c.body)
		}
	}
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/api/v2/json/lookup/team/1", 200, `{"Message":"No data found"}`},
		{"/api/v2/json/{key}/search/team/x", 200, `{"search":[{"idTeam":133604,"strTeam":"Arsenal","idLeague":"x","strLeague":null,"strBadge":null,"strCountry":null,"strGender":null,"strLocation":null,"strSport":null}]}`},
		{"/api/v1/json/123/lookupteam.php", 404, `{"Message":"Not found"}`},
		{"/api/v2/json/lookup/team/1", 429, `{"message":"Rate limit exceeded. Please keep below 100 requests per 1 minute.","error":429}`},
		{"/api/v1/json/123/all_sports.php", 503, `{"Message":"Service unavailable"}`},
		{"/calendar/123/team/133604.ics", 400, `{"Message":"Invalid API key"}`},
		{"/xmltv/123/team/133604.xml", 400, `{"Message":"Invalid API key"}`},
	} {
		if err := v.Check(c.path, c.status, []byte(c.body)); err != nil {
			t.Errorf("%s %d %s: %v", c.path, c.status, c.body, err)
		}
	}
}

// SPORTSDB_OPENAPI_OUT names a file the document is written to, for the OpenAPI parser
// of test/openapi (.ci/run).
func TestWriteDocument(t *testing.T) {
	out := os.Getenv("SPORTSDB_OPENAPI_OUT")
	if out == "" {
		t.Skip("SPORTSDB_OPENAPI_OUT not set")
	}
	raw, err := openapi.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, openapitest.Indent(raw), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every {parameter} of a path is declared as a required path parameter, and an operation
// lists parameters only when it has some (OpenAPI wants an array, never null).
func TestPathParametersAreDeclared(t *testing.T) {
	raw, err := openapi.Default()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]struct {
			Get  map[string]json.RawMessage `json:"get"`
			Post map[string]json.RawMessage `json:"post"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths {
		var params []struct {
			Name, In string
			Required bool
		}
		op := item.Get
		if op == nil { // a path of POST only: a batch of the records API, a webhook's enable
			op = item.Post
		}
		if p, ok := op["parameters"]; ok {
			if err := json.Unmarshal(p, &params); err != nil || len(params) == 0 {
				t.Errorf("%s: parameters %s", path, p)
			}
		}
		declared := map[string]bool{}
		for _, p := range params {
			if p.In == "path" && p.Required {
				declared[p.Name] = true
			}
		}
		for _, seg := range strings.Split(path, "/") {
			if name, ok := strings.CutPrefix(seg, "{"); ok {
				name, _, _ = strings.Cut(name, "}")
				if !declared[name] {
					t.Errorf("%s: {%s} is not a required path parameter", path, name)
				}
			}
		}
	}
}
