package v1_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	v1 "sportsdb/internal/api/v1"
	"sportsdb/internal/store"
)

// badValues are values a careless or hostile client sends, URL-encoded as sent.
var badValues = map[string]string{
	"empty":         "",
	"overlong":      strings.Repeat("a", 10000),
	"non-numeric":   "abc",
	"negative":      "-1",
	"huge number":   "99999999999999999999999999",
	"decimal":       "1.5",
	"sql":           url.QueryEscape(`1' OR '1'='1'; DROP TABLE team; --`),
	"like wildcard": "%25",
	"nul":           "%00",
	"invalid utf-8": "%ff%fe%fd",
	"traversal":     url.QueryEscape("../../../etc/passwd"),
	"bad escape":    "%zz",
	"spaces only":   "+++",
}

var allParams = []string{"id", "t", "e", "s", "d", "f", "p", "v", "l", "c", "r", "a", "badge", "poster", "description"}

// TestBadInput: every endpoint, every parameter, every bad value: a documented answer (JSON
// with one key, an empty body, or a JSON 404), never a 5xx or anything else.
func TestBadInput(t *testing.T) {
	e := newEnv(t, fixtureNow)
	put(t, e.st, world()...)
	for _, file := range v1.Files() {
		for _, tier := range []store.Tier{store.Free, store.Premium} {
			wellFormed(t, e, tier, file)
			for _, p := range allParams {
				for _, v := range badValues {
					q := p + "=" + v
					wellFormed(t, e, tier, file+"?"+q)
					if tier == store.Free { // the parsing does not depend on the tier
						wellFormed(t, e, tier, file+"?"+q+"&"+q)                   // repeated
						wellFormed(t, e, tier, file+"?"+p+"=1&"+q+"&d=2026-10-05") // mixed
					}
				}
			}
		}
	}
	for _, file := range []string{"../lookupteam.php", "..%2Flookupteam.php", "lookupteam.php%00", "LOOKUPTEAM.PHP",
		"lookupteam", "", ".php", "/etc/passwd", "lookupteam.php/../all_sports.php"} {
		res := e.free(t, file+"?id=133604")
		wantStatus(t, res, 404, `{"Message":"Not found"}`)
	}
}

// wellFormed requests fq and fails unless the answer is one the service documents.
func wellFormed(t *testing.T, e *env, tier store.Tier, fq string) {
	t.Helper()
	res := e.get(t, tier, fq)
	if msg := documented(res); msg != "" {
		t.Fatalf("%s (%s): %s: %d %.200q", shorten(fq), tier, msg, res.Status, res.Body)
	}
}

// documented says what is wrong with an answer, or "" when it is a documented one.
func documented(res *resp) string {
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		return "content type " + ct
	}
	switch res.Status {
	case 404:
		if string(res.Body) != `{"Message":"Not found"}` {
			return "404 body"
		}
		return ""
	case 200:
	default:
		return "status"
	}
	if len(res.Body) == 0 {
		return ""
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(res.Body, &body); err != nil || len(body) != 1 {
		return "not a JSON object with one key"
	}
	for _, v := range body {
		var recs []map[string]*string
		var msg string
		if json.Unmarshal(v, &recs) != nil && json.Unmarshal(v, &msg) != nil {
			return "key holds neither records of strings nor a message"
		}
	}
	return ""
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
