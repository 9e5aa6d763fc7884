package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// importCase is one hostile import run: files written, then `sportsdb import` on all of them.
type importCase struct {
	name  string
	files map[string][]byte
	// reportOK accepts an exit 0 whose output names the file and says what was replaced
	// (invalid UTF-8 may be refused or reported).
	reportOK bool
	// takeOK accepts a run that stores its records (a huge but valid string).
	takeOK bool
}

func team(id, name string) string {
	return fmt.Sprintf(`{"idTeam":%q,"strTeam":%q,"strSport":"Soccer","idLeague":"4328","strLeague":"English Premier League"}`, id, name)
}

func importCases(short bool) []importCase {
	huge := 20 << 20
	if !short {
		huge = 100 << 20
	}
	var good strings.Builder
	for i := 0; i < 100; i++ {
		good.WriteString(team(fmt.Sprint(9099100+i), fmt.Sprintf("RelHostile good %d", i)) + "\n")
	}
	deep := `{"idTeam":"9099009","strTeam":` + strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000) + "}\n"
	one := func(name, body string) map[string][]byte { return map[string][]byte{name: []byte(body)} }
	return []importCase{
		{name: "bad JSON", files: one("bad.json", `{"teams":[{"idTeam":"9099001","strTeam":"RelHostile bad",}]}`)},
		{name: "truncated NDJSON", files: one("truncated.ndjson", team("9099002", "RelHostile t")+"\n"+`{"idTeam":"9099003","str`)},
		{name: `id "abc"`, files: one("id-abc.ndjson", team("abc", "RelHostile abc")+"\n")},
		{name: `id "-5"`, files: one("id-neg.ndjson", team("-5", "RelHostile neg")+"\n")},
		{name: "huge id", files: one("id-huge.ndjson", team("99999999999999999999999", "RelHostile huge id")+"\n")},
		{name: "empty id", files: one("id-empty.ndjson", team("", "RelHostile empty id")+"\n")},
		{name: "deep array", files: one("deep.json", strings.Repeat("[", 100000))},
		{name: "deep object value", files: one("deep-value.ndjson", deep)},
		{name: "empty file", files: one("empty.json", "")},
		{name: "empty array", files: one("empty-array.json", "[]")},
		{name: "empty envelope", files: one("empty-envelope.json", `{"teams":[]}`)},
		{name: "NUL bytes", files: one("nul.ndjson", "{\"idTeam\":\"9099012\",\x00\"strTeam\":\"x\"}\n")},
		{name: "binary garbage", files: one("garbage.json", string(bytes.Repeat([]byte{0, 0xff, 0x80, '{', '['}, 2000)))},
		{name: "good records then a bad id", files: one("mixed.ndjson", good.String()+team("x9", "RelHostile bad tail")+"\n")},
		{name: "good file and bad file", files: map[string][]byte{"a-good.ndjson": []byte(good.String()),
			"b-bad.json": []byte(`{"teams":[{"idTeam":"9099201",}`)}},
		{name: "invalid UTF-8 in a value", reportOK: true, files: one("utf8-value.ndjson",
			`{"idTeam":"9099010","strTeam":"RelHostile bad`+"\xff\xfe"+`","strSport":"Soccer"}`+"\n")},
		{name: "invalid UTF-8 in a field name", reportOK: true, files: one("utf8-field.ndjson",
			`{"idTeam":"9099011","strTeam":"RelHostile f","str`+"\xff"+`Sport":"Soccer"}`+"\n")},
		{name: "huge string", takeOK: true, files: one("huge.ndjson", team("9099013", "RelHostile "+strings.Repeat("h", huge))+"\n")},
	}
}

// probeURLs are answers that a refused import must leave as they were.
func probeURLs(fx *fixture) []string {
	v1 := "/api/v1/json/" + fx.premium + "/"
	urls := []string{v1 + "searchteams.php?t=Arsenal", v1 + "searchteams.php?t=RelHostile", v1 + "all_sports.php",
		v1 + "all_leagues.php", v1 + "lookupteam.php?id=133604", v1 + "search_all_teams.php?l=English%20Premier%20League"}
	for _, id := range []string{"9099001", "9099002", "9099003", "9099009", "9099010", "9099011", "9099012", "9099100", "9099199", "-5", "abc"} {
		urls = append(urls, v1+"lookupteam.php?id="+id)
	}
	return urls
}

func snapshot(addr string, urls []string) (map[string]string, error) {
	out := map[string]string{}
	for _, u := range urls {
		a, err := rawExchange(addr, request(u), 20*time.Second)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u, err)
		}
		out[u] = fmt.Sprintf("%d %s", a.status, a.body)
	}
	return out, nil
}

func checkHostileImports(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "imports", "--limits", "premium:1000000000")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	urls := probeURLs(fx)
	refused := 0
	for i, c := range importCases(cfg.short) {
		dir := filepath.Join(cfg.work, fmt.Sprintf("import-%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fail("%v", err)
			return
		}
		var paths []string
		for name, body := range c.files {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fail("%v", err)
				return
			}
			paths = append(paths, p)
		}
		before, err := snapshot(srv.addr, urls)
		if err != nil {
			t.Fail("before %s: %v", c.name, err)
			return
		}
		res, err := sportsdb(ctx, cfg, append([]string{"import", "--db", fx.db}, paths...)...)
		if err != nil {
			t.Fail("%s: %v", c.name, err)
			continue
		}
		took := judgeImport(t, c, res)
		if !took {
			refused++
			after, err := snapshot(srv.addr, urls)
			if err != nil {
				t.Fail("after %s: %v", c.name, err)
				return
			}
			for _, u := range urls {
				if before[u] != after[u] {
					t.Fail("%s: the refused import changed %s", c.name, clipText(strings.ReplaceAll(u, fx.premium, "{key}"), 100))
				}
			}
		}
		os.RemoveAll(dir)
	}
	t.Figure("hostile import runs", "%d", len(importCases(cfg.short)))
	t.Figure("refused", "%d", refused)
	if a, err := rawExchange(srv.addr, request("/readyz"), 10*time.Second); err != nil || a.status != 200 {
		t.Fail("after the imports /readyz answers %d, %v", a.status, err)
	}
}

// judgeImport fails the check when a run's outcome is not what its case allows, and
// reports whether the run stored its records.
func judgeImport(t *T, c importCase, res cliResult) (took bool) {
	out := res.stderr + res.stdout
	named := false
	for name := range c.files {
		named = named || strings.Contains(out, name)
	}
	if !utf8.ValidString(out) {
		t.Fail("%s: the import's output is not valid UTF-8 (a raw byte of the file reached the terminal): %q", c.name, clipText(out, 200))
	}
	if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic:") {
		t.Fail("%s: the import panicked: %s", c.name, clipText(out, 300))
	}
	if len(out) > 8<<10 {
		t.Fail("%s: the import wrote %d bytes of messages", c.name, len(out))
	}
	switch {
	case res.code == 1 && named:
		return false
	case res.code != 0:
		t.Fail("%s: exit %d without naming the file: %s", c.name, res.code, clipText(out, 300))
		return false
	case c.takeOK:
		return true
	case c.reportOK && named && (strings.Contains(strings.ToLower(out), "utf-8") || strings.Contains(strings.ToLower(out), "replac")):
		return true
	}
	t.Fail("%s: exit 0, want a refusal naming the file: %s", c.name, clipText(strings.TrimSpace(out), 300))
	return true
}
