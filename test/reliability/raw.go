package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// headerSets are header lines sent with an otherwise good request; keys sit in odd places.
func headerSets(env *sharedEnv) (plain [][]string, goLayer [][]string) {
	k, fake := env.fx.premium, env.fake[1]
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("X-Rel-%d: %d", i, i)
	}
	plain = [][]string{
		{"X-API-KEY: "}, {"X-API-KEY:     "}, {"X-API-KEY: " + strings.Repeat("k", 10000)},
		{"X-API-KEY: " + k, "X-API-KEY: " + fake}, {"x-api-key: " + k}, {"X-Api-Key: " + k + " "},
		{"X-API-KEY: " + k + "\t"}, {"X-API-KEY: ключ"}, {"X-API-KEY: \xff\xfe"}, {"X-API-KEY: 123"},
		{"X-API-KEY: Bearer " + k}, {"X-API-KEY: " + fake}, {"Authorization: Bearer " + fake},
		{"Cookie: key=" + fake}, {"Referer: http://127.0.0.1/api/v1/json/" + fake + "/x.php"},
		{"User-Agent: " + strings.Repeat("u", 8000)}, {"Accept: text/html"}, {"Accept: */*;q=0"},
		{"Accept-Encoding: gzip, br, zstd"}, {"Accept-Encoding: ;;;;"}, {"Range: bytes=0-1"},
		{"Range: bytes=999999-"}, {"Range: bytes=abc"}, {"If-None-Match: *"},
		{"If-None-Match: \"" + strings.Repeat("e", 500) + "\""}, {"If-Modified-Since: yesterday"},
		{"X-Forwarded-For: garbage, , ,"}, {"X-Forwarded-For: " + fake}, {"Forwarded: for=" + fake},
		{"Expect: 100-continue"}, {"Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA"},
		{"Upgrade: websocket", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="}, {"Origin: http://evil.example"},
		{"Content-Type: application/x-www-form-urlencoded"}, many, {"X-HTTP-Method-Override: DELETE"},
		{"X-API-KEY: " + k, "X-Forwarded-Host: evil.example"},
	}
	goLayer = [][]string{
		{"Host: evil.example"}, {"X-API-KEY: a\x00b"}, {"Bad Header: x"}, {"X-API-KEY : " + k},
		{"X-API-KEY: " + k, " continued"}, {"Content-Length: -1"}, {"Content-Length: abc"},
		{"Content-Length: 1", "Transfer-Encoding: chunked"}, {"Transfer-Encoding: gzip"},
		{"NoColonHere"}, {": empty-name"},
	}
	return plain, goLayer
}

func checkHostileHeaders(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	paths := []string{"/api/v2/json/search/team/Arsenal", "/api/v1/json/" + env.fx.premium + "/all_sports.php"}
	plain, goLayer := headerSets(env)
	var cases []hostileCase
	for _, p := range paths {
		for _, h := range plain {
			if p == paths[0] && !strings.Contains(strings.ToLower(strings.Join(h, "\n")), "x-api-key") {
				h = append([]string{"X-API-KEY: " + env.fx.premium}, h...)
			}
			cases = append(cases, hostileCase{name: p + " " + clipText(strings.Join(h, " | "), 80), raw: request(p, h...)})
		}
		for _, h := range goLayer {
			cases = append(cases, hostileCase{name: p + " " + clipText(strings.Join(h, " | "), 80), raw: request(p, h...),
				goLayer: true, allow5xx: []int{501}})
		}
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "get", "HEAD"} {
			raw := strings.Replace(string(request(p, "X-API-KEY: "+env.fx.premium)), "GET", m, 1)
			cases = append(cases, hostileCase{name: m + " " + p, raw: []byte(raw)})
		}
	}
	chunked := "GET " + paths[1] + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
	withBody := "GET " + paths[1] + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
	cases = append(cases, hostileCase{name: "chunked GET body", raw: []byte(chunked)}, hostileCase{name: "GET with body", raw: []byte(withBody)})
	runCorpus(t, env, "headers", cases)
}

