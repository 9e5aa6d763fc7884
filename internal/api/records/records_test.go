package records_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/auth"
	"sportsdb/internal/openapi/openapitest"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// env is a server with one key of each role, on SQLite or, with SPORTSDB_TEST_API_DB=postgres,
// on PostgreSQL.
type env struct {
	*apitest.Env
	editor, admin string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := apitest.New(t, apitest.Options{})
	return &env{Env: e, editor: e.AddKey(t, store.Business, store.Editor), admin: e.AddKey(t, store.Free, store.Admin)}
}

const teamPath = "/api/v2/json/records/team/9000001"

// send sends body (JSON) with the key in X-API-KEY; headers come in name, value pairs.
func (e *env) send(t *testing.T, method, path, key, body string, headers ...string) *apitest.Response {
	t.Helper()
	h := append([]string{"X-API-KEY", key, "Content-Type", "application/json"}, headers...)
	return e.Send(t, method, path, strings.NewReader(body), h...)
}

func want(t *testing.T, what string, r *apitest.Response, status int, body string) {
	t.Helper()
	if r.Status != status || body != "" && string(r.Body) != body {
		t.Fatalf("%s: %d %s\nwant %d %s", what, r.Status, r.Body, status, body)
	}
	if ct := r.Header.Get("Content-Type"); r.Status != http.StatusNoContent && r.Status != http.StatusNotModified && ct != "application/json" {
		t.Fatalf("%s: Content-Type %q", what, ct)
	}
}

// A PUT creates (201) and then replaces (200) a record; GET answers it in wire order with the
// ETag the write gave; every read endpoint answers the new data at once; the feed has it.
func TestPutGetReadEverywhere(t *testing.T) {
	e := newEnv(t)
	// Fill the response cache with the answers before the write.
	for _, p := range []string{"lookupteam.php?id=9000001", "searchteams.php?t=Riverside"} {
		if r := e.V1(t, e.PremiumKey, p); r.Status != 200 || strings.Contains(string(r.Body), "Riverside") {
			t.Fatalf("before: %s: %d %s", p, r.Status, r.Body)
		}
	}
	e.V2(t, "lookup/team/9000001")

	r := e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"Riverside FC","strSport":"Soccer","idLeague":null}`)
	want(t, "create", r, 201, "")
	tag := r.Header.Get("ETag")
	if len(tag) != 34 || tag[0] != '"' {
		t.Fatalf("ETag %q", tag)
	}
	var got struct{ Record map[string]any }
	if err := json.Unmarshal(r.Body, &got); err != nil || got.Record["strTeam"] != "Riverside FC" || got.Record["idLeague"] != nil {
		t.Fatalf("created: %v %s", err, r.Body)
	}
	g := e.Get(t, teamPath, "X-API-KEY", e.PremiumKey)
	want(t, "get", g, 200, string(r.Body))
	if g.Header.Get("ETag") != tag {
		t.Fatalf("GET ETag %q, PUT gave %q", g.Header.Get("ETag"), tag)
	}
	if !strings.HasPrefix(string(g.Body), `{"record":{"idTeam":"9000001","idESPN":null,"idAPIfootball":null,"intLoved":null,"strTeam":"Riverside FC"`) {
		t.Fatalf("fields not in wire order: %s", g.Body)
	}
	want(t, "get, not modified", e.Get(t, teamPath, "X-API-KEY", e.PremiumKey, "If-None-Match", tag), 304, "")
	// The answers are as the API's document describes them.
	v := openapitest.New(t)
	for _, c := range []struct {
		path   string
		status int
		body   []byte
	}{{teamPath, 200, g.Body}, {"/api/v2/json/records/team/1", 404, e.Get(t, "/api/v2/json/records/team/1", "X-API-KEY", e.editor).Body}} {
		if err := v.Check(c.path, c.status, c.body); err != nil {
			t.Fatal(err)
		}
	}

	for _, p := range []string{"lookupteam.php?id=9000001", "searchteams.php?t=Riverside"} {
		if r := e.V1(t, e.PremiumKey, p); r.Status != 200 || !strings.Contains(string(r.Body), `"strTeam":"Riverside FC"`) {
			t.Fatalf("after the write: %s: %d %s", p, r.Status, r.Body)
		}
	}
	if r := e.V2(t, "lookup/team/9000001"); !strings.Contains(string(r.Body), `"strTeam":"Riverside FC"`) {
		t.Fatalf("v2 lookup after the write: %d %s", r.Status, r.Body)
	}

	r = e.send(t, "PUT", teamPath, e.editor, `{"idTeam":"9000001","strTeam":"Riverside Town"}`)
	want(t, "replace", r, 200, "")
	if strings.Contains(string(r.Body), "Soccer") || r.Header.Get("ETag") == tag {
		t.Fatalf("a PUT replaces the whole record, with a new ETag: %s %s", r.Header.Get("ETag"), r.Body)
	}
	if r := e.V1(t, e.PremiumKey, "searchteams.php?t=Riverside"); !strings.Contains(string(r.Body), "Riverside Town") {
		t.Fatalf("search after the replace: %s", r.Body)
	}
	feed := e.V2(t, "changes?kinds=team")
	if n := strings.Count(string(feed.Body), `"kind":"team","id":"9000001","op":"upsert"`); n != 2 {
		t.Fatalf("the feed has %d upserts of the team, want 2: %s", n, feed.Body)
	}
	// Each change names who wrote it: the key's label, or the start of its hash.
	if n := strings.Count(string(feed.Body), `,"by":"test"}`); n != 2 {
		t.Fatalf("the feed names the editor's label %d times, want 2: %s", n, feed.Body)
	}
	unlabelled := auth.NewKey()
	if err := e.Store.AddKey(context.Background(), store.Key{Hash: auth.Hash(unlabelled), Tier: store.Premium, Role: store.Admin}); err != nil {
		t.Fatal(err)
	}
	want(t, "delete", e.send(t, "DELETE", teamPath, unlabelled, ""), 204, "")
	if feed := e.V2(t, "changes?kinds=team"); !strings.Contains(string(feed.Body), `"op":"delete","time":"`) ||
		!strings.Contains(string(feed.Body), `,"by":"`+auth.Hash(unlabelled)[:8]+`"}`) || strings.Contains(string(feed.Body), unlabelled) {
		t.Fatalf("a delete by a key without a label: %s", feed.Body)
	}
}

