package records_test

import (
	"strings"
	"testing"
)

const batchPath = "/api/v2/json/records"

// A batch of NDJSON upserts, merges and deletes in one write and says how many of each; the
// records are answered everywhere at once and the feed names the writer.
func TestBatch(t *testing.T) {
	e := newEnv(t)
	want(t, "create two", e.send(t, "POST", batchPath, e.editor,
		`{"idTeam":"9000001","strTeam":"Riverside FC","strCountry":"England"}`+"\n"+
			`{"idTeam":"9000002","strTeam":"Hillside FC"}`+"\n", "Content-Type", "application/x-ndjson"),
		200, `{"upserted":2,"deleted":0,"unchanged":0}`)
	// A record sent as stored is unchanged; a partial one merges (strCountry stays).
	want(t, "merge, unchanged, delete", e.send(t, "POST", batchPath, e.editor,
		`{"idTeam":"9000001","strTeam":"Riverside AFC"}`+"\n"+
			`{"idTeam":"9000002","strTeam":"Hillside FC"}`+"\n"+
			`{"delete":{"kind":"team","id":"9000002"}}`, "Content-Type", "application/x-ndjson"),
		200, `{"upserted":1,"deleted":1,"unchanged":1}`)
	g := e.Get(t, teamPath, "X-API-KEY", e.editor)
	if !strings.Contains(string(g.Body), `"strTeam":"Riverside AFC"`) || !strings.Contains(string(g.Body), `"strCountry":"England"`) {
		t.Fatalf("merged record: %s", g.Body)
	}
	want(t, "deleted", e.Get(t, "/api/v2/json/records/team/9000002", "X-API-KEY", e.editor), 404, "")
	if r := e.V1(t, e.PremiumKey, "lookupteam.php?id=9000001"); !strings.Contains(string(r.Body), "Riverside AFC") {
		t.Fatalf("v1 after the batch: %s", r.Body)
	}
	feed := string(e.V2(t, "changes?kinds=team").Body)
	if strings.Count(feed, `"by":"`) != 4 || strings.Contains(feed, e.editor) || !strings.Contains(feed, `"id":"9000002","op":"delete"`) {
		t.Fatalf("feed: %s", feed)
	}
	// Any TheSportsDB response body, as application/json; the key in the path.
	r := e.Send(t, "POST", "/api/v2/json/"+e.editor+"/records", strings.NewReader(
		`{"teams":[{"idTeam":"9000003","strTeam":"Lakeside"},{"idTeam":"9000001","strTeam":"Riverside AFC"}]}`),
		"Content-Type", "application/json")
	want(t, "a response body", r, 200, `{"upserted":1,"deleted":0,"unchanged":1}`)
}

// A batch that fails keeps nothing, and its answer names the line: 422 for a record that
// breaks a rule of import, 400 for text that is not JSON, 404 for a delete of a record that
// is not stored, as the single DELETE answers.
func TestBatchFailsWhole(t *testing.T) {
	e := newEnv(t)
	good := `{"idTeam":"9000001","strTeam":"Riverside FC"}` + "\n"
	cases := []struct {
		name, contentType, body string
		status                  int
		answer                  string
	}{
		{"a reference no lookup reaches", "application/x-ndjson", good + `{"idTeam":"9000002","idLeague":"007"}`, 422,
			`{"Message":"Invalid record (line 2)","errors":[{"field":"idLeague","problem":"not an id a lookup can ask for: a leading zero (a lookup reads it as \"7\")"}]}`},
		{"no kind", "application/x-ndjson", good + `{"strNothing":"x"}`, 422, ""},
		{"malformed", "application/x-ndjson", good + `{"idTeam":"9000002",`, 400, ""},
		{"malformed body", "application/json", `{"teams":[` + strings.TrimSpace(good) + `,]}`, 400, ""},
		{"NDJSON sent as JSON", "application/json", good + good, 400,
			`{"Message":"Malformed JSON: invalid JSON at byte 46: more data after the end of the body (one record a line is NDJSON: send it as Content-Type: application\/x-ndjson)"}`},
		{"a delete of nothing", "application/x-ndjson", good + `{"delete":{"kind":"team","id":"9000009"}}`, 404, `{"Message":"Not found (line 2)"}`},
		{"a delete of an unknown kind", "application/x-ndjson", good + `{"delete":{"kind":"teams","id":"1"}}`, 422, ""},
		{"NUL", "application/x-ndjson", good + `{"idTeam":"9000002","strTeam":"a\u0000"}`, 422, ""},
		{"empty", "application/x-ndjson", "\n", 422, ""},
		{"not JSON by its type", "text/plain", good, 415, ""},
		{"too large", "application/x-ndjson", good + `{"idTeam":"9000002","strTeam":"` + strings.Repeat("x", 64<<20) + `"}`, 413, ""},
	}
	for _, c := range cases {
		r := e.send(t, "POST", batchPath, e.editor, c.body, "Content-Type", c.contentType)
		want(t, c.name, r, c.status, c.answer)
		if c.status == 400 && !strings.HasPrefix(string(r.Body), `{"Message":"Malformed JSON`) {
			t.Fatalf("%s: %s", c.name, r.Body)
		}
	}
	if r := e.Get(t, teamPath, "X-API-KEY", e.editor); r.Status != 404 {
		t.Fatalf("a failed batch kept a record: %d %s", r.Status, r.Body)
	}
	if feed := string(e.V2(t, "changes?kinds=team").Body); strings.Contains(feed, "9000001") {
		t.Fatalf("a failed batch left a change: %s", feed)
	}
	want(t, "GET of the batch path", e.Get(t, batchPath, "X-API-KEY", e.editor), 405, `{"Message":"Method not allowed"}`)
}

