package admin_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/testsupport"
)

// browser is headless Chromium (Debian's chromium package) driven through the DevTools
// protocol on a pipe (--remote-debugging-pipe: commands on its fd 3, answers on its fd 4),
// with nothing but the standard library. It drives one page.
type browser struct {
	t       *testing.T
	in      io.WriteCloser
	session string

	mu      sync.Mutex
	next    int
	waiting map[int]chan reply
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// startBrowser starts chromium with one page attached; it ends with the test. Without
// chromium the test skips, or fails under CI (internal/testsupport).
func startBrowser(t *testing.T) *browser {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		testsupport.Unavailable(t, "chromium is not installed (apt-get install chromium)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Not t.TempDir: chromium's helpers may still be writing there as it ends.
	profile, err := os.MkdirTemp("", "sportsdb-admin-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars", "--remote-debugging-pipe",
		"--user-data-dir="+profile, "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	if err := cmd.Start(); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	cmdR.Close()
	outW.Close()
	b := &browser{t: t, in: cmdW, waiting: map[int]chan reply{}}
	done := make(chan struct{})
	go b.read(outR, done)
	t.Cleanup(func() {
		raw, _ := json.Marshal(map[string]any{"id": -1, "method": "Browser.close"})
		cmdW.Write(append(raw, 0))
		select {
		case <-done: // it closed its end of the pipe as it ended
		case <-time.After(10 * time.Second):
		}
		cmdW.Close()
		cancel()
		cmd.Wait()
		<-done
		os.RemoveAll(profile)
	})
	var created struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &created)
	var attached struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	b.call(b.session, "Page.enable", nil, nil)
	return b
}

// read hands each answer to the call that waits for it; events are not needed.
func (b *browser) read(r io.Reader, done chan struct{}) {
	defer close(done)
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.waiting {
				close(ch)
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var m struct {
			ID int `json:"id"`
			reply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue
		}
		b.mu.Lock()
		ch := b.waiting[m.ID]
		delete(b.waiting, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.reply
		}
	}
}

// call sends a command (to the page's session, or the browser's when session is "") and
// decodes its result into out; it fails the test on an error or after 60 s.
func (b *browser) call(session, method string, params any, out any) {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(raw, 0)); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			b.t.Fatalf("%s: chromium ended", method)
		}
		if r.Error != nil {
			b.t.Fatalf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(r.Result, out); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
	case <-time.After(60 * time.Second):
		b.t.Fatalf("%s: no answer in 60 s", method)
	}
}

// eval runs an expression in the page (a promise is awaited) and decodes its value into
// out; a thrown error fails the test.
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call(b.session, "Runtime.evaluate", map[string]any{"expression": helpers + js,
		"awaitPromise": true, "returnByValue": true}, &r)
	if e := r.ExceptionDetails; e != nil {
		b.t.Fatalf("in the page: %s %s\n%s", e.Text, e.Exception.Description, js)
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("value of %s: %v", js, err)
		}
	}
}

// helpers are the functions eval's expressions may use. waitFor resolves when cond holds,
// checked on every change of the DOM, and fails after ms milliseconds.
const helpers = `
var sel = (s) => document.querySelector(s);
var waitFor = (what, cond, ms) => new Promise((resolve, reject) => {
  const check = () => { try { return cond(); } catch (e) { return false; } };
  if (check()) return resolve(true);
  const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); clearTimeout(timer); resolve(true); } });
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const timer = setTimeout(() => { obs.disconnect(); reject(new Error("timed out after " + ms + " ms waiting for " + what)); }, ms);
});
var shown = (s) => { const e = sel(s); return e && !e.hidden && e.offsetParent !== null; };
var text = (s) => (sel(s) || {}).textContent;
`

// navigate opens url in the page and waits for its load event.
func (b *browser) navigate(url string) {
	b.t.Helper()
	b.call(b.session, "Page.navigate", map[string]any{"url": url}, nil)
	b.eval(`new Promise(r => document.readyState === "complete" ? r() : addEventListener("load", () => r()))`, nil)
}

// viewport sets the page's size; mobile narrows it as a phone's screen.
func (b *browser) viewport(width, height int, mobile bool) {
	b.t.Helper()
	b.call(b.session, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height,
		"deviceScaleFactor": 1, "mobile": mobile}, nil)
}

// screenshot writes a PNG of the page to path.
func (b *browser) screenshot(path string) {
	b.t.Helper()
	var shot struct{ Data string }
	b.call(b.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(png) < 1000 {
		b.t.Fatalf("screenshot %s: %d bytes, %v", path, len(png), err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s (%d bytes)", path, len(png))
}