// PATCH is a merge patch: strings set, null clears, the rest stays; 404 when there is no
// record. DELETE is 204, then the record is gone everywhere and the feed has a delete.
func TestPatchDelete(t *testing.T) {
	e := newEnv(t)
	want(t, "patch of nothing", e.send(t, "PATCH", teamPath, e.editor, `{"strTeam":"X"}`), 404, `{"Message":"Not found"}`)
	e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"Riverside FC","strSport":"Soccer","strCountry":"England"}`)
	r := e.send(t, "PATCH", teamPath, e.editor, `{"strSport":null,"strCountry":"Wales"}`, "Content-Type", "application/merge-patch+json")
	want(t, "patch", r, 200, "")
	var got struct{ Record map[string]any }
	_ = json.Unmarshal(r.Body, &got)
	if got.Record["strTeam"] != "Riverside FC" || got.Record["strSport"] != nil || got.Record["strCountry"] != "Wales" || got.Record["idTeam"] != "9000001" {
		t.Fatalf("patched: %s", r.Body)
	}
	// An id field of null or "" in a patch leaves the id as the path says.
	want(t, "patch the id away", e.send(t, "PATCH", teamPath, e.editor, `{"idTeam":null}`), 200, string(r.Body))
	// A write that changes nothing keeps the ETag and adds nothing to the feed.
	before := e.V2(t, "changes?kinds=team")
	for _, m := range []string{"PATCH", "PUT"} {
		body := `{"strCountry":"Wales"}`
		if m == "PUT" {
			body = `{"strTeam":"Riverside FC","strCountry":"Wales"}`
		}
		again := e.send(t, m, teamPath, e.editor, body)
		want(t, m+" that changes nothing", again, 200, string(r.Body))
		if again.Header.Get("ETag") != r.Header.Get("ETag") {
			t.Errorf("%s that changes nothing: ETag %s, want %s", m, again.Header.Get("ETag"), r.Header.Get("ETag"))
		}
	}
	if after := e.V2(t, "changes?kinds=team"); string(after.Body) != string(before.Body) {
		t.Errorf("writes that changed nothing added to the feed:\n%s\nwas\n%s", after.Body, before.Body)
	}

	want(t, "delete", e.send(t, "DELETE", teamPath, e.editor, ""), 204, "")
	want(t, "get after delete", e.Get(t, teamPath, "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
	if r := e.V1(t, e.PremiumKey, "lookupteam.php?id=9000001"); r.Status != 200 || strings.Contains(string(r.Body), "Riverside") {
		t.Fatalf("lookup after delete: %s", r.Body)
	}
	want(t, "delete again", e.send(t, "DELETE", teamPath, e.editor, ""), 404, `{"Message":"Not found"}`)
	if feed := e.V2(t, "changes?kinds=team"); !strings.Contains(string(feed.Body), `"id":"9000001","op":"delete"`) {
		t.Fatalf("no delete in the feed: %s", feed.Body)
	}
}

// If-Match makes a write conditional: 412 with the current ETag when another came first;
// If-None-Match: * makes a PUT create-only.
func TestConditions(t *testing.T) {
	e := newEnv(t)
	want(t, "if-match on nothing", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"A"}`, "If-Match", `"abc"`), 412, `{"Message":"Precondition failed"}`)
	r := e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"A"}`, "If-None-Match", "*")
	want(t, "create-only on nothing", r, 201, "")
	first := r.Header.Get("ETag")
	r = e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"B"}`, "If-None-Match", "*")
	want(t, "create-only on a record", r, 412, `{"Message":"Precondition failed"}`)
	if r.Header.Get("ETag") != first {
		t.Fatalf("412 ETag %q, want the current %q", r.Header.Get("ETag"), first)
	}
	r = e.send(t, "PATCH", teamPath, e.editor, `{"strTeam":"B"}`, "If-Match", first)
	want(t, "patch at the current version", r, 200, "")
	second := r.Header.Get("ETag")
	r = e.send(t, "PATCH", teamPath, e.admin, `{"strTeam":"C"}`, "If-Match", first)
	want(t, "patch at an old version", r, 412, `{"Message":"Precondition failed"}`)
	if r.Header.Get("ETag") != second {
		t.Fatalf("412 ETag %q, want the current %q", r.Header.Get("ETag"), second)
	}
	want(t, "delete at an old version", e.send(t, "DELETE", teamPath, e.editor, "", "If-Match", first), 412, "")
	want(t, "weak tags never match", e.send(t, "DELETE", teamPath, e.editor, "", "If-Match", "W/"+second), 412, "")
	if g := e.Get(t, teamPath, "X-API-KEY", e.editor); !strings.Contains(string(g.Body), `"strTeam":"B"`) {
		t.Fatalf("a refused write kept something: %s", g.Body)
	}
	want(t, "delete at the current version", e.send(t, "DELETE", teamPath, e.editor, "", "If-Match", "\"x\", "+second), 204, "")
}

