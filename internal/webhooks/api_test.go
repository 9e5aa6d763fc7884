package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sportsdb/internal/api"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

type apiCase struct {
	a  *API
	st Store
}

func newAPI(t *testing.T, allowPrivate bool) apiCase {
	st := openStore(t)
	a := NewAPI(Guard{AllowPrivate: allowPrivate}, clock.Fixed(t0))
	a.Bind(st)
	return apiCase{a: a, st: st}
}

// do sends a request through Match and Serve as the server does, for the key k.
func (c apiCase) do(t *testing.T, k store.Key, method, path, body string) (int, map[string]any) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	version, segs, ok := api.SplitPath(r.URL.EscapedPath())
	if !ok {
		t.Fatalf("%s: no API path", path)
	}
	tg, ok := c.a.Match(version, segs)
	if !ok {
		return http.StatusNotFound, nil
	}
	w := httptest.NewRecorder()
	c.a.Serve(w, r, tg, k)
	var out map[string]any
	if w.Body.Len() > 0 {
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %s: %d, not JSON: %s", method, path, w.Code, w.Body)
		}
	}
	return w.Code, out
}

var (
	alice = store.Key{Hash: "aaaaaaaaaaaaaaaa", Tier: store.Premium, Label: "alice"}
	bob   = store.Key{Hash: "bbbbbbbbbbbbbbbb", Tier: store.Business}
	admin = store.Key{Hash: "cccccccccccccccc", Tier: store.Premium, Role: store.Admin}
	free  = store.Key{Hash: "dddddddddddddddd", Tier: store.Free}
)

const base = "/api/v2/json/webhooks"

// A key registers, lists, reads, changes, disables, enables and deletes its own webhooks;
// another key sees none of them, an admin key all; the secret is shown once.
func TestAPIOwnWebhooks(t *testing.T) {
	c := newAPI(t, true)
	_ = c.st.AddKey(context.Background(), alice)
	code, out := c.do(t, alice, "POST", base, `{"url":"http://127.0.0.1:9/hook","kinds":["event","livescore"],"league":"4328","team":"133604"}`)
	if code != 201 {
		t.Fatalf("create: %d %v", code, out)
	}
	hook := out["webhook"].(map[string]any)
	id := hook["id"].(string)
	if !strings.HasPrefix(hook["secret"].(string), "whsec_") || hook["status"] != "active" || hook["owner"] != "alice" ||
		fmt.Sprint(hook["kinds"]) != "[event livescore]" || hook["league"] != "4328" || hook["team"] != "133604" {
		t.Fatalf("created %v", hook)
	}
	code, out = c.do(t, alice, "GET", base+"/"+id, "")
	if code != 200 || out["webhook"].(map[string]any)["secret"] != nil {
		t.Fatalf("read: %d %v (the secret is shown once)", code, out)
	}
	for _, k := range []store.Key{bob} {
		if code, _ := c.do(t, k, "GET", base+"/"+id, ""); code != 404 {
			t.Errorf("another key reads it: %d", code)
		}
		if code, _ := c.do(t, k, "DELETE", base+"/"+id, ""); code != 404 {
			t.Errorf("another key deletes it: %d", code)
		}
		if _, out := c.do(t, k, "GET", base, ""); len(out["webhooks"].([]any)) != 0 {
			t.Errorf("another key lists %v", out)
		}
	}
	if _, out := c.do(t, admin, "GET", base, ""); len(out["webhooks"].([]any)) != 1 {
		t.Errorf("an admin lists %v", out)
	}
	code, out = c.do(t, alice, "PATCH", base+"/"+id, `{"status":"disabled","team":""}`)
	if w := out["webhook"].(map[string]any); code != 200 || w["status"] != "disabled" || w["team"] != "" || w["reason"] == "" {
		t.Fatalf("disable: %d %v", code, out)
	}
	code, out = c.do(t, admin, "POST", base+"/"+id+"/enable", "")
	if code != 200 || out["webhook"].(map[string]any)["status"] != "active" {
		t.Fatalf("enable: %d %v", code, out)
	}
	if code, _ := c.do(t, alice, "DELETE", base+"/"+id, ""); code != 204 {
		t.Fatalf("delete: %d", code)
	}
	if code, _ := c.do(t, alice, "GET", base+"/"+id, ""); code != 404 {
		t.Fatalf("read after delete: %d", code)
	}
}

