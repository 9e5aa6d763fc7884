// Package clients_test replays the calls real clients of the public service make (the calls
// as data in testdata/clients, each with the client file that makes it, not the clients'
// code) against a server on the demo dataset under --compat lenient, and checks what each
// client reads: the record key, an array or null, and the fields it maps. A regression for
// any of these clients fails here.
package clients_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/auth"
	"sportsdb/internal/store"
)

// client is one file of testdata/clients.
type client struct {
	Client     string `json:"client"`
	Repository string `json:"repository"`
	// Key is the tier of the key the client is given ("free", "premium"), or a key it has
	// built in, which the test stores as keys add --key would.
	Key string `json:"key"`
	// Note says how much of the client the calls cover.
	Note  string `json:"note"`
	Calls []call `json:"calls"`
}

// call is one request and what the client reads of its answer.
type call struct {
	File string `json:"file"` // the client file that makes it
	// Path is a v1 file and query, or a path from / (the key written {key}); {name}s are
	// filled from the demo data (see fill).
	Path string `json:"path"`
	// Key is the record key it reads; a.b reads b inside a (a dialect's envelope).
	Key string `json:"key"`
	// Shape is "array" (records), "null", "any" (either) or "list" (an array, maybe
	// empty: a dialect whose none is []).
	Shape  string   `json:"shape"`
	Fields []string `json:"fields"`
	// Method is the request's method (default GET); Status, when set, is the status the
	// call is answered with, an error in the JSON shape (a call the client makes that has no
	// answer here, and which it survives).
	Method string `json:"method"`
	Status int    `json:"status"`
	// Lenient marks a call the public service refuses or renamed.
	Lenient bool `json:"lenient"`
	// Why says why a call its client makes for records is answered with none (null, or an
	// error it survives) where that is the right answer: the public service's own.
	Why string `json:"why"`
}

func loadClients(t *testing.T) map[string]client {
	dir := filepath.Join(filepath.Dir(apitest.FixturesDir(t)), "clients")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no clients in %s: %v", dir, err)
	}
	out := map[string]client{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c client
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if c.Client == "" || c.Key == "" || len(c.Calls) == 0 {
			t.Fatalf("%s: client, key and calls are needed", f)
		}
		for _, cl := range c.Calls {
			if cl.File == "" || cl.Path == "" || (cl.Key == "" && cl.Status == 0) || !validShape[cl.Shape] {
				t.Fatalf("%s: incomplete call %+v", f, cl)
			}
			if (cl.Shape == "null" || cl.Status != 0) && cl.Why == "" {
				t.Errorf("%s: %s is answered with no records and does not say why", f, cl.Path)
			}
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = c
	}
	return out
}

// TestClientsReplay: every call of every client, answered as the client reads it, under
// --compat lenient.
func TestClientsReplay(t *testing.T) {
	for name, whys := range replay(t, "lenient") {
		c, ok := 0, 0
		for i, why := range whys {
			cl := clientsByName[name].Calls[i]
			c++
			if why != "" {
				t.Errorf("%s: %s (%s): %s", name, cl.Path, cl.File, why)
				continue
			}
			ok++
		}
		t.Logf("%s: %d of %d calls answered as it reads them", clientsByName[name].Client, ok, c)
	}
}

// TestClientsStrict: under strict (the public service's answers), exactly the calls marked
// lenient fail, so the marks say what lenient is for and the replay would catch its loss.
func TestClientsStrict(t *testing.T) {
	for name, whys := range replay(t, "strict") {
		for i, why := range whys {
			cl := clientsByName[name].Calls[i]
			if (why != "") != cl.Lenient {
				t.Errorf("%s: %s: lenient=%v but strict answers it %q", name, cl.Path, cl.Lenient, why)
			}
		}
	}
}

var validShape = map[string]bool{"array": true, "null": true, "any": true, "list": true}

var clientsByName map[string]client

// replay runs every client's calls on a demo server of that --compat and returns, per
// client, what each call's client would not find ("" when it finds everything).
func replay(t *testing.T, compat string) map[string][]string {
	clientsByName = loadClients(t)
	e := apitest.New(t, apitest.Options{Demo: true, Compat: compat})
	vars := demoValues(t, e)
	out := map[string][]string{}
	for name, c := range clientsByName {
		key := keyFor(t, e, c.Key)
		for _, cl := range c.Calls {
			out[name] = append(out[name], check(t, e, key, fill(cl.Path, vars), cl))
		}
	}
	return out
}

