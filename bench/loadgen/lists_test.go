package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// The lists are read from the real server on the demo dataset; every request in them must
// answer 200, and the mixed list must reach every endpoint.
func TestListsFromDemoServer(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	srv := httptest.NewServer(env.Server)
	defer srv.Close()
	dir := t.TempDir()
	premium, free := filepath.Join(dir, "premium.txt"), filepath.Join(dir, "free.txt")
	os.WriteFile(premium, []byte(env.PremiumKey+"\n"+env.BusinessKey+"\n"), 0o600)
	os.WriteFile(free, []byte(env.FreeKey+"\n"), 0o600)
	out := filepath.Join(dir, "lists")
	var stdout, stderr bytes.Buffer
	err := dispatch(context.Background(), []string{"lists", "-base", srv.URL, "-premium", premium, "-free", free,
		"-out", out, "-n", "400", "-leagues", "6", "-cold", "3000", "-cold-leagues", "20"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("lists: %v\n%s", err, stderr.String())
	}
	for _, name := range []string{"hot.txt", "mixed.txt", "search.txt", "cold.txt"} {
		lines, err := readList(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if status := get(t, srv.URL, l); status != http.StatusOK {
				t.Errorf("%s: %s answered %d", name, scrubKey(l.target), status)
			}
		}
	}
	mixed, _ := readList(filepath.Join(out, "mixed.txt"))
	for _, e := range mixedEndpoints {
		if !reaches(mixed, e) {
			t.Errorf("mixed list never asks %s", e.name)
		}
	}
	// The cold list: every endpoint, and no two requests the response cache would take for
	// one (same tier, endpoint and arguments, whatever the key).
	cold, _ := readList(filepath.Join(out, "cold.txt"))
	if len(cold) < 1000 {
		t.Errorf("cold list has %d lines, want over 1000 from the demo dataset", len(cold))
	}
	for _, e := range mixedEndpoints {
		if !reaches(cold, e) {
			t.Errorf("cold list never asks %s", e.name)
		}
	}
	keys := map[string]string{env.PremiumKey: "p", env.BusinessKey: "p", env.FreeKey: "f"}
	seen := map[string]bool{}
	for _, l := range cold {
		id := keys[l.key] + "|" + l.target
		for k, tier := range keys {
			if strings.Contains(l.target, "/"+k+"/") {
				id = tier + "|" + strings.Replace(l.target, "/"+k+"/", "/", 1)
			}
		}
		if seen[id] {
			t.Errorf("cold list asks %s twice", scrubKey(l.target))
		}
		seen[id] = true
	}
	hot, _ := readList(filepath.Join(out, "hot.txt"))
	if len(hot) != 2*5 {
		t.Errorf("hot list has %d lines, want 5 lookups for each of 2 premium keys", len(hot))
	}
	if strings.Contains(stdout.String(), env.PremiumKey) || strings.Contains(stderr.String(), env.PremiumKey) {
		t.Error("a key was printed")
	}
}

func reaches(lines []line, e endpoint) bool {
	for _, l := range lines {
		if e.v2 && (strings.HasPrefix(l.target, "/api/v2/json/"+e.name+"/") || l.target == "/api/v2/json/"+e.name) {
			return true
		}
		if !e.v2 && strings.Contains(l.target, "/"+e.name) {
			return true
		}
	}
	return false
}

func get(t *testing.T, base string, l line) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+l.target, nil)
	if l.key != "" {
		req.Header.Set("X-API-KEY", l.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// The mirror holds, for each request, the body the server answered, at the path the nginx
// list names.
func TestMirror(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.URL.String()+"|"+r.Header.Get("X-API-KEY"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	list := filepath.Join(dir, "in.txt")
	os.WriteFile(list, []byte("/a?x=1\n/a?x=1\tK\n/b/c%20d\n"), 0o644)
	root, out := filepath.Join(dir, "www"), filepath.Join(dir, "nginx.txt")
	var stdout, stderr bytes.Buffer
	if err := dispatch(context.Background(), []string{"mirror", "-base", srv.URL, "-list", list, "-root", root, "-out", out}, &stdout, &stderr); err != nil {
		t.Fatalf("mirror: %v\n%s", err, stderr.String())
	}
	in, _ := readList(list)
	paths, err := readList(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(in) {
		t.Fatalf("%d nginx paths for %d requests", len(paths), len(in))
	}
	want := []string{"/a?x=1|", "/a?x=1|K", "/b/c%20d|"}
	for i, p := range paths {
		body, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.target)))
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want[i] {
			t.Errorf("%s holds %q, want %q", p.target, body, want[i])
		}
	}
	if paths[0].target == paths[1].target {
		t.Error("the same target with and without a key share one file")
	}
}

func TestScrubKey(t *testing.T) {
	for in, want := range map[string]string{
		"/api/v1/json/SECRET/lookupteam.php?id=1": "/api/v1/json/{key}/lookupteam.php?id=1",
		"/api/v2/json/SECRET/livescore.php?s=x":   "/api/v2/json/{key}/livescore.php?s=x",
		"/api/v2/json/lookup/team/1":              "/api/v2/json/lookup/team/1",
	} {
		if got := scrubKey(in); got != want {
			t.Errorf("scrubKey(%q) = %q, want %q", in, got, want)
		}
	}
}