// Who may write what: a key without a role gets 403 for every write; an editor gets 423 on a
// locked record and 403 for setting strLocked; an admin does both.
func TestRolesAndLocks(t *testing.T) {
	e := newEnv(t)
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		want(t, m+" without a role", e.send(t, m, teamPath, e.BusinessKey, `{"strTeam":"A"}`), 403, `{"Message":"This key cannot write"}`)
	}
	want(t, "get with a free key", e.Get(t, teamPath, "X-API-KEY", e.FreeKey), 400, `{"Message":"Premium API key required"}`)
	want(t, "an editor locks", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"A","strLocked":"locked"}`), 403, "")
	want(t, "the refused write kept nothing", e.Get(t, teamPath, "X-API-KEY", e.editor), 404, "")
	want(t, "an editor writes unlocked", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"A","strLocked":"unlocked"}`), 201, "")
	want(t, "an admin locks", e.send(t, "PATCH", teamPath, e.admin, `{"strLocked":"locked"}`), 200, "")
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		want(t, m+" of a locked record by an editor", e.send(t, m, teamPath, e.editor, `{"strTeam":"B"}`), 423, `{"Message":"Locked"}`)
	}
	want(t, "an admin writes a locked record", e.send(t, "PATCH", teamPath, e.admin, `{"strTeam":"C"}`), 200, "")
	want(t, "an admin unlocks", e.send(t, "PATCH", teamPath, e.admin, `{"strLocked":null}`), 200, "")
	want(t, "an editor writes it again", e.send(t, "PATCH", teamPath, e.editor, `{"strTeam":"D"}`), 200, "")
	want(t, "key in the path", e.Send(t, "PATCH", "/api/v2/json/"+e.editor+"/records/team/9000001", strings.NewReader(`{"strTeam":"E"}`), "Content-Type", "application/json"), 200, "")
	want(t, "unknown key", e.send(t, "PUT", teamPath, "nope", `{}`), 400, `{"Message":"Invalid API key"}`)
}

