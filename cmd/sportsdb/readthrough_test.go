package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/testsupport"
)

func TestServeRefusesAnUpstreamWithoutKey(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	var out bytes.Buffer
	err := run(context.Background(), []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1"}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "--upstream-key") {
		t.Fatalf("error %v: want one naming --upstream-key", err)
	}
	if _, statErr := os.Stat(db); statErr == nil {
		t.Errorf("the database was created before the flags were checked")
	}
}

// serve --upstream on a store with no records answers with the upstream's records, counts
// its upstream requests on /metrics, and never shows the upstream's key, even when the
// upstream fails.
func TestServeReadsThroughToTheUpstream(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	var hits atomic.Int32
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if strings.Contains(r.URL.Path, "searchplayers") {
			http.Error(w, "upstream failure", http.StatusInternalServerError)
			return
		}
		up.Server.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	dir := t.TempDir()
	out, ok := sportsdb(t, dir, nil, "keys", "add", "--tier", "premium") // a database with no records
	if !ok {
		t.Fatal(out)
	}
	key := strings.TrimSpace(out)
	addr, logs := startReadThrough(t, dir, upstream.URL, up.PremiumKey)
	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	want := up.V1(t, up.PremiumKey, "lookupteam.php?id=133604")
	// Reading through, every image address points here: the image is fetched on its first
	// request.
	here := []byte(`http:\/\/` + addr)
	want.Body = bytes.ReplaceAll(want.Body, []byte(`https:\/\/r2.thesportsdb.com`), here)
	want.Body = bytes.ReplaceAll(want.Body, []byte(`https:\/\/www.thesportsdb.com`), here)
	if status, body := get("/api/v1/json/" + key + "/lookupteam.php?id=133604"); status != http.StatusOK || !bytes.Equal(body, want.Body) {
		t.Errorf("%d %.200s\nwant the upstream's %.200s", status, body, want.Body)
	}
	if status, body := get("/api/v1/json/" + key + "/searchplayers.php?p=Nobody"); status != http.StatusOK || !strings.Contains(string(body), "null") {
		t.Errorf("with the upstream failing: %d %.200s, want the local empty answer", status, body)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the upstream was asked %d times, want 2", n)
	}
	if _, metrics := get("/metrics"); !strings.Contains(string(metrics), `sportsdb_upstream_requests_total{outcome="failed",source="readthrough"} 1`) {
		t.Errorf("/metrics lacks the upstream's requests:\n%s", metrics)
	}
	if s := logs(); !strings.Contains(s, "upstream") || strings.Contains(s, up.PremiumKey) {
		t.Errorf("the failure is not logged, or the upstream's key shows:\n%s", s)
	}
}

// startReadThrough starts serve with an upstream at debug level; logs returns everything it
// printed until it stopped.
func startReadThrough(t *testing.T, dir, upstream, upstreamKey string) (addr string, logs func() string) {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--log-level", "debug", "--upstream", upstream)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SPORTSDB_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "SPORTSDB_UPSTREAM_KEY="+upstreamKey)
	var stderr, console testsupport.LogBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	kill := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	t.Cleanup(func() { kill.Stop() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		console.Write([]byte(sc.Text() + "\n"))
		if a, ok := strings.CutPrefix(sc.Text(), "sportsdb listening on http://"); ok {
			done := make(chan struct{})
			go func() {
				defer close(done)
				for sc.Scan() {
					console.Write([]byte(sc.Text() + "\n"))
				}
			}()
			return a, func() string {
				stop()
				<-done
				return console.String() + stderr.String()
			}
		}
	}
	t.Fatalf("serve never listened:\n%s%s", console.String(), stderr.String())
	return "", nil
}
