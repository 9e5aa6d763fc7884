package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/pgtest"
)

// gen --scale demo keeps the pictures its records name, on both databases, and says so:
// after it, no image field of the demo names a picture the server would answer 404 for.
func TestGenDemoKeepsPictures(t *testing.T) {
	dir := t.TempDir()
	dbs := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(dir, "demo.db") },
		"postgres": func(t *testing.T) string { return pgtest.FreshSchema(t) },
	}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			dsn := db(t)
			out, ok := sportsdb(t, dir, nil, "gen", "--scale", "demo", "--db", dsn)
			if !ok || !strings.Contains(out, "gen demo seed 1: 14") || !strings.Contains(out, " pictures (") {
				t.Fatalf("gen: ok=%v\n%s", ok, out)
			}
			st, err := backend.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			im := st.(store.Images)
			stats, err := im.ImageStats(context.Background())
			if err != nil || stats.Images < 10000 {
				t.Fatalf("kept %+v, %v; want the demo's many thousand pictures", stats, err)
			}
			// Every image field of every record names a picture the store holds (a copy's
			// path, ".../x.png/tiny", names its original: the image routes make the copy).
			for _, k := range record.Kinds {
				err := st.Scan(context.Background(), k, func(r record.Record) error {
					for _, f := range k.Fields {
						v := r.Str(f)
						if !strings.Contains(v, "/images/") {
							continue
						}
						u, _ := url.Parse(v)
						path := strings.TrimSuffix(u.Path, "/tiny")
						if _, err := im.ImageInfo(context.Background(), path); err != nil {
							return fmt.Errorf("%s %s names %s: %w", k.Name, f, v, err)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			arsenal, err := st.Get(context.Background(), record.Team, "133604")
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(arsenal.Str("strBadge"))
			if img, err := im.ImageInfo(context.Background(), u.Path); err != nil || img.Type != "image/png" || img.Width != 512 {
				t.Fatalf("Arsenal's badge %s: %+v %v", u.Path, img, err)
			}
		})
	}
}

// serve on a new database answers before the demo's pictures are drawn, draws them behind
// it and says so; the records then name them on this server, and they answer. A later start
// draws only what is missing: here one picture removed meanwhile.
func TestServeDrawsDemoPicturesBehind(t *testing.T) {
	dir := t.TempDir()
	addr, drawn := serveUntilDrawn(t, dir)
	if !strings.Contains(drawn, "pictures=14") {
		t.Errorf("the first start drew %s, want the demo's 14,000 and more", drawn)
	}
	_, body := get(t, "http://"+addr+"/api/v1/json/3/searchteams.php?t=Arsenal")
	badge := regexp.MustCompile(`"strBadge":"([^"]+)"`).FindStringSubmatch(body)
	if badge == nil {
		t.Fatalf("Arsenal without a badge: %s", body)
	}
	local := strings.ReplaceAll(badge[1], `\/`, "/")
	if !strings.HasPrefix(local, "http://"+addr+"/images/media/team/badge/") {
		t.Fatalf("Arsenal's badge %s, want it on this server", local)
	}
	resp, err := http.Get(local)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s: %d %s", local, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	stopServe(t)
	path := strings.TrimPrefix(local, "http://"+addr)
	if out, ok := sportsdb(t, dir, nil, "media", "remove", path); !ok {
		t.Fatal(out)
	}
	if _, drawn = serveUntilDrawn(t, dir); !strings.Contains(drawn, "pictures=1 ") {
		t.Errorf("the second start drew %s, want the one removed", drawn)
	}
}

// serveUntilDrawn starts serve in dir and waits for its log to say the demo's pictures are
// drawn: it returns the address and that log line.
func serveUntilDrawn(t *testing.T, dir string) (addr, line string) {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--log-level", "info", "--log-format", "text")
	cmd.Dir = dir
	cmd.Env = os.Environ()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	serving = cmd
	t.Cleanup(func() { stopServe(t) })
	kill := time.AfterFunc(3*time.Minute, func() { cmd.Process.Kill() })
	defer kill.Stop()
	addrs := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "sportsdb listening on http://"); ok {
				addrs <- a
			}
		}
	}()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if line := sc.Text(); strings.Contains(line, "demo pictures drawn") {
			go func() {
				for sc.Scan() {
				}
			}()
			return <-addrs, line
		}
	}
	t.Fatal("serve ended before it drew the demo's pictures")
	return "", ""
}

// serving is the serve serveUntilDrawn started last.
var serving *exec.Cmd

func stopServe(t *testing.T) {
	if serving != nil && serving.ProcessState == nil {
		serving.Process.Signal(os.Interrupt)
		serving.Wait()
	}
}
