package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The mirror and read-through against a hostile upstream: an HTTP server of the suite on
// 127.0.0.1 that redirects, poisons, sends huge bodies and gzip bombs, asks for waits of
// days, and counts what it sees.

// upstreamKey is the key the suite's mirrors and read-throughs send to the upstream.
const upstreamKey = "RelUpstreamKey77"

type hostileUpstream struct {
	srv    *httptest.Server
	answer http.HandlerFunc

	mu      sync.Mutex
	times   []time.Time
	referer int
}

func newHostileUpstream(cfg *config, answer http.HandlerFunc) *hostileUpstream {
	cfg.secret(upstreamKey, "upstream key")
	h := &hostileUpstream{answer: answer}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.times = append(h.times, time.Now())
		if r.Header.Get("Referer") != "" {
			h.referer++
		}
		h.mu.Unlock()
		h.answer(w, r)
	}))
	return h
}

func (h *hostileUpstream) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.times)
}

// mostIn60s is the most requests the upstream saw in any 60 s.
func (h *hostileUpstream) mostIn60s() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	most := 0
	for i := range h.times {
		n := 0
		for j := i; j < len(h.times) && h.times[j].Sub(h.times[i]) < time.Minute; j++ {
			n++
		}
		most = max(most, n)
	}
	return most
}

// readThrough starts a server on a demo database reading through to h.
func readThrough(ctx context.Context, cfg *config, name string, h *hostileUpstream) (*fixture, *server, error) {
	return ownServer(ctx, cfg, name, "--upstream", h.srv.URL, "--upstream-key", upstreamKey, "--upstream-rate", "100000")
}

// checkUpstreamRedirect: a redirect off the upstream's origin is followed by neither the
// mirror nor read-through (the other host sees nothing), no request carries a Referer, and
// the log says so.
func checkUpstreamRedirect(ctx context.Context, cfg *config, t *T) {
	other := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"teams":[{"idTeam":"999","strTeam":"Elsewhere"}]}`)
	})
	defer other.srv.Close()
	up := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+r.URL.RequestURI(), http.StatusFound)
	})
	defer up.srv.Close()
	db := filepath.Join(cfg.work, "redirect-mirror.db")
	res, err := sportsdb(ctx, cfg, "mirror", "--from", up.srv.URL, "--key", upstreamKey, "--leagues", "4328", "--db", db)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	if !strings.Contains(res.stderr, "redirected off its origin") {
		t.Fail("the mirror's output does not say it refused the redirect: %s", clipText(res.stderr, 600))
	}
	fx, srv, err := readThrough(ctx, cfg, "redirect", up)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	for _, p := range []string{"/api/v1/json/" + fx.premium + "/lookupteam.php?id=999", "/api/v2/json/lookup/team/999"} {
		if s := status(t, srv.addr, p, "X-API-KEY: "+fx.premium); s >= 500 {
			t.Fail("%s: %d", p, s)
		}
	}
	t.Figure("requests that reached the other host", "%d (of %d redirected)", other.count(), up.count())
	if other.count() > 0 {
		t.Fail("the other host saw %d requests: the key went with them", other.count())
	}
	if up.referer > 0 {
		t.Fail("%d requests to the upstream carried a Referer", up.referer)
	}
}

// checkUpstreamBudgetKill: `mirror --rate 20` killed with SIGKILL after a few requests and
// started again at once, three times: the upstream's own count of any 60 s stays at 20.
func checkUpstreamBudgetKill(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "budget-upstream")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	target, _ := url.Parse(srv.base)
	proxy := httputil.NewSingleHostReverseProxy(target)
	up := newHostileUpstream(cfg, proxy.ServeHTTP)
	defer up.srv.Close()
	db := filepath.Join(cfg.work, "budget-mirror.db")
	for run := range 4 {
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			killedCLI(runCtx, cfg, "mirror", "--from", up.srv.URL, "--key", fx.premium, "--rate", "20",
				"--leagues", "4328", "--db", db)
		}()
		// Killed after 7 more requests; the last run is watched for 10 s.
		want, deadline := up.count()+7, time.After(10*time.Second)
	wait:
		for run == 3 || up.count() < want {
			select {
			case <-done:
				break wait
			case <-deadline:
				break wait
			case <-time.After(10 * time.Millisecond):
			}
		}
		cancel()
		<-done
	}
	most := up.mostIn60s()
	t.Figure("upstream requests in 60 s, --rate 20, 3 SIGKILLs", "%d", most)
	if most > 20 {
		t.Fail("the upstream saw %d requests in 60 s from a mirror of --rate 20", most)
	}
}

// killedCLI runs a command until ctx ends, then kills it with SIGKILL.
func killedCLI(ctx context.Context, cfg *config, args ...string) {
	_, _ = sportsdb(ctx, cfg, args...)
}

// checkUpstreamAllFailed: a first mirror run against an upstream that answers 503 to every
// request exits non-zero, names the cause, and leaves no database.
func checkUpstreamAllFailed(ctx context.Context, cfg *config, t *T) {
	up := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	defer up.srv.Close()
	db := filepath.Join(cfg.work, "failed-mirror.db")
	res, err := sportsdb(ctx, cfg, "mirror", "--from", up.srv.URL, "--key", upstreamKey, "--db", db)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	if res.code == 0 {
		t.Fail("exit 0 after every request failed: %s", clipText(res.stderr, 400))
	}
	if !strings.Contains(res.stderr, "HTTP 503") {
		t.Fail("the message does not name the cause: %s", clipText(res.stderr, 400))
	}
	if _, err := os.Stat(db); err == nil {
		t.Fail("the database the run created is still there")
	}
	t.Figure("first mirror run, upstream answering 503", "exit %d, %d requests", res.code, up.count())
}

// checkUpstreamPoison: read-through stores only what answers its request: a lookup answered
// with another team, and a search answered with 10,000 teams, leave the stored team as it
// was, and the log says what was left out.
func checkUpstreamPoison(ctx context.Context, cfg *config, t *T) {
	spam := spamTeams(10000)
	up := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "searchteams") {
			fmt.Fprint(w, spam)
			return
		}
		fmt.Fprint(w, `{"teams":[{"idTeam":"133604","strTeam":"POISONED"}]}`)
	})
	defer up.srv.Close()
	fx, err := demoDB(ctx, cfg, "poison")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	file := filepath.Join(cfg.work, "arsenal.json")
	if err := os.WriteFile(file, []byte(`{"teams":[{"idTeam":"133604","strTeam":"Arsenal"}]}`), 0o644); err != nil {
		t.Fail("%v", err)
		return
	}
	if _, err := mustCLI(ctx, cfg, "import", "--db", fx.db, file); err != nil {
		t.Fail("%v", err)
		return
	}
	srv, err := startServer(ctx, cfg, "poison", "--db", fx.db, "--upstream", up.srv.URL, "--upstream-key", upstreamKey, "--upstream-rate", "100000")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	hc := newClient(10 * time.Second)
	base := srv.base + "/api/v1/json/" + fx.premium + "/"
	for _, p := range []string{"lookupteam.php?id=700350101", "searchteams.php?t=spamteams"} {
		if a, err := get(ctx, hc, base+p, ""); err != nil || a.status != 200 {
			t.Fail("%s: %d %v", p, a.status, err)
		}
	}
	a, err := get(ctx, hc, base+"searchteams.php?t=Arsenal", "")
	if err != nil || !strings.Contains(string(a.body), `"strTeam":"Arsenal"`) {
		t.Fail("searchteams.php?t=Arsenal after the poisoned read-through: %d %.200s %v", a.status, a.body, err)
	}
	for _, want := range []string{"answered from the store as it is", "past its cap"} {
		if !logSays(srv, want) {
			t.Fail("the server's log does not say %q", want)
		}
	}
}

func spamTeams(n int) string {
	var b strings.Builder
	b.WriteString(`{"teams":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"idTeam":"%d","strTeam":"spamteams %d"}`, 800000000+i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// checkUpstreamMemory: 16 concurrent read-throughs answered with 200 MB bodies and gzip
// bombs are answered from the store (never a 5xx), and the server's peak RSS stays bounded.
func checkUpstreamMemory(ctx context.Context, cfg *config, t *T) {
	chunk := []byte(strings.Repeat("a", 1<<20))
	member := func(b []byte) string {
		var out strings.Builder
		zw := gzip.NewWriter(&out)
		_, _ = zw.Write(b)
		_ = zw.Close()
		return out.String()
	}
	bomb := member([]byte(`{"teams":[{"idTeam":"1","strTeam":"`)) + strings.Repeat(member(chunk), 200) + member([]byte(`"}]}`))
	up := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		if id, _ := strconv.Atoi(r.URL.Query().Get("id")); id%2 == 0 {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write([]byte(bomb))
			return
		}
		_, _ = w.Write([]byte(`{"teams":[{"idTeam":"1","strTeam":"`))
		for range 200 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	defer up.srv.Close()
	fx, srv, err := readThrough(ctx, cfg, "memory", up)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	hc := newClient(30 * time.Second)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			u := fmt.Sprintf("%s/api/v1/json/%s/lookupteam.php?id=%d", srv.base, fx.premium, 900000000+i)
			if a, err := get(ctx, hc, u, ""); err != nil || a.status >= 500 {
				t.Fail("lookupteam %d: %d %v", i, a.status, err)
			}
		})
	}
	wg.Wait()
	peak, err := peakKiB(srv.pid())
	if err != nil {
		t.Fail("%v", err)
		return
	}
	t.Figure("server peak RSS, 16 concurrent hostile answers", "%d MB", peak>>10)
	if peak > 400<<10 {
		t.Fail("peak RSS %d MB under 16 hostile answers: want under 400 MB", peak>>10)
	}
}

