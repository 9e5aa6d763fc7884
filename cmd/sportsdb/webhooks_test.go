package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// webhooks add registers a webhook of a key (id and secret printed), list shows it, the
// key sees it through the API of a running serve, which delivers an import's change to
// it, signed; remove removes it. A loopback URL is refused without --webhook-allow-private.
func TestWebhooksCommands(t *testing.T) {
	dir := t.TempDir()
	env := []string{"SPORTSDB_DB=hooks.db"}
	if out, ok := sportsdb(t, dir, env, "migrate"); !ok {
		t.Fatalf("migrate: %s", out)
	}
	key, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "premium", "--label", "bot")
	if !ok {
		t.Fatalf("keys add: %s", key)
	}
	key = strings.TrimSpace(key)
	got := make(chan []byte, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("webhook-signature") == "" {
			b = []byte("unsigned")
		}
		got <- b
	}))
	defer rcv.Close()
	if out, ok := sportsdb(t, dir, env, "webhooks", "add", rcv.URL); ok || !strings.Contains(out, "not a public address") {
		t.Fatalf("webhooks add of a loopback URL: ok=%v %s", ok, out)
	}
	out, ok := sportsdb(t, dir, env, "webhooks", "add", rcv.URL, "--kinds", "team", "--owner", key, "--webhook-allow-private")
	lines := strings.Fields(out)
	if !ok || len(lines) != 2 || !strings.HasPrefix(lines[0], "wh_") || !strings.HasPrefix(lines[1], "whsec_") {
		t.Fatalf("webhooks add: ok=%v %q", ok, out)
	}
	id := lines[0]
	if out, ok := sportsdb(t, dir, env, "webhooks", "list"); !ok || !strings.Contains(out, id) || !strings.Contains(out, "kinds=team") || strings.Contains(out, lines[1]) {
		t.Fatalf("webhooks list: %s", out)
	}

	addr, _ := startServeCollect(t, dir, append(env, "SPORTSDB_WEBHOOK_ALLOW_PRIVATE=true"))
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v2/json/webhooks/"+id, nil)
	req.Header.Set("X-API-KEY", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var view struct{ Webhook map[string]any }
	_ = json.NewDecoder(resp.Body).Decode(&view)
	resp.Body.Close()
	if resp.StatusCode != 200 || view.Webhook["owner"] != "bot" || view.Webhook["status"] != "active" {
		t.Fatalf("GET the webhook: %d %v", resp.StatusCode, view)
	}
	file := filepath.Join(dir, "team.json")
	if err := os.WriteFile(file, []byte(`{"teams":[{"idTeam":"9000001","strTeam":"Local FC","strSport":"Soccer"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, ok := sportsdb(t, dir, env, "import", file); !ok {
		t.Fatalf("import: %s", out)
	}
	select {
	case b := <-got:
		if !strings.Contains(string(b), `"id":"9000001"`) {
			t.Fatalf("delivered %s", b)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the import's change was not delivered")
	}
	if out, ok := sportsdb(t, dir, env, "webhooks", "remove", id); !ok {
		t.Fatalf("webhooks remove: %s", out)
	}
	if out, ok := sportsdb(t, dir, env, "webhooks", "remove", id); ok || !strings.Contains(out, "no such webhook") {
		t.Fatalf("webhooks remove again: %s", out)
	}
}