// rawLines are whole requests at the protocol level.
func rawLines(env *sharedEnv) []hostileCase {
	k := env.fx.premium
	v1 := "/api/v1/json/" + k + "/all_sports.php"
	var cs []hostileCase
	add := func(name, raw string, goLayer bool, allow ...int) {
		cs = append(cs, hostileCase{name: name, raw: []byte(raw), goLayer: goLayer, allow5xx: allow})
	}
	hv := "\r\nHost: x\r\nConnection: close\r\n\r\n"
	for _, target := range []string{v1, "/api/v2/json/search/team/Arsenal", "/healthz"} {
		add("HTTP/2.0 line "+target, "GET "+target+" HTTP/2.0"+hv, false, 505)
	}
	for _, v := range []string{"HTTP/3.0", "HTTP/1.2", "HTTP/0.9", "HTTP/9.9", "HTTP/1", "HTTP/1.1 ", "HTTP/01.1", "HTTPS/1.1", "http/1.1"} {
		add("version "+v, "GET "+v1+" "+v+hv, true, 505)
	}
	for _, line := range []string{"GARBAGE", "GET", "GET /healthz", "GET  " + v1 + " HTTP/1.1", "GET\t" + v1 + "\tHTTP/1.1",
		"GET " + v1 + " HTTP/1.1 extra", "GET %2Fapi HTTP/1.1", "GET api/v1/json/" + k + "/all_sports.php HTTP/1.1",
		"GET /a b HTTP/1.1", "GET /api/v1/json/" + k + "/all\x00sports.php HTTP/1.1", "G\x00ET / HTTP/1.1",
		strings.Repeat("M", 10000) + " / HTTP/1.1"} {
		add("request line "+clipText(line, 60), line+hv, true, 505, 501)
	}
	add("no Host", "GET "+v1+" HTTP/1.1\r\nConnection: close\r\n\r\n", true)
	add("bare LF", "GET "+v1+" HTTP/1.1\nHost: x\nConnection: close\n\n", true)
	add("leading CRLF", "\r\n\r\nGET /healthz HTTP/1.1"+hv, true)
	add("HTTP/1.0", "GET "+v1+" HTTP/1.0\r\n\r\n", false)
	add("PRI preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", true, 505)
	add("OPTIONS *", "OPTIONS * HTTP/1.1"+hv, true)
	add("CONNECT", "CONNECT 127.0.0.1:443 HTTP/1.1"+hv, true)
	add("absolute-form", "GET http://evil.example"+v1+" HTTP/1.1"+hv, false)
	add("absolute-form https", "GET https://127.0.0.1/healthz HTTP/1.1"+hv, false)
	add("fragment key", "GET "+v1+"#"+env.fake[2]+" HTTP/1.1"+hv, false)
	add("host key", "GET /healthz HTTP/1.1\r\nHost: "+env.fake[2]+"\r\nConnection: close\r\n\r\n", false)
	add("query key on /metrics", "GET /metrics?key="+env.fake[2]+" HTTP/1.1"+hv, false)
	add("query key on /healthz", "GET /healthz?"+env.fake[2]+" HTTP/1.1"+hv, false)
	add("pipelined", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET "+v1+" HTTP/1.1"+hv, false)
	for _, p := range []string{"/api/v2/json/search/team/100%", "/%", "/%%", "/%1", "/%G0", "/api/v1/json/%/all_sports.php",
		"/api/v1/json/" + k + "/searchteams.php%", "/api/v2/json/search/team/%2", "/api/v2/json/search/team/Atl\xc3\xa9tico",
		"/api/v2/json/search/team/\xff\xfe", "/api/v1/json/" + k + "/\xffall_sports.php", "/" + strings.Repeat("p", 60000),
		"/api/v1/json/" + k + "/" + strings.Repeat("..%2f", 500) + "all_sports.php", "/api/v1/json/../../../etc/passwd",
		"/../../etc/passwd", "/api/v1/json/" + k + "/%2e%2e%2f%2e%2e%2fall_sports.php", "/.git/config", "/index.php",
		"/wp-login.php", "/api/", "/api", "/", "/healthz/", "/HEALTHZ", "/readyz?x=%zz", "/metrics/../healthz"} {
		add("path "+clipText(p, 60), "GET "+p+" HTTP/1.1"+hv, false)
	}
	add("huge header", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("h", 100<<10)+"\r\nConnection: close\r\n\r\n", true)
	many := strings.Repeat("X-H: "+strings.Repeat("v", 90)+"\r\n", 1000)
	add("1000 headers", "GET /healthz HTTP/1.1\r\nHost: x\r\n"+many+"Connection: close\r\n\r\n", true)
	add("bad chunk size", "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n", true)
	add("long method", strings.Repeat("A", 300)+" /healthz HTTP/1.1"+hv, false)
	return cs
}

func checkHostileRaw(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	runCorpus(t, env, "raw", rawLines(env))
	if a, err := rawExchange(env.srv.addr, request("/healthz"), 10*time.Second); err != nil || a.status != 200 {
		t.Fail("after the raw requests /healthz answers %d, %v", a.status, err)
	}
}

// checkSlowloris opens connections that send a request a byte at a time and never finish:
// the server must close each within its header timeout, and answer others meanwhile.
func checkSlowloris(ctx context.Context, cfg *config, t *T) {
	env, err := cfg.shared(ctx)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	n, bound := 8, 20*time.Second
	if !cfg.short {
		n = 64
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	open, longest := 0, time.Duration(0)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			took, closed := dribble(env.srv.addr, i%2 == 0, bound)
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				open++
			}
			longest = max(longest, took)
		}(i)
	}
	time.Sleep(2 * time.Second)
	if a, err := rawExchange(env.srv.addr, request("/api/v1/json/123/all_sports.php"), 10*time.Second); err != nil || a.status != 200 {
		t.Fail("during the slow requests a normal request got %d, %v", a.status, err)
	}
	wg.Wait()
	t.Figure("slow connections", "%d", n)
	t.Figure("longest before the server closed it", "%.1fs", longest.Seconds())
	if open > 0 {
		t.Fail("%d of %d slow connections were still open after %s", open, n, bound)
	}
}

// dribble sends a request line (or headers) a byte or line per 500 ms and reports how long
// until the server closed the connection, within bound.
func dribble(addr string, inLine bool, bound time.Duration) (time.Duration, bool) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, true
	}
	defer conn.Close()
	start := time.Now()
	closed := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		_ = conn.SetReadDeadline(start.Add(bound))
		for {
			if _, err := conn.Read(buf); err != nil {
				close(closed)
				return
			}
		}
	}()
	line := "GET /api/v1/json/123/all_sports.php HTTP/1.1\r\nHost: x\r\n"
	for i := 0; ; i++ {
		piece := "X-Slow-" + fmt.Sprint(i) + ": y\r\n"
		if inLine {
			piece = string(line[i%len(line)])
		}
		if _, err := conn.Write([]byte(piece)); err != nil {
			break
		}
		select {
		case <-closed:
			return time.Since(start), time.Since(start) < bound
		case <-time.After(500 * time.Millisecond):
		}
		if time.Since(start) > bound {
			break
		}
	}
	<-closed
	return time.Since(start), time.Since(start) < bound
}
