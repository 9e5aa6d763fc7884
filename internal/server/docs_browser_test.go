package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/testsupport"
)

// docsHarness is a page on the server's origin that opens /docs in a frame and drives the
// renderer as a user would: it waits for the operations, opens the key dialog, authorizes
// with a key, opens v2's team search, presses Execute and reads the status shown.
const docsHarness = `<!doctype html><html><body style="margin:0">
<pre id="out" style="margin:0;height:60px;overflow:hidden">pending</pre>
<iframe id="f" src="/docs" style="width:1280px;height:2300px;border:0"></iframe>
<img src="/hold" alt="" width="1" height="1">
<script>
const key = %q, op = %q;
const lines = [];
const out = document.getElementById("out");
// The page's load event, which chromium waits for before it dumps or shoots, waits for
// /hold, which the test answers once the result is posted.
const show = () => {
  out.textContent = lines.join("\n");
  fetch("/result", {method: "POST", body: out.textContent});
};
const wait = (what, cond) => new Promise((resolve, reject) => {
  const t0 = Date.now();
  const tick = () => {
    let v = null;
    try { v = cond(); } catch (e) {}
    if (v) return resolve(v);
    if (Date.now() - t0 > 45000) return reject(new Error("timed out waiting for " + what));
    setTimeout(tick, 100);
  };
  tick();
});
const click = (el) => el.dispatchEvent(new MouseEvent("click", {bubbles: true}));
(async () => {
  const f = document.getElementById("f");
  const d = await wait("the operations", () => {
    const d = f.contentDocument;
    return d && d.querySelector(".opblock") && d;
  });
  const w = f.contentWindow;
  lines.push("operations=" + d.querySelectorAll(".opblock").length);
  lines.push("searchteams=" + [...d.querySelectorAll(".opblock-summary-path")].some(e => e.textContent.includes("searchteams.php")));
  click(await wait("the Authorize button", () => d.querySelector(".auth-wrapper .authorize")));
  const dialog = await wait("the key dialog", () => d.querySelector(".dialog-ux .modal-ux-content"));
  lines.push("scheme=" + (dialog.textContent.includes("X-API-KEY") ? "X-API-KEY" : "missing") + " in=" + (dialog.textContent.includes("header") ? "header" : "?"));
  click(d.querySelector(".dialog-ux .close-modal"));
  w.ui.preauthorizeApiKey("ApiKeyHeader", key);
  // The renderer draws operations as they scroll into view: scroll until v2's is drawn.
  const block = await wait("the operation " + op, () => {
    const found = [...d.querySelectorAll(".opblock")].find(b => {
      const p = b.querySelector(".opblock-summary-path");
      return p && p.textContent.replace(/\u200b/g, "") === op;
    });
    if (!found) w.scrollBy(0, 1500);
    return found;
  });
  click(block.querySelector(".opblock-summary-control") || block.querySelector(".opblock-summary"));
  const exec = await wait("the Execute button", () => block.querySelector(".btn.execute"));
  const input = block.querySelector(".parameters input");
  lines.push("param=" + (input ? input.value : "none"));
  click(exec);
  const status = await wait("the answer", () => block.querySelector(".live-responses-table tr.response .response-col_status"));
  lines.push("tryit status=" + status.textContent.trim());
  const curl = block.querySelector(".curl-command");
  lines.push("curl sends key=" + (curl ? curl.textContent.includes("X-API-KEY: " + key) : false));
  const loaded = w.performance.getEntriesByType("resource").map(e => e.name);
  lines.push("resources=" + loaded.length + " foreign=" + loaded.filter(u => !u.startsWith(w.location.origin + "/")).join(","));
  block.scrollIntoView();
  w.scrollTo(0, block.offsetTop - 20);
  lines.push("done");
  show();
})().catch(e => { lines.push("failed: " + e.message); show(); });
</script></body></html>`

// The reference page in a real browser (Debian's chromium): it renders the document, lists
// searchteams.php, shows the X-API-KEY scheme, and a "try it" request answers 200. A
// screenshot goes to SPORTSDB_SCREENSHOT_DIR (a CI artifact) or the test's directory.
func TestDocsPageInBrowser(t *testing.T) {
	chromium := needChromium(t)
	env := apitest.New(t, apitest.Options{Demo: true})
	h := &harness{key: env.PremiumKey, api: env.Server}
	srv := httptest.NewServer(h)
	defer srv.Close()

	text := h.run(t, chromium, "--dump-dom", srv.URL+"/harness")
	for _, want := range []string{"searchteams=true", "scheme=X-API-KEY in=header", "param=Arsenal",
		"tryit status=200", "curl sends key=true", "foreign=\n", "done"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page did not show %q; it showed:\n%s", want, text)
		}
	}
	if tried := h.apiRequests(); len(tried) != 1 || tried[0] != "/api/v2/json/search/team/Arsenal key=true" {
		t.Errorf("API requests the page sent: %v", tried)
	}

	h.screenshot(t, chromium, srv.URL+"/harness", "docs.png", "1280,2400")
}

// screenshot opens the page at url again in a window of size ("1280,2400") and saves what
// it shows as name in SPORTSDB_SCREENSHOT_DIR (a CI artifact) or the test's directory.
func (h *harness) screenshot(t *testing.T, chromium, url, name, size string) {
	t.Helper()
	dir := os.Getenv("SPORTSDB_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, name)
	h.run(t, chromium, "--window-size="+size, "--screenshot="+shot, url)
	if png, err := os.ReadFile(shot); err != nil || len(png) < 10000 || string(png[1:4]) != "PNG" {
		t.Errorf("screenshot %s: %d bytes, %v", shot, len(png), err)
	} else {
		t.Logf("screenshot: %s (%d bytes)", shot, len(png))
	}
}

// harness serves a driving page beside the server: /harness, /hold (answered once the
// page posts its result to /result, so the page's load event waits for the result) and
// everything else from the server under test.
type harness struct {
	key string
	api http.Handler
	// page, when set, is the page /harness serves instead of the reference page's driver.
	page string

	mu     sync.Mutex
	result chan string
	tried  []string
}

func (h *harness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	result := h.result
	if strings.HasPrefix(r.URL.Path, "/api/") {
		h.tried = append(h.tried, r.URL.Path+" key="+fmt.Sprint(r.Header.Get("X-API-KEY") == h.key))
	}
	h.mu.Unlock()
	switch r.URL.Path {
	case "/harness":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if h.page != "" {
			io.WriteString(w, h.page)
			return
		}
		fmt.Fprintf(w, docsHarness, h.key, "/api/v2/json/search/team/{name}")
	case "/result":
		b, _ := io.ReadAll(r.Body)
		select {
		case result <- string(b):
		default:
		}
	case "/hold":
		select {
		case text := <-result:
			result <- text // for run to read
		case <-time.After(60 * time.Second):
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	default:
		h.api.ServeHTTP(w, r)
	}
}

func (h *harness) apiRequests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.tried...)
}

// run opens the harness in headless chromium and returns what the page posted.
func (h *harness) run(t *testing.T, chromium string, args ...string) string {
	t.Helper()
	h.mu.Lock()
	h.result, h.tried = make(chan string, 1), nil
	result := h.result
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	select {
	case text := <-result:
		return text
	default:
		t.Fatalf("the page posted no result; chromium said:\n%s", stderr.String())
		return ""
	}
}

// needChromium is the path of Debian's chromium; without it the test is skipped, or fails
// under CI, which must run the browser tests.
func needChromium(t *testing.T) string {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		testsupport.Unavailable(t, "chromium is not installed (apt-get install chromium)")
	}
	return chromium
}
