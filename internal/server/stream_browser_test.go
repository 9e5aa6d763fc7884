package server_test

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// streamPage opens an EventSource with the key in the path (a browser's EventSource cannot
// send headers), asks its own origin to import a team once the stream is open, and writes
// the event it receives into the page.
const streamPage = `<!doctype html><html><body><pre id="out">pending</pre><script>
const out = document.getElementById("out");
const es = new EventSource(%q + "/api/v2/json/" + %q + "/stream/changes?kinds=team");
es.onopen = () => { out.textContent = "open"; fetch("/import"); };
es.addEventListener("team", e => {
  out.textContent = "team lastEventId=" + e.lastEventId + " data=" + e.data.slice(0, 30);
  es.close();
});
es.onerror = () => { if (out.textContent === "pending") out.textContent = "error"; };
</script></body></html>`

// A real browser's EventSource receives a change on a stream opened from another origin.
func TestBrowserEventSourceReceivesChanges(t *testing.T) {
	e := newLiveEnv(t, nil)
	other := e.secondHandle(t)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/import" {
			importTeams(t, other, "42", "Browser FC")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, streamPage, e.base, e.premium)
	}))
	defer page.Close()

	out := chromiumDOM(t, page.URL)
	text := pageText(out)
	if want := `team lastEventId=1 data={"idTeam":"42","idESPN":null,"`; text != want {
		t.Errorf("the page read %q, want %q", text, want)
	}
}

// chromiumDOM loads url in headless Chromium (Debian's chromium package) and returns the
// DOM once the page's scripts have run, unescaped. Without chromium the test skips, except
// under CI, which must run it.
func chromiumDOM(t *testing.T, url string) string {
	t.Helper()
	chromium := needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-dev-shm-usage", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=20000",
		"--dump-dom", url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return html.UnescapeString(string(out))
}

// resumePage receives one team, asks for another to be imported while the server ends its
// stream, and writes what it received once the browser has reconnected by itself.
const resumePage = `<!doctype html><html><body><pre id="out">pending</pre><script>
const out = document.getElementById("out"), seen = [];
const es = new EventSource(%q + "/api/v2/json/" + %q + "/stream/changes?kinds=team");
let opened = 0;
es.onopen = () => { if (++opened === 1) fetch("/import?id=42"); };
es.addEventListener("team", e => {
  seen.push(e.lastEventId + ":" + JSON.parse(e.data).idTeam);
  if (seen.length === 1) fetch("/import?id=43");
  if (seen.length === 2) { es.close(); out.textContent = "opened=" + opened + " seen=" + seen.join(","); }
});
</script></body></html>`

// cutListener's first connection that carries an event is closed right after it, as a
// restarting server or a dropped connection would.
type cutListener struct {
	net.Listener
	once sync.Once
}

func (l *cutListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return &cutConn{Conn: c, l: l}, err
}

type cutConn struct {
	net.Conn
	l *cutListener
}

func (c *cutConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if strings.Contains(string(b), "\nevent: ") {
		c.l.once.Do(func() { c.Conn.Close() })
	}
	return n, err
}

// A browser's EventSource whose stream ends reconnects by itself with Last-Event-ID, and
// gets the change committed meanwhile, once.
func TestBrowserEventSourceResumes(t *testing.T) {
	e := newLiveEnv(t, nil)
	other := e.secondHandle(t)
	var mu sync.Mutex
	var lastIDs []string
	api := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/stream/") {
			mu.Lock()
			lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
			mu.Unlock()
		}
		e.srv.ServeHTTP(w, r)
	}))
	api.Listener = &cutListener{Listener: api.Listener}
	api.Start()
	t.Cleanup(api.Close)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/import" {
			importTeams(t, other, r.URL.Query().Get("id"), "Browser FC")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, resumePage, api.URL, e.premium)
	}))
	t.Cleanup(page.Close)
	if got, want := pageText(chromiumDOM(t, page.URL)), "opened=2 seen=1:42,2:43"; got != want {
		t.Errorf("the page read %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lastIDs) != 2 || lastIDs[0] != "" || lastIDs[1] != "1" {
		t.Errorf("Last-Event-ID of the stream requests: %q, want none then 1", lastIDs)
	}
}
