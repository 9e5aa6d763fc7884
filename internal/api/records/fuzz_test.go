package records_test

import (
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/store"
)

// No body, Content-Type, condition or path a client sends gets a 5xx or anything but JSON.
func FuzzWrite(f *testing.F) {
	for _, seed := range []struct{ method, kind, id, body, contentType, ifMatch string }{
		{"PUT", "team", "1", `{"strTeam":"A"}`, "application/json", ""},
		{"PATCH", "event", "2", `{"idHomeTeam":"x"}`, "application/merge-patch+json", `"abc"`},
		{"PUT", "season", "1|2026", `{"strSeason":"2027"}`, "application/json", "*"},
		{"DELETE", "team", "1", ``, "", "W/\"x\""},
		{"PUT", "country", "England", `{"name_en":null}`, "application/json; charset=utf-8", ""},
		{"PUT", "team", "9", "{\"strTeam\":\"\\ud800\\u0000\xff\"}", "application/json", ""},
		{"PATCH", "team", "", `[]`, "text/json", ""},
		{"GET", "livescore", "5", `nul`, "application/x+json", ""},
		{"DELETE", "team", "1\x00\xff", ``, "", ""},
		{"PUT", "event", "3", `{"strStatus":"1H","strProgress":7,"dateEvent":"2026-02-30","strTime":"25:99","idHomeTeam":"3"}`, "application/json", ""},
		{"PATCH", "event", "3", `{"strStatus":"FT","strTimestamp":"2026-10-10T19:45:00+02:00","strProgress":null}`, "application/json", ""},
		{"PUT", "team", "3", `{"idLeague":"3","idLeague7":"3","strLeague7":""}`, "application/json", ""},
	} {
		f.Add(seed.method, seed.kind, seed.id, seed.body, seed.contentType, seed.ifMatch)
	}
	e := apitest.New(f, apitest.Options{})
	admin := e.AddKey(f, store.Business, store.Admin)
	f.Fuzz(func(t *testing.T, method, kind, id, body, contentType, ifMatch string) {
		switch method {
		case "GET", "PUT", "PATCH", "DELETE", "HEAD":
		default:
			method = "PUT"
		}
		path := "/api/v2/json/records/" + escape(kind) + "/" + escape(id)
		r := e.Send(t, method, path, strings.NewReader(body), "X-API-KEY", admin, "Content-Type", contentType, "If-Match", ifMatch)
		if r.Status >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, r.Status, r.Body)
		}
		if len(r.Body) > 0 && (r.Body[0] != '{' || r.Header.Get("Content-Type") != "application/json") {
			t.Fatalf("%s %s %q: %d %s, not JSON", method, path, body, r.Status, r.Body)
		}
	})
}

// escape percent-escapes every byte that is not a letter or digit, so any text is a segment.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
	}
	return b.String()
}

// No batch a client sends gets a 5xx or anything but JSON.
func FuzzBatch(f *testing.F) {
	for _, seed := range []struct{ body, contentType string }{
		{`{"idTeam":"1","strTeam":"A"}` + "\n" + `{"delete":{"kind":"team","id":"1"}}`, "application/x-ndjson"},
		{`{"teams":[{"idTeam":"2","strTeam":"B"}]}`, "application/json"},
		{`{"delete":{"kind":"season","id":"1|2026"}}`, "application/x-ndjson"},
		{`{"delete":{"kind":"team","id":"\u0000"}}` + "\n" + `{"delete":{"kind":"team","id":"` + "\xff" + `"}}`, "application/x-ndjson"},
		{`{"delete":{"kind":"team","id":"1"},"x":1}` + "\n[]\n{}", "application/jsonl"},
		{`[{"idEvent":"3","idHomeTeam":"007"}]`, "application/json"},
		{"\xef\xbb\xbf{\"idTeam\":\"4\"}\n{\"delete\"", "application/x-ndjson"},
	} {
		f.Add(seed.body, seed.contentType)
	}
	e := apitest.New(f, apitest.Options{})
	admin := e.AddKey(f, store.Business, store.Admin)
	f.Fuzz(func(t *testing.T, body, contentType string) {
		r := e.Send(t, "POST", "/api/v2/json/records", strings.NewReader(body), "X-API-KEY", admin, "Content-Type", contentType)
		if r.Status >= 500 {
			t.Fatalf("%q: %d %s", body, r.Status, r.Body)
		}
		if r.Body[0] != '{' || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%q: %d %s, not JSON", body, r.Status, r.Body)
		}
	})
}
