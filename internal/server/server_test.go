package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

func TestKeyErrorsAndRouting(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	cases := []struct {
		name, path string
		headers    []string
		status     int
		body       string
	}{
		{"v1 unknown key", "/api/v1/json/nope/all_sports.php", nil, 400, `{"Message":"Invalid API key"}`},
		{"v2 missing key", "/api/v2/json/all/sports", nil, 400, `{"Message":"Invalid API key"}`},
		{"v2 unknown key", "/api/v2/json/all/sports", []string{"X-API-KEY", "nope"}, 400, `{"Message":"Invalid API key"}`},
		{"v2 free key", "/api/v2/json/all/sports", []string{"X-API-KEY", "123"}, 400, `{"Message":"Premium API key required"}`},
		{"v2 alias free key livescore.php", "/api/v2/json/123/livescore.php?s=Soccer", nil, 400, `{"Message":"Premium API key required"}`},
		{"unknown path", "/index.html", nil, 404, `{"Message":"Not found"}`},
		{"unknown api version", "/api/v3/json/123/all_sports.php", nil, 404, `{"Message":"Not found"}`},
		{"traversal", "/api/v1/json/123/../../../etc/passwd", nil, 404, `{"Message":"Not found"}`},
		{"healthz", "/healthz", nil, 200, `{"status":"ok"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := env.Get(t, c.path, c.headers...)
			if r.Status != c.status || string(r.Body) != c.body {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Body, c.status, c.body)
			}
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %q", ct)
			}
		})
	}
}

func TestAliasesReachTheSameAnswers(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	v1 := env.V1(t, env.PremiumKey, "all_sports.php")
	if v1.Status != 200 || !bytes.HasPrefix(v1.Body, []byte(`{"sports":[`)) {
		t.Fatalf("v1: %d %.200s", v1.Status, v1.Body)
	}
	for _, alias := range []struct {
		path    string
		headers []string
	}{
		{"/api/v2/json/" + env.PremiumKey + "/all_sports.php", nil},
		{"/api/v2/json/all_sports.php", []string{"X-API-KEY", env.PremiumKey}},
	} {
		r := env.Get(t, alias.path, alias.headers...)
		if r.Status != 200 || !bytes.Equal(r.Body, v1.Body) {
			t.Errorf("%s: %d %.200s", alias.path, r.Status, r.Body)
		}
	}
	v2 := env.V2(t, "all/sports")
	keyed := env.Get(t, "/api/v2/json/"+env.PremiumKey+"/all/sports")
	if v2.Status != 200 || !bytes.Equal(v2.Body, keyed.Body) {
		t.Errorf("v2 with key in path differs: %d %.200s", keyed.Status, keyed.Body)
	}
	live := env.Get(t, "/api/v2/json/"+env.PremiumKey+"/livescore.php?s=Soccer")
	if live.Status != 200 || !bytes.HasPrefix(live.Body, []byte(`{"events":`)) {
		t.Errorf("legacy livescore: %d %.200s", live.Status, live.Body)
	}
}

func TestETagConditionalAndGzip(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	path := "/api/v1/json/" + env.PremiumKey + "/all_sports.php"
	first := env.Get(t, path)
	etag := first.Header.Get("ETag")
	if first.Status != 200 || etag == "" || first.Header.Get("Cache-Control") == "" {
		t.Fatalf("first answer: %d etag=%q", first.Status, etag)
	}
	again := env.Get(t, path, "If-None-Match", etag)
	if again.Status != http.StatusNotModified || len(again.Body) != 0 {
		t.Fatalf("conditional: %d %q", again.Status, again.Body)
	}
	gz := env.Get(t, path, "Accept-Encoding", "gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip for a %d-byte body", len(first.Body))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.Body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, first.Body) {
		t.Fatal("gzip body differs from the plain body")
	}
}

func TestRateLimitHeadersAnd429(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.Fixed(apitest.FixtureNow))})
	var last *apitest.Response
	for i := 0; i < 31; i++ {
		last = env.V1(t, env.FreeKey, "all_sports.php")
		if i < 30 && last.Status != 200 {
			t.Fatalf("request %d: %d", i+1, last.Status)
		}
		if i == 0 {
			h := last.Header
			if h.Get("X-RateLimit-Limit") != "30" || h.Get("X-RateLimit-Remaining") != "29" ||
				h.Get("RateLimit-Policy") != `"default";q=30;w=60` || !strings.HasPrefix(h.Get("RateLimit"), `"default";r=29;t=`) {
				t.Fatalf("headers: %v", h)
			}
		}
	}
	want := `{"message":"Rate limit exceeded. Please keep below 30 requests per 1 minute.","error":429}`
	if last.Status != 429 || string(last.Body) != want || last.Header.Get("Retry-After") == "" {
		t.Fatalf("31st request: %d %s retry=%q", last.Status, last.Body, last.Header.Get("Retry-After"))
	}
	// v2 counts against the same key's limit as v1.
	r := env.Get(t, "/api/v2/json/all/sports", "X-API-KEY", env.PremiumKey)
	if r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "100" {
		t.Fatalf("premium: %d %v", r.Status, r.Header)
	}
}

func TestFailedKeyChecksAreLimitedPerAddress(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, KeyFails: 5})
	for i := 0; i < 5; i++ {
		if r := env.V1(t, "guess"+string(rune('a'+i)), "all_sports.php"); r.Status != 400 {
			t.Fatalf("guess %d: %d", i, r.Status)
		}
	}
	r := env.V1(t, "guessf", "all_sports.php")
	if r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("after 5 failures: %d %s", r.Status, r.Body)
	}
	// Only failures are blocked: a valid key from that address is served.
	if r := env.V1(t, env.FreeKey, "all_sports.php"); r.Status != 200 {
		t.Fatalf("valid key while blocked: %d", r.Status)
	}
}

// No key reaches the access log, the other logs or the metrics.
func TestLogsHoldNoKey(t *testing.T) {
	var logs testsupport.LogBuffer
	env := apitest.New(t, apitest.Options{Demo: true, Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		AccessLog: server.NewAccessLog(&logs, true)})
	env.V1(t, env.PremiumKey, "all_sports.php")
	env.Get(t, "/api/v2/json/"+env.PremiumKey+"/lookup/team/133604")
	env.Get(t, "/api/v2/json/all/sports", "X-API-KEY", env.PremiumKey)
	env.V1(t, "wrong-key-value", "all_sports.php")
	env.Get(t, "/api/v1/json/"+env.PremiumKey)
	out := logs.String()
	if !strings.Contains(out, `"route":"v1/all_sports.php"`) {
		t.Fatalf("no request lines: %s", out)
	}
	for _, k := range []string{env.PremiumKey, "wrong-key-value"} {
		if strings.Contains(out, k) {
			t.Fatalf("a key reached the logs: %s", out)
		}
	}
	m := env.Get(t, "/metrics")
	if m.Status != 200 || strings.Contains(string(m.Body), env.PremiumKey) || !strings.Contains(string(m.Body), `route="v1/all_sports.php"`) {
		t.Fatalf("metrics: %d", m.Status)
	}
}

func TestReady(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	r := env.Get(t, "/readyz")
	if r.Status != 200 || !strings.Contains(string(r.Body), `"database":"ok"`) {
		t.Fatalf("readyz: %d %s", r.Status, r.Body)
	}
}

// The response cache keys on the data version: an answer is never older than the last write.
func TestCacheNeverServesDataOlderThanTheLastWrite(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	path := "lookupteam.php?id=990001"
	if r := env.V1(t, env.FreeKey, path); string(r.Body) != `{"teams":null}` {
		t.Fatalf("before: %s", r.Body)
	}
	team := record.Team.NewRecord()
	team.Set("idTeam", record.Str("990001"))
	team.Set("strTeam", record.Str("Cache Town"))
	err := env.Store.Write(context.Background(), func(tx store.Tx) error { return tx.Upsert(context.Background(), team) })
	if err != nil {
		t.Fatal(err)
	}
	if r := env.V1(t, env.FreeKey, path); !strings.Contains(string(r.Body), `"strTeam":"Cache Town"`) {
		t.Fatalf("after the write the cache still answered: %.200s", r.Body)
	}
}

// Next and previous events are answered from the cache while time passes, and change once
// the next event starts: v1 compares whole seconds with >= (the event is still "next" during
// its first second), v2 with >.
func TestNextAndPreviousEventsChangeWhenTheNextEventStarts(t *testing.T) {
	m := clock.NewManual(apitest.FixtureNow)
	env := apitest.New(t, apitest.Options{Demo: true, Clock: m})
	now := m.Now().Format("2006-01-02T15:04:05")
	soonest, err := env.Store.Find(context.Background(), store.Query{Kind: record.Event, Limit: 1,
		OrderBy: []store.Order{{Field: "strTimestamp"}},
		Where:   []store.Cond{{Field: "strTimestamp", Op: store.Gt, Value: now}}})
	if err != nil || len(soonest) != 1 {
		t.Fatalf("the next event of the demo data: %v %v", soonest, err)
	}
	ev, team := soonest[0].Str("idEvent"), soonest[0].Str("idHomeTeam")
	start, err := time.Parse("2006-01-02T15:04:05", soonest[0].Str("strTimestamp")[:19])
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]func() string{
		"v1 next":     func() string { return firstEvent(t, env.V1(t, env.PremiumKey, "eventsnext.php?id="+team)) },
		"v1 previous": func() string { return firstEvent(t, env.V1(t, env.PremiumKey, "eventslast.php?id="+team)) },
		"v2 next":     func() string { return firstEvent(t, env.V2(t, "schedule/next/team/"+team)) },
		"v2 previous": func() string { return firstEvent(t, env.V2(t, "schedule/previous/team/"+team)) },
	}
	before := map[string]string{}
	for name, get := range first {
		before[name] = get()
	}
	if before["v1 next"] != ev || before["v2 next"] != ev || before["v1 previous"] == ev || before["v2 previous"] == ev {
		t.Fatalf("before event %s starts: %v", ev, before)
	}

	misses := cacheCount(t, env, "miss")
	m.Advance(start.Add(-time.Second).Sub(m.Now()))
	for name, get := range first {
		if got := get(); got != before[name] {
			t.Errorf("%s a second before the event starts: %s, want %s", name, got, before[name])
		}
	}
	if got := cacheCount(t, env, "miss"); got != misses {
		t.Errorf("%d answers computed again before the event starts", got-misses)
	}

	m.Advance(2 * time.Second) // a second after it started: past both boundaries
	for name, get := range first {
		get() // the first request after expiry is served while the answer is refreshed
		env.Server.WaitRefreshes()
		wantEv := strings.HasSuffix(name, "previous")
		if got := get(); (got == ev) != wantEv {
			t.Errorf("%s after the event started: %s (the event that started is %s)", name, got, ev)
		}
	}
}

// firstEvent is the idEvent of the first event of an answer, or "".
func firstEvent(t *testing.T, r *apitest.Response) string {
	t.Helper()
	body, _ := r.Decode(t).(map[string]any)
	for _, v := range body {
		if list, ok := v.([]any); ok && len(list) > 0 {
			ev, _ := list[0].(map[string]any)
			id, _ := ev["idEvent"].(string)
			return id
		}
	}
	return ""
}

// cacheCount reads sportsdb_response_cache_total of a result from /metrics.
func cacheCount(t *testing.T, env *apitest.Env, result string) int {
	t.Helper()
	return int(metricValue(t, string(env.Get(t, "/metrics").Body), `sportsdb_response_cache_total{result="`+result+`"}`))
}

// Requests are counted by route and status, and timed by route.
func TestMetricsCountRequestsByRouteAndStatus(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	for range 3 {
		env.V1(t, env.FreeKey, "all_sports.php")
	}
	env.V1(t, env.FreeKey, "lookupteam.php?id=1")
	env.Get(t, "/api/v1/json/nope/all_sports.php")
	body := string(env.Get(t, "/metrics").Body)
	for _, want := range []string{
		`sportsdb_http_requests_total{code="200",route="v1/all_sports.php"} 3`,
		`sportsdb_http_requests_total{code="200",route="v1/lookupteam.php"} 1`,
		`sportsdb_http_requests_total{code="400",route="other"} 1`, // a failed key names no route
		`sportsdb_http_request_duration_seconds_count{route="v1/all_sports.php"} 3`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
}