// GET .../{id} says why deliveries fail: the last status and error, the failures and the
// next attempt; a disabled webhook says so and why.
func TestAPIShowsFailures(t *testing.T) {
	c := newAPI(t, true)
	h := register(t, c.st, "http://127.0.0.1:9/", Definition{})
	h.Owner = alice.Hash
	_ = c.st.(store.Webhooks).DeleteWebhook(context.Background(), h.ID)
	_ = c.st.AddWebhook(context.Background(), h)
	s := store.WebhookState{Status: store.WebhookDisabled, Reason: "deliveries failed for 24h0m0s (40 attempts); the last: HTTP 503",
		Failures: 40, FailingSince: t0, LastStatus: 503, LastError: "HTTP 503"}
	_ = c.st.SetWebhookState(context.Background(), h.ID, s)
	_, out := c.do(t, alice, "GET", base+"/"+h.ID, "")
	w := out["webhook"].(map[string]any)
	if w["status"] != "disabled" || w["reason"] != s.Reason || w["last_status"] != 503.0 || w["last_error"] != "HTTP 503" || w["failures"] != 40.0 {
		t.Errorf("failing webhook shown as %v", w)
	}
}

// Bad input is a 4xx naming what is wrong, never a 500; a free key is refused; a key has
// at most MaxPerKey webhooks; without --webhook-allow-private a loopback URL is refused.
func TestAPIRefuses(t *testing.T) {
	c := newAPI(t, true)
	for _, tc := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", base, `{"url":"ftp://x"}`, 422, "url"},
		{"POST", base, `{}`, 422, "required"},
		{"POST", base, `{"url":"http://127.0.0.1/","kinds":["nope"]}`, 422, "kinds"},
		{"POST", base, `{"url":"http://127.0.0.1/","league":"43x"}`, 422, "league"},
		{"POST", base, `{"url":"http://127.0.0.1/","team":"1;"}`, 422, "team"},
		{"POST", base, `{"url":"http://127.0.0.1/","extra":1}`, 422, "extra"},
		{"POST", base, `{"url":5}`, 422, "url"},
		{"POST", base, `{"url":`, 400, "Malformed JSON"},
		{"POST", base, `[]`, 422, ""},
		{"POST", base, `{"url":"http://127.0.0.1/"} {}`, 400, "Malformed JSON"},
		{"POST", base, `{"url":"http://127.0.0.1/","status":"active"}`, 422, "status"},
		{"POST", base, `{"url":"http://127.0.0.1/","x":"` + strings.Repeat("a", maxBody) + `"}`, 413, ""},
		{"PUT", base, `{}`, 405, ""},
		{"GET", base + "/wh_missing", ``, 404, ""},
		{"GET", base + "/a/b", ``, 404, ""},
		{"GET", base + "/a/enable", ``, 404, ""},
	} {
		code, out := c.do(t, alice, tc.method, tc.path, tc.body)
		if code != tc.code || !strings.Contains(fmt.Sprint(out), tc.want) {
			t.Errorf("%s %s %.60s: %d %v, want %d with %q", tc.method, tc.path, tc.body, code, out, tc.code, tc.want)
		}
	}
	if code, out := c.do(t, free, "GET", base, ""); code != 400 || out["Message"] != "Premium API key required" {
		t.Errorf("a free key: %d %v", code, out)
	}
	for i := 0; i < MaxPerKey; i++ {
		if code, out := c.do(t, bob, "POST", base, `{"url":"http://127.0.0.1/"}`); code != 201 {
			t.Fatalf("webhook %d: %d %v", i, code, out)
		}
	}
	if code, _ := c.do(t, bob, "POST", base, `{"url":"http://127.0.0.1/"}`); code != 409 {
		t.Errorf("webhook %d of one key: %d, want 409", MaxPerKey+1, code)
	}
	guarded := newAPI(t, false)
	if code, out := guarded.do(t, alice, "POST", base, `{"url":"http://127.0.0.1:9/"}`); code != 422 || !strings.Contains(fmt.Sprint(out), "not a public address") {
		t.Errorf("a loopback URL without --webhook-allow-private: %d %v", code, out)
	}
}