// Roles as for single writes: 403 without one; an editor's batch that writes or deletes a
// locked record is 423, one that locks a record 403, and keeps nothing; an admin's goes
// through.
func TestBatchRoles(t *testing.T) {
	e := newEnv(t)
	rec := `{"idTeam":"9000001","strTeam":"Riverside FC"}`
	want(t, "no role", e.send(t, "POST", batchPath, e.BusinessKey, rec, "Content-Type", "application/x-ndjson"), 403, `{"Message":"This key cannot write"}`)
	want(t, "an editor locks", e.send(t, "POST", batchPath, e.editor, `{"idTeam":"9000001","strLocked":"locked"}`, "Content-Type", "application/x-ndjson"),
		403, `{"Message":"Only an admin key sets or clears strLocked (line 1)"}`)
	want(t, "an admin locks", e.send(t, "POST", batchPath, e.admin, `{"idTeam":"9000001","strTeam":"A","strLocked":"locked"}`, "Content-Type", "application/x-ndjson"),
		200, `{"upserted":1,"deleted":0,"unchanged":0}`)
	other := `{"idTeam":"9000002","strTeam":"B"}` + "\n"
	want(t, "an editor writes a locked record", e.send(t, "POST", batchPath, e.editor, other+rec, "Content-Type", "application/x-ndjson"),
		423, `{"Message":"Locked (line 2)"}`)
	want(t, "an editor deletes a locked record", e.send(t, "POST", batchPath, e.editor, other+`{"delete":{"kind":"team","id":"9000001"}}`, "Content-Type", "application/x-ndjson"),
		423, `{"Message":"Locked (line 2)"}`)
	want(t, "nothing kept", e.Get(t, "/api/v2/json/records/team/9000002", "X-API-KEY", e.editor), 404, "")
	want(t, "an admin deletes it", e.send(t, "POST", batchPath, e.admin, `{"delete":{"kind":"team","id":"9000001"}}`, "Content-Type", "application/x-ndjson"),
		200, `{"upserted":0,"deleted":1,"unchanged":0}`)
}

// A browser's preflight of the batch path allows POST, as every records path's does.
func TestBatchPreflight(t *testing.T) {
	e := newEnv(t)
	r := e.Do(t, "OPTIONS", batchPath, "Origin", "https://app.example", "Access-Control-Request-Method", "POST")
	if r.Status != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "Content-Type") {
		t.Fatalf("preflight of the batch path: %d %v", r.Status, r.Header)
	}
}

// A batch keeps what a single write keeps besides the record: an event's derived fields
// (from the teams the same batch wrote before it) and, in play, its live score entry with the
// minute the line gave, which a delete line of the event removes.
func TestBatchDerivesAndScores(t *testing.T) {
	e := newEnv(t)
	want(t, "teams and an event", e.send(t, "POST", batchPath, e.editor,
		`{"idTeam":"9000001","strTeam":"Riverside FC","strSport":"Soccer"}`+"\n"+
			`{"idTeam":"9000002","strTeam":"Hillside United","strSport":"Soccer"}`+"\n"+
			`{"idEvent":"9200001","idHomeTeam":"9000001","idAwayTeam":"9000002","dateEvent":"2026-10-10","strTime":"19:45:00","strStatus":"1H","intHomeScore":"1","intAwayScore":"0","strProgress":"23"}`,
		"Content-Type", "application/x-ndjson"), 200, `{"upserted":3,"deleted":0,"unchanged":0}`)
	g := e.Get(t, "/api/v2/json/records/event/9200001", "X-API-KEY", e.editor)
	if !strings.Contains(string(g.Body), `"strEvent":"Riverside FC vs Hillside United"`) {
		t.Fatalf("derived fields: %s", g.Body)
	}
	if strings.Contains(string(g.Body), "strProgress") {
		t.Fatalf("the minute was kept in the event, not its live score entry: %s", g.Body)
	}
	// The minute goes to the live score entry, as a single write's does.
	if r := e.Get(t, "/api/v2/json/records/livescore/9200001", "X-API-KEY", e.editor); r.Status != 200 ||
		!strings.Contains(string(r.Body), `"strProgress":"23"`) {
		t.Fatalf("live score entry of the in-play event: %d %s", r.Status, r.Body)
	}
	want(t, "delete the event", e.send(t, "POST", batchPath, e.editor, `{"delete":{"kind":"event","id":"9200001"}}`,
		"Content-Type", "application/x-ndjson"), 200, `{"upserted":0,"deleted":1,"unchanged":0}`)
	want(t, "its live score entry", e.Get(t, "/api/v2/json/records/livescore/9200001", "X-API-KEY", e.editor), 404, "")
}