// keyFor is the key a client sends: one of the environment's, or its built-in key stored.
func keyFor(t *testing.T, e *apitest.Env, k string) string {
	switch k {
	case "free":
		return e.FreeKey
	case "premium":
		return e.PremiumKey
	case "none":
		return ""
	}
	err := e.Store.AddKey(context.Background(), store.Key{Hash: auth.Hash(k), Tier: store.Free, Label: "built into a client"})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		t.Fatal(err)
	}
	return k
}

// check requests a call and says what the client would not find, or "".
func check(t *testing.T, e *apitest.Env, key, path string, cl call) string {
	full := path
	if !strings.HasPrefix(full, "/") {
		full = "/api/v1/json/{key}/" + full
	}
	full = strings.ReplaceAll(full, "{key}", url.PathEscape(key))
	method, status := cl.Method, cl.Status
	if method == "" {
		method = "GET"
	}
	if status == 0 {
		status = 200
	}
	res := e.Do(t, method, full)
	if res.Status != status {
		return fmt.Sprintf("status %d: %.200s", res.Status, res.Body)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(res.Body, &body); err != nil {
		return fmt.Sprintf("not a JSON object: %.200s", res.Body)
	}
	if status != 200 {
		if _, ok := body["Message"]; !ok {
			return fmt.Sprintf("an error without its Message: %.200s", res.Body)
		}
		return ""
	}
	raw, ok := member(body, cl.Key)
	if !ok {
		return fmt.Sprintf("no record key %q: %.200s", cl.Key, res.Body)
	}
	if string(raw) == "null" {
		if cl.Shape == "array" || cl.Shape == "list" {
			return "null, want records"
		}
		return ""
	}
	var recs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &recs); err != nil {
		return fmt.Sprintf("%q is not an array of records: %.200s", cl.Key, raw)
	}
	if cl.Shape == "null" {
		return fmt.Sprintf("%d records, want null", len(recs))
	}
	if len(recs) == 0 && cl.Shape == "list" {
		return ""
	}
	if len(recs) == 0 {
		return "[] (the service writes null for none)"
	}
	for _, f := range cl.Fields {
		if _, ok := recs[0][f]; !ok {
			return fmt.Sprintf("its records lack %s", f)
		}
	}
	return ""
}

// member reads a record key, or a.b inside a.
func member(body map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	first, rest, nested := strings.Cut(key, ".")
	raw, ok := body[first]
	if !ok || !nested {
		return raw, ok
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(raw, &inner) != nil {
		return nil, false
	}
	return member(inner, rest)
}

func fill(path string, vars map[string]string) string {
	for k, v := range vars {
		path = strings.ReplaceAll(path, "{"+k+"}", url.QueryEscape(v))
	}
	return path
}

// The table of test/README.md says how many calls of each client are replayed: it names every
// file here, with its calls and those marked lenient.
func TestReadmeTableCounts(t *testing.T) {
	clients := loadClients(t)
	readme := filepath.Join(filepath.Dir(apitest.FixturesDir(t)), "..", "test", "README.md")
	raw, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 || !strings.HasSuffix(strings.TrimSpace(cells[2]), ".json") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSpace(cells[2]), ".json")
		c, ok := clients[name]
		if !ok {
			t.Errorf("test/README.md lists %s.json, which is not in testdata/clients", name)
			continue
		}
		listed[name] = true
		lenient := 0
		for _, cl := range c.Calls {
			if cl.Lenient {
				lenient++
			}
		}
		want := fmt.Sprintf("%d|%d|%d", len(c.Calls), len(c.Calls), lenient)
		if got := strings.Join([]string{strings.TrimSpace(cells[3]), strings.TrimSpace(cells[4]), strings.TrimSpace(cells[5])}, "|"); got != want {
			t.Errorf("test/README.md: %s.json calls|answered|lenient %s, the file has %s", name, got, want)
		}
	}
	for name := range clients {
		if !listed[name] {
			t.Errorf("test/README.md's table does not list %s.json", name)
		}
	}
}
