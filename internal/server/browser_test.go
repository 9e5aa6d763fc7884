package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
)

// browserPage is the script a page on another origin runs: it calls v1, v2 with the key in
// X-API-KEY (which makes the browser send a preflight first) and v2 with a wrong key, and
// writes what it could read of each answer into the page.
const browserPage = `<!doctype html><html><body><pre id="out">pending</pre><script>
const api = %q, key = %q;
async function call(name, path, headers) {
  const r = await fetch(api + path, {headers: headers});
  const body = await r.text();
  return name + " status=" + r.status + " remaining=" + r.headers.get("X-RateLimit-Remaining") +
    " policy=" + r.headers.get("RateLimit-Policy") + " etag=" + (r.headers.get("ETag") ? "yes" : "no") +
    " body=" + body.slice(0, 30);
}
(async () => {
  const lines = [];
  lines.push(await call("v1", "/api/v1/json/123/all_sports.php", {}));
  lines.push(await call("v2", "/api/v2/json/all/sports", {"X-API-KEY": key}));
  lines.push(await call("wrongkey", "/api/v2/json/all/sports", {"X-API-KEY": "wrong"}));
  document.getElementById("out").textContent = lines.join("\n");
})().catch(e => { document.getElementById("out").textContent = "failed: " + e; });
</script></body></html>`

// A page served from one origin reads sportsdb's answers on another, in a real browser
// (Debian's chromium package): statuses, bodies, the rate limit fields and the ETag.
func TestBrowserOnAnotherOriginReadsAnswers(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.System{})})
	var mu sync.Mutex
	methods := map[string]int{}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods[r.Method]++
		mu.Unlock()
		env.Server.ServeHTTP(w, r)
	}))
	defer api.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, browserPage, api.URL, env.PremiumKey)
	}))
	defer page.Close()

	dom := chromiumDOM(t, page.URL)
	for _, want := range []string{
		`v1 status=200 remaining=29 policy="default";q=30;w=60 etag=yes body={"sports":[`,
		`v2 status=200 remaining=99 policy="default";q=100;w=60 etag=yes body={"all":[`,
		`wrongkey status=400 remaining=null policy=null etag=no body={"Message":"Invalid API key"}`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page did not read %q; its text:\n%s", want, pageText(dom))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if methods[http.MethodOptions] == 0 {
		t.Errorf("the browser sent no preflight (methods seen %v)", methods)
	}
}

// pageText is the text of the page's output element, or the whole DOM.
func pageText(dom string) string {
	if _, rest, ok := strings.Cut(dom, `<pre id="out">`); ok {
		text, _, _ := strings.Cut(rest, "</pre>")
		return text
	}
	return dom
}