// Bad input gets the answer section 13 names, never a 5xx, and nothing is kept.
func TestBadInput(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, method, path, contentType, body string
		status                                int
		answer                                string
	}{
		{"not JSON by its type", "PUT", teamPath, "text/plain", `{"strTeam":"A"}`, 415, ""},
		{"no type", "PUT", teamPath, "", `{"strTeam":"A"}`, 415, ""},
		{"malformed", "PUT", teamPath, "application/json", `{"strTeam":`, 400, `{"Message":"Malformed JSON"}`},
		{"two values", "PUT", teamPath, "application/json", `{} {}`, 400, `{"Message":"Malformed JSON"}`},
		{"too large", "PUT", teamPath, "application/json", `{"strTeam":"` + strings.Repeat("x", 4<<20) + `"}`, 413, ""},
		{"an array", "PUT", teamPath, "application/json", `[{"strTeam":"A"}]`, 422,
			`{"Message":"Invalid record","errors":[{"field":"","problem":"the body must be one JSON object"}]}`},
		{"a number, an unknown field, an object", "PUT", teamPath, "application/json", `{"intLoved":3,"strFoo":"x","strTeam":{}}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"intLoved","problem":"want a string or null"},{"field":"strFoo","problem":"not a field of team"},{"field":"strTeam","problem":"want a string or null"}]}`},
		{"NUL", "PUT", teamPath, "application/json", `{"strTeam":"a\u0000b"}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"strTeam","problem":"holds a NUL character (\\u0000), which the database cannot store"}]}`},
		{"lone surrogate", "PUT", teamPath, "application/json", `{"strTeam":"\ud800"}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"strTeam","problem":"not valid UTF-8"}]}`},
		{"invalid UTF-8", "PUT", teamPath, "application/json", "{\"strTeam\":\"\xff\"}", 422,
			`{"Message":"Invalid record","errors":[{"field":"strTeam","problem":"not valid UTF-8"}]}`},
		{"a reference no lookup reaches", "PUT", teamPath, "application/json", `{"idLeague":"007"}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idLeague","problem":"not an id a lookup can ask for: a leading zero (a lookup reads it as \"7\")"}]}`},
		{"an id in the path no lookup reaches", "PUT", "/api/v2/json/records/team/abc", "application/json", `{}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idTeam","problem":"not an id a lookup can ask for: want digits only"}]}`},
		{"an id other than the path's", "PUT", teamPath, "application/json", `{"idTeam":"5"}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idTeam","problem":"must equal the id in the path (9000001)"}]}`},
		{"a season's id", "PUT", "/api/v2/json/records/season/4328", "application/json", `{}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idLeague","problem":"the id in the path is not one of a season (idLeague|strSeason)"}]}`},
		{"a season's id with NUL", "PUT", "/api/v2/json/records/season/4328%7C2026%00", "application/json", `{}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idLeague","problem":"the id in the path: holds a NUL character (\\u0000), which the database cannot store"}]}`},
		{"a season's id not UTF-8", "PATCH", "/api/v2/json/records/season/4328%7C2026%FF", "application/json", `{}`, 422,
			`{"Message":"Invalid record","errors":[{"field":"idLeague","problem":"the id in the path: not valid UTF-8"}]}`},
		{"unknown kind", "PUT", "/api/v2/json/records/teams/1", "application/json", `{}`, 404, `{"Message":"Not found"}`},
		{"other method", "POST", teamPath, "application/json", `{}`, 405, `{"Message":"Method not allowed"}`},
	}
	for _, c := range cases {
		r := e.send(t, c.method, c.path, e.editor, c.body, "Content-Type", c.contentType)
		want(t, c.name, r, c.status, c.answer)
	}
	if r := e.Get(t, teamPath, "X-API-KEY", e.editor); r.Status != 404 {
		t.Fatalf("a refused write kept a record: %d %s", r.Status, r.Body)
	}
	// A season's id is its league and season, joined by "|".
	want(t, "a season", e.send(t, "PUT", "/api/v2/json/records/season/4328%7C2026-2027", e.editor, `{}`), 201,
		`{"record":{"idLeague":"4328","strSeason":"2026-2027","strPoster":null,"strBadge":null,"strDescriptionEN":null}}`)
}

