package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// binary is sportsdb built once for the tests that run it as a user would.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sportsdb-cli-*")
	if err != nil {
		panic(err)
	}
	os.Chmod(dir, 0o755) // TestPermissionDenied runs it as another user
	binary = filepath.Join(dir, "sportsdb")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sportsdb runs the binary in dir with only the given SPORTSDB_ variables, and returns its
// output (standard output, then standard error) and whether it succeeded.
func sportsdb(t *testing.T, dir string, env []string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SPORTSDB_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	return stdout.String() + stderr.String(), err == nil
}

// inputs lays out the files the commands below read.
func inputs(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"empty.json":     "",
		"list.json":      "[]",
		"cut.ndjson":     `{"idTeam":"2","strTeam":"Chel` + "\n" + `{"idTeam":"3","strTeam":"Arsenal"}` + "\n",
		"teams.ndjson":   `{"idTeam":"133604","strTeam":"Arsenal","idLeague":"4328"}` + "\n",
		"nojson/notes.t": "not a record",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// No command but serve, gen, import, migrate and keys add makes a database, and none of them
// leaves one when it fails; every refusal says why, naming the failed thing once.
func TestNoStrayDatabase(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		ok   bool
		want string
	}{
		{[]string{"keys", "-h"}, true, "keys add"},
		{[]string{"keys", "lst"}, false, `unknown command "keys lst"`},
		{[]string{"keys"}, false, "want add, list or revoke"},
		{[]string{"bogus"}, false, `unknown command "bogus"`},
		{[]string{"serve", "-h"}, true, "Usage: sportsdb serve"},
		{[]string{"export"}, false, "export: want DIR"},
		{[]string{"export", "out"}, false, "database sportsdb.db does not exist"},
		{[]string{"keys", "list"}, false, "does not exist"},
		{[]string{"keys", "revoke", "abc"}, false, "does not exist"},
		{[]string{"keys", "add"}, false, "--tier (or SPORTSDB_TIER) is required"},
		{[]string{"gen", "--scale", "bogus"}, false, `--scale "bogus": want demo, small or full`},
		{[]string{"serve", "--cache-mb=abc"}, false, `--cache-mb "abc": want a whole number`},
		{[]string{"serve", "--addr", busy.Addr().String()}, false, "address already in use"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--pprof", busy.Addr().String()}, false, "address already in use"},
		{[]string{"serve", "--caps", "list.json", "--addr", "127.0.0.1:0"}, false, "caps file list.json"},
		{[]string{"import", "nothere"}, false, "nothere: no such file or directory"},
		{[]string{"import", "nojson"}, false, "no records found: nojson holds no .json, .ndjson or .jsonl file"},
		{[]string{"import", "empty.json"}, false, "no records found: empty.json is empty"},
		{[]string{"import", "list.json", "empty.json"}, false, "no records found: list.json holds no records; empty.json is empty"},
		{[]string{"import", "cut.ndjson"}, false, "cut.ndjson: line 1: the line is truncated"},
		{[]string{"gen", "--db", "missing/x.db"}, false, "missing: no such directory"},
		{[]string{"import", "teams.ndjson", "--db", "mysql://u@h/db"}, false, `unknown database scheme "mysql"`},
	} {
		dir := inputs(t)
		out, ok := sportsdb(t, dir, nil, c.args...)
		if ok != c.ok || !strings.Contains(out, c.want) {
			t.Errorf("%q: ok %v, output:\n%s\nwant ok %v and %q", c.args, ok, out, c.ok, c.want)
		}
		for _, twice := range []string{"gen: gen:", "export: export:", "import: import:", "(14)"} {
			if strings.Contains(out, twice) {
				t.Errorf("%q: %q in %s", c.args, twice, out)
			}
		}
		if m, _ := filepath.Glob(filepath.Join(dir, "*.db*")); len(m) > 0 {
			t.Errorf("%q left %v", c.args, m)
		}
	}
}

// Flags after the positional arguments are flags, not paths.
func TestFlagsAfterArguments(t *testing.T) {
	dir := inputs(t)
	if out, ok := sportsdb(t, dir, nil, "import", "teams.ndjson", "--db", "other.db"); !ok {
		t.Fatalf("import: %s", out)
	}
	if out, ok := sportsdb(t, dir, nil, "export", "out", "--db", "other.db"); !ok {
		t.Fatalf("export: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "team.ndjson")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sportsdb.db")); err == nil {
		t.Error("sportsdb.db written though --db named other.db")
	}
	if out, ok := sportsdb(t, dir, []string{"SPORTSDB_DB=other.db"}, "keys", "add", "--tier", "premium", "--label", "ci"); !ok {
		t.Fatalf("keys add: %s", out)
	}
	if out, ok := sportsdb(t, dir, []string{"SPORTSDB_DB=other.db"}, "keys", "list"); !ok || strings.Contains(out, "--tier") || !strings.Contains(out, "premium") {
		t.Errorf("keys list: %s", out)
	}
}

// Each command's -h says what it does, names its arguments, and lists its own flags only,
// each with its variable.
func TestCommandHelp(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commands {
		out, ok := sportsdb(t, dir, nil, append(strings.Fields(c.name), "-h")...)
		if !ok || !strings.Contains(out, c.summary) || !strings.Contains(out, c.args) {
			t.Errorf("%s -h: %s", c.name, out)
		}
		for _, other := range []struct{ flag, owner string }{{"--tier", "keys add"}, {"--cache-mb", "serve"}, {"--scale", "gen"}} {
			if other.owner != c.name && strings.Contains(out, other.flag) {
				t.Errorf("%s -h shows %s", c.name, other.flag)
			}
		}
	}
	out, _ := sportsdb(t, dir, nil, "serve", "-h")
	for _, want := range []string{"--trust-proxy", "[SPORTSDB_TRUST_PROXY]", "SPORTSDB_REDIS_FILE", "SPORTSDB_NOW"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve -h lacks %s", want)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, ok := sportsdb(t, t.TempDir(), nil, args...)
		if !ok || !strings.Contains(out, "sportsdb ") || !strings.Contains(out, "go:      go1.") {
			t.Errorf("%v: %s", args, out)
		}
	}
	var b strings.Builder
	writeVersion(&b, &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}})
	want := "sportsdb v1.2.3\ncommit:  abc123 (with uncommitted changes)\nbuilt:   2026-11-01T10:00:00Z (commit time)\ngo:      go1.26.0\n"
	if b.String() != want {
		t.Errorf("version:\n%s\nwant\n%s", b.String(), want)
	}
}