// peakKiB is the peak resident memory of a process (VmHWM), from /proc.
func peakKiB(pid int) (int, error) { return procKiB(pid, "VmHWM") }

// procKiB is a memory figure of /proc/<pid>/status, in KiB.
func procKiB(pid int, field string) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no %s in process status", field)
}

// checkUpstreamRetryAfter: read-through honours a 429's Retry-After (capped at 2 minutes):
// ten requests after it cost the upstream nothing more.
func checkUpstreamRetryAfter(ctx context.Context, cfg *config, t *T) {
	up := newHostileUpstream(cfg, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "999999")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	defer up.srv.Close()
	fx, srv, err := readThrough(ctx, cfg, "retry-after", up)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	hc := newClient(10 * time.Second)
	for i := range 11 {
		u := fmt.Sprintf("%s/api/v1/json/%s/lookupteam.php?id=%d", srv.base, fx.premium, 910000000+i)
		if a, err := get(ctx, hc, u, ""); err != nil || a.status >= 500 {
			t.Fail("lookupteam %d: %d %v", i, a.status, err)
		}
	}
	t.Figure("upstream requests for 11 read-throughs after Retry-After: 999999", "%d", up.count())
	if up.count() != 1 {
		t.Fail("the upstream saw %d requests within its Retry-After, want 1", up.count())
	}
	if !logSays(srv, "waiting the cap") {
		t.Fail("the server's log does not say the wait was capped")
	}
}

// logSays waits for the server's log, which it writes in batches, to hold want (5 s at most).
func logSays(srv *server, want string) bool {
	deadline := time.After(5 * time.Second)
	for !strings.Contains(srv.log.String(), want) {
		select {
		case <-deadline:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return true
}
