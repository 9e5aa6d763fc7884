package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/auth"
)

// keys add --key stores a client's built-in key by value: refused before, the client's
// request is answered after; only its hash is stored; bad values are refused with what was
// wanted, and nothing is stored for them.
func TestKeysAddByValue(t *testing.T) {
	dir := t.TempDir()
	env := []string{"SPORTSDB_DB=keys.db"}
	if out, ok := sportsdb(t, dir, env, "gen", "--scale", "demo"); !ok {
		t.Fatalf("gen: %s", out)
	}
	for value, want := range map[string]string{
		"a/b":                    `cannot hold "/"`,
		strings.Repeat("x", 129): "at most 128 characters",
		"tab\there":              "printable characters only",
	} {
		out, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "free", "--key", value)
		if ok || !strings.Contains(out, "--key: ") || !strings.Contains(out, want) || strings.Contains(out, value) {
			t.Errorf("keys add --key %q: ok=%v, output %q; want a refusal saying %q without the value", value, ok, out, want)
		}
	}
	if out, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "free", "--key", ""); !ok || len(strings.TrimSpace(out)) != auth.KeyLength {
		t.Errorf("keys add --key \"\" should make a random key: ok=%v %q", ok, out)
	}

	addr, _ := startServeCollect(t, dir, env)
	url := "http://" + addr + "/api/v1/json/1/all_sports.php"
	if code, body := get(t, url); code != http.StatusBadRequest || !strings.Contains(body, "Invalid API key") {
		t.Fatalf("key 1 before keys add: %d %s", code, body)
	}
	out, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "free", "--key", "1", "--label", "jsportsdb default")
	if !ok || strings.TrimSpace(out) != "1" {
		t.Fatalf("keys add --key 1: ok=%v %q", ok, out)
	}
	if out, ok := sportsdb(t, dir, append(env, "SPORTSDB_KEY_VALUE=1"), "keys", "add", "--tier", "premium"); ok || !strings.Contains(out, "stored already") {
		t.Errorf("the same value twice: ok=%v %q", ok, out)
	}
	list, _ := sportsdb(t, dir, env, "keys", "list")
	if !strings.Contains(list, auth.Hash("1")[:12]) || !strings.Contains(list, "jsportsdb default") {
		t.Errorf("keys list lacks the key's hash:\n%s", list)
	}
	// A running server trusts its cached refusal for up to auth.MaxTTL; a server started now
	// has none, so it answers at once.
	addr, _ = startServeCollect(t, dir, env)
	if code, body := get(t, "http://"+addr+"/api/v1/json/1/all_sports.php"); code != http.StatusOK || !strings.Contains(body, `"sports"`) {
		t.Errorf("key 1 after keys add: %d %.200s", code, body)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// keys add --role stores the key's role, keys list shows it, and a role no key can have is
// refused with nothing stored.
func TestKeysAddRole(t *testing.T) {
	dir := t.TempDir()
	env := []string{"SPORTSDB_DB=keys.db"}
	if out, ok := sportsdb(t, dir, env, "migrate"); !ok {
		t.Fatalf("migrate: %s", out)
	}
	for _, role := range []string{"editor", "admin"} {
		if out, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "business", "--role", role, "--key", "k-"+role); !ok {
			t.Fatalf("keys add --role %s: %s", role, out)
		}
	}
	if out, ok := sportsdb(t, dir, env, "keys", "add", "--tier", "free", "--role", "owner", "--key", "k-owner"); ok || !strings.Contains(out, "want editor or admin") {
		t.Errorf("keys add --role owner: ok=%v %q", ok, out)
	}
	list, _ := sportsdb(t, dir, env, "keys", "list")
	if !strings.Contains(list, "ROLE") {
		t.Fatalf("keys list has no role column:\n%s", list)
	}
	for key, role := range map[string]string{"k-editor": "editor", "k-admin": "admin", "123": "-"} {
		found := false
		for _, line := range strings.Split(list, "\n") {
			if strings.HasPrefix(line, auth.Hash(key)[:12]) {
				found = true
				if f := strings.Fields(line); len(f) < 3 || f[2] != role {
					t.Errorf("keys list shows %q for a key of role %s", line, role)
				}
			}
		}
		if !found && key != "123" {
			t.Errorf("keys list lacks key %s:\n%s", key, list)
		}
	}
	if strings.Contains(list, "k-owner") || strings.Contains(list, auth.Hash("k-owner")[:12]) {
		t.Errorf("a refused key was stored:\n%s", list)
	}
}