// serve names an empty database; a new one shows its demo key once and how to make another,
// and that it draws its pictures behind the server; healthcheck tells a ready server from none.
func TestServeConsoleAndHealthcheck(t *testing.T) {
	dir := t.TempDir()
	if out, ok := sportsdb(t, dir, nil, "migrate", "--db", "empty.db"); !ok {
		t.Fatal(out)
	}
	_, console := startServeCollect(t, dir, []string{"SPORTSDB_DB=empty.db"})
	if !strings.Contains(console, "empty.db holds no records") || !strings.Contains(console, "sportsdb gen --scale demo") {
		t.Errorf("empty database not named:\n%s", console)
	}
	addr, console := startServeCollect(t, dir, nil)
	if !strings.Contains(console, "demo premium key (shown once)") || !strings.Contains(console, "sportsdb keys add --tier premium") ||
		!strings.Contains(console, "its pictures are drawn behind the server") {
		t.Errorf("new database console:\n%s", console)
	}
	_, again := startServeCollect(t, dir, []string{"SPORTSDB_DB=again.db"})
	if !strings.Contains(again, "shown once") {
		t.Fatalf("again.db: %s", again)
	}
	_, again = startServeCollect(t, dir, []string{"SPORTSDB_DB=again.db"})
	if strings.Contains(again, "shown once") || !strings.Contains(again, "to make another: sportsdb keys add --tier premium") {
		t.Errorf("second start on a created database:\n%s", again)
	}
	if out, ok := sportsdb(t, dir, []string{"SPORTSDB_ADDR=" + addr}, "healthcheck"); !ok {
		t.Errorf("healthcheck of a ready server failed: %s", out)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	if out, ok := sportsdb(t, dir, nil, "healthcheck", "--addr", closed); ok {
		t.Errorf("healthcheck with no server succeeded: %s", out)
	}
}

// startServeCollect starts serve and returns its address and what it printed before.
func startServeCollect(t *testing.T, dir string, env []string) (string, string) {
	t.Helper()
	var lines []string
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--log-level", "warn")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	done := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer done.Stop()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		line := strings.Replace(sc.Text(), "listening on https://", "listening on http://", 1) // serve --tls-cert
		if a, ok := strings.CutPrefix(line, "sportsdb listening on http://"); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return a, strings.Join(lines, "\n")
		}
	}
	t.Fatalf("serve never listened:\n%s", strings.Join(lines, "\n"))
	return "", ""
}
