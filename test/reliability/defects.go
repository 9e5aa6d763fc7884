package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// checkLogNoKeys searches the shared server's log (stdout and stderr) for every key the
// hostile requests carried, in the path, query, headers or anywhere else, and for panics.
func checkLogNoKeys(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	// The shapes that once logged the key, sent here too so this check stands alone.
	for _, tpl := range v1Templates[:11] {
		for _, key := range env.pathKeys() {
			a, err := rawExchange(env.srv.addr, request(strings.ReplaceAll(tpl, "{K}", key)), 10*time.Second)
			env.count("log", a.status, err)
		}
	}
	time.Sleep(300 * time.Millisecond) // the access log is buffered briefly
	log := env.srv.log.String()
	if !strings.Contains(log, "msg=request") && !strings.Contains(log, `"msg":"request"`) {
		t.Fail("the server's log holds no access log line: nothing to search")
		return
	}
	names := map[string]string{env.fx.premium: "premium", env.fx.free: "free", env.fx.business: "business"}
	for i, f := range env.fake {
		names[f] = fmt.Sprintf("fake %d", i)
	}
	found := 0
	for key, name := range names {
		n := strings.Count(log, key)
		found += n
		if n > 0 {
			t.Fail("the %s key is in the log %d times, e.g. %s", name, n, lineWith(log, key))
		}
	}
	t.Figure("log lines searched", "%d", strings.Count(log, "\n"))
	t.Figure("key occurrences in the log", "%d", found)
	panics := countPanics(log)
	t.Figure("panics in the log", "%d", panics)
	if panics > 0 {
		t.Fail("the log holds %d panic lines, e.g. %s", panics, lineWith(log, "panic"))
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	total := 0
	for _, n := range env.requests {
		total += n
	}
	t.Figure("hostile requests sent (all surfaces)", "%d", total)
	t.Figure("answers by status", "%v", env.statuses)
	t.Figure("transport errors", "%s", formatKinds(env.errors))
}

var goroutineHeader = regexp.MustCompile(`goroutine \d+ \[`)

// countPanics counts the lines that speak of a panic or start a goroutine's stack.
func countPanics(log string) int {
	n := 0
	for line := range strings.Lines(log) {
		if strings.Contains(line, "panic") || strings.Contains(line, "goroutine ") && goroutineHeader.MatchString(line) {
			n++
		}
	}
	return n
}

// lineWith is the first log line holding s, shortened, with s itself masked.
func lineWith(log, s string) string {
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, s) {
			return clipText(strings.ReplaceAll(line, s, "<KEY>"), 240)
		}
	}
	return ""
}

// checkMetricsBounded sends requests for random .php names with no valid key: no name may
// become a metrics label, and /metrics must not grow with them.
func checkMetricsBounded(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	before, err := rawExchange(env.srv.addr, request("/metrics"), 10*time.Second)
	if err != nil || before.status != 200 {
		t.Fail("GET /metrics: %d, %v", before.status, err)
		return
	}
	names := make([]string, 300)
	for i := range names {
		names[i] = "rel" + randLower(cfg, 4+cfg.rng.IntN(40)) + ".php"
		path := "/api/v1/json/" + env.fake[i%len(env.fake)] + "/" + names[i]
		a, err := rawExchange(env.srv.addr, request(path), 10*time.Second)
		env.count("metrics", a.status, err)
		if err != nil {
			t.Fail("%s: %v", path, err)
		}
	}
	after, err := rawExchange(env.srv.addr, request("/metrics"), 10*time.Second)
	if err != nil || after.status != 200 {
		t.Fail("GET /metrics: %d, %v", after.status, err)
		return
	}
	grown := strings.Count(string(after.body), "\n") - strings.Count(string(before.body), "\n")
	leaked := 0
	for _, n := range names {
		if strings.Contains(string(after.body), strings.TrimSuffix(n, ".php")) {
			leaked++
		}
	}
	t.Figure("random file names sent", "%d", len(names))
	t.Figure("names that became labels", "%d", leaked)
	t.Figure("/metrics lines added", "%d", grown)
	if leaked > 0 {
		t.Fail("%d of %d random file names became metrics labels", leaked, len(names))
	}
	for _, k := range env.allKeys() {
		if strings.Contains(string(after.body), k) {
			t.Fail("a key the suite sent is in /metrics")
		}
	}
	// One shared label for unknown files and failed keys adds at most a counter per status
	// and one histogram: a few dozen lines, whatever the number of names.
	if grown > 60 {
		t.Fail("/metrics grew by %d lines for %d random file names", grown, len(names))
	}
}

// checkEveryLog searches the log of every server the suite started for every key it sent
// (real keys, fake keys, the wrong keys of the guard checks) and for panics.
func checkEveryLog(ctx context.Context, cfg *config, t *T) {
	time.Sleep(300 * time.Millisecond) // the access log is buffered briefly
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	secrets := map[string]string{wrongKey: "wrong key of the guard checks"}
	for k, v := range cfg.secrets {
		secrets[k] = v
	}
	lines, panics, found := 0, 0, 0
	for _, s := range cfg.servers {
		log := s.log.String()
		lines += strings.Count(log, "\n")
		if p := countPanics(log); p > 0 {
			panics += p
			t.Fail("a server's log holds %d panic lines, e.g. %s", p, lineWith(log, "panic"))
		}
		for key, what := range secrets {
			if n := strings.Count(log, key); n > 0 {
				found += n
				t.Fail("a %s is in a server's log %d times, e.g. %s", what, n, lineWith(log, key))
			}
		}
	}
	t.Figure("servers, log lines searched", "%d, %d", len(cfg.servers), lines)
	t.Figure("keys searched for", "%d", len(secrets))
	t.Figure("key occurrences, panic lines", "%d, %d", found, panics)
}
