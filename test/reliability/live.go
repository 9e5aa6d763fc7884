package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// revokeBound is the promise: a revoked key's requests are refused, and its open streams
// end, within 5 s of the revocation. The second more is the revoking command's own start.
const revokeBound = 6 * time.Second

// checkRevokedStreams opens two streams of a premium key (the key in the header, the key in
// the path), revokes the key with `sportsdb keys revoke` and waits for both to end.
func checkRevokedStreams(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "revoke")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	ended := make(chan string, 2)
	for name, open := range map[string][2]string{
		"key in the header": {"/api/v2/json/stream/livescore", fx.premium},
		"key in the path":   {"/api/v2/json/" + fx.premium + "/stream/livescore", ""},
	} {
		body, err := openSSE(ctx, srv.base+open[0], open[1])
		if err != nil {
			t.Fail("%s: %v", name, err)
			return
		}
		go func() {
			defer body.Close()
			br := bufio.NewReader(body)
			for {
				if _, err := br.ReadString('\n'); err != nil {
					ended <- name
					return
				}
			}
		}()
	}
	start := time.Now()
	if _, err := mustCLI(ctx, cfg, "keys", "revoke", fx.premium, "--db", fx.db); err != nil {
		t.Fail("revoke: %v", err)
		return
	}
	deadline := time.After(revokeBound)
	for range 2 {
		select {
		case name := <-ended:
			t.Figure("stream ended after the revocation ("+name+")", "%.1f s", time.Since(start).Seconds())
		case <-deadline:
			t.Fail("a stream of the revoked key is still open %v after the revocation", revokeBound)
			return
		}
	}
	if code := status(t, srv.addr, "/api/v2/json/changes", "X-API-KEY: "+fx.premium); code != http.StatusBadRequest {
		t.Fail("a request with the revoked key: %d, want 400", code)
	}
}

// openSSE opens an event stream and returns its body once the first line came.
func openSSE(ctx context.Context, url, key string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("open stream: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("open stream: %d", resp.StatusCode)
	}
	return resp.Body, nil
}

// badLive are change feed and stream requests whose parameters cannot be read one way only.
var badLive = []string{
	"/api/v2/json/changes?since=%zz", "/api/v2/json/changes?kinds=%", "/api/v2/json/changes?since=1;limit=2",
	"/api/v2/json/changes?limit=%2B5", "/api/v2/json/changes?limit=%205", "/api/v2/json/changes?since=1&since=2",
	"/api/v2/json/changes?%zz=1", "/api/v2/json/stream/changes?kinds=%", "/api/v2/json/stream/changes?since=%zz",
	"/api/v2/json/stream/livescore?since=1;x=2",
}

// checkBadLiveParameters: every one of badLive is a 400 in the documented shape, saying what
// is wrong, never an answer that read the parameters in part.
func checkBadLiveParameters(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	for _, path := range badLive {
		a, err := rawExchange(env.srv.addr, request(path, "X-API-KEY: "+env.fx.premium), 10*time.Second)
		env.count("live", a.status, err)
		switch {
		case err != nil:
			t.Fail("%s: %v", path, err)
		case a.status != http.StatusBadRequest || !strings.HasPrefix(string(a.body), `{"Message":"Invalid `):
			t.Fail("%s: %d %s, want 400 saying what is invalid", path, a.status, clipText(string(a.body), 120))
		}
	}
	t.Figure("bad change feed and stream parameters sent", "%d", len(badLive))
}

// malformedLive are stream paths that name nothing.
var malformedLive = []string{
	"/api/v2/json/stream/livescore/Soccer%20", "/api/v2/json/stream/livescore//", "/api/v2/json//stream/livescore",
	"/api/v2/json/stream/livescore/soccer/extra", "/api/v2/json/stream/other", "/api/v2/json/changes/x",
}

// checkMalformedStreamPaths: with a valid key, a stream path that names nothing is 404 and
// not a failed key check: past --key-fails of them, a wrong key is still 400, not 429. A
// client that leaves during a catch-up from the oldest change is no failure in the log.
func checkMalformedStreamPaths(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "livepaths", "--key-fails", "5")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	for i := range 3 * len(malformedLive) {
		path := malformedLive[i%len(malformedLive)]
		if code := status(t, srv.addr, path, "X-API-KEY: "+fx.premium); code != http.StatusNotFound {
			t.Fail("%s with a valid key: %d, want 404", path, code)
		}
	}
	cfg.secret(wrongKey+"Live", "wrong key")
	if code := status(t, srv.addr, "/api/v2/json/changes", "X-API-KEY: "+wrongKey+"Live"); code != http.StatusBadRequest {
		t.Fail("a wrong key after the malformed paths: %d, want 400 (they counted as failed key checks)", code)
	}
	// Four, and one more below: the premium key's five open streams, however late the
	// server sees these clients leave.
	for range 4 {
		body, err := openSSE(ctx, srv.base+"/api/v2/json/stream/changes?since=0", fx.premium)
		if err != nil {
			t.Fail("catch-up stream: %v", err)
			return
		}
		body.Close()
	}
	// The streams end on the server after their clients; a stream opened after them ends
	// after them too, and the log is read once it has.
	if body, err := openSSE(ctx, srv.base+"/api/v2/json/stream/livescore", fx.premium); err == nil {
		body.Close()
	}
	time.Sleep(300 * time.Millisecond) // the log is buffered briefly
	if n := strings.Count(srv.log.String(), "stream ended by a failure"); n > 0 {
		t.Fail("clients leaving were logged as failures %d times: %s", n, lineWith(srv.log.String(), "stream ended"))
	}
}

// checkReadyAfterWarmUp starts a server and, once /readyz says ready, sends it a burst of
// concurrent requests: the server must have warmed up before it said ready (its log says
// so), and the burst's answers are reported.
func checkReadyAfterWarmUp(ctx context.Context, cfg *config, t *T) {
	fx, srv, err := ownServer(ctx, cfg, "warmstart")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	start := time.Now()
	for {
		a, err := rawExchange(srv.addr, request("/readyz"), 10*time.Second)
		if err == nil && a.status == http.StatusOK {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fail("/readyz not ready 30 s after the server listened: %d %v", a.status, err)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Figure("from listening to ready", "%d ms", time.Since(start).Milliseconds())
	paths := []string{"/api/v1/json/{K}/searchteams.php?t=Arsenal", "/api/v1/json/{K}/lookupteam.php?id=133604",
		"/api/v2/json/{K}/changes?limit=1", "/api/v1/json/{K}/searchplayers.php?p=Smith"}
	took := make(chan time.Duration, 64)
	for i := range cap(took) {
		go func() {
			begin := time.Now()
			path := strings.ReplaceAll(paths[i%len(paths)], "{K}", fx.premium)
			if code := status(t, srv.addr, path); code != http.StatusOK {
				t.Fail("%s right after ready: %d", path, code)
			}
			took <- time.Since(begin)
		}()
	}
	slowest := time.Duration(0)
	for range cap(took) {
		slowest = max(slowest, <-took)
	}
	t.Figure("slowest of 64 concurrent answers right after ready", "%d ms", slowest.Milliseconds())
	time.Sleep(300 * time.Millisecond) // the log is buffered briefly
	if !strings.Contains(srv.log.String(), "warmed up") {
		t.Fail("the server said ready without a warm-up in its log")
	}
}