// An id that holds what no write could store (NUL, bytes that are not UTF-8) names no record:
// every method answers 404, on PostgreSQL too, which refuses to look for it.
func TestIDNoWriteStores(t *testing.T) {
	e := newEnv(t)
	for _, id := range []string{"9%00", "9%FF", "4328%7C2026%00"} {
		for _, kind := range []string{"team", "season"} {
			path := "/api/v2/json/records/" + kind + "/" + id
			want(t, "GET "+path, e.Get(t, path, "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
			want(t, "DELETE "+path, e.send(t, "DELETE", path, e.editor, ""), 404, `{"Message":"Not found"}`)
			want(t, "GET "+path+"/history", e.Get(t, path+"/history", "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
		}
	}
}

// The access log and the server's log show a records path with {key} in place of a key and
// the route v2/records, whether the write worked or not; a preflight allows the write methods
// and headers, without a key.
func TestLogsAndPreflight(t *testing.T) {
	var log, errs testsupport.LogBuffer
	e := apitest.New(t, apitest.Options{AccessLog: server.NewAccessLog(&log, false),
		Logger: slog.New(slog.NewTextHandler(&errs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	editor := e.AddKey(t, store.Business, store.Editor)
	for _, key := range []string{editor, "SECRETKEY"} {
		for _, body := range []string{`{"strTeam":"A"}`, `{"strTeam":`} {
			e.Send(t, "PUT", "/api/v2/json/"+key+"/records/team/9000001", strings.NewReader(body), "Content-Type", "application/json")
			e.Send(t, "PATCH", teamPath, strings.NewReader(body), "Content-Type", "application/json", "X-API-KEY", key)
		}
	}
	for _, out := range []string{log.String(), errs.String()} {
		if strings.Contains(out, editor) || strings.Contains(out, "SECRETKEY") {
			t.Fatalf("a log holds a key:\n%s", out)
		}
	}
	if !strings.Contains(log.String(), "/api/v2/json/{key}/records/team/9000001") || !strings.Contains(log.String(), "v2/records") {
		t.Fatalf("access log:\n%s", log.String())
	}
	r := e.Do(t, "OPTIONS", teamPath, "Origin", "https://app.example", "Access-Control-Request-Method", "PUT")
	if r.Status != 204 || r.Header.Get("Access-Control-Allow-Methods") != "GET, PUT, PATCH, DELETE, POST" ||
		r.Header.Get("Access-Control-Allow-Headers") != "X-API-KEY, Content-Type, If-Match, If-None-Match" ||
		!strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "ETag") || r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("preflight of a records path: %d %v", r.Status, r.Header)
	}
	r = e.Do(t, "OPTIONS", "/api/v2/json/lookup/team/1")
	if r.Header.Get("Access-Control-Allow-Methods") != "GET, HEAD" {
		t.Fatalf("preflight of a read path: %v", r.Header)
	}
}
