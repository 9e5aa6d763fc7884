package main

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// media add keeps a file at its path, which a running serve serves; list shows it; a file
// that is no picture, or a path outside /images/media/, is refused; remove removes it.
func TestMediaCommands(t *testing.T) {
	dir := t.TempDir()
	env := []string{"SPORTSDB_DB=media.db"}
	if out, ok := sportsdb(t, dir, env, "migrate"); !ok {
		t.Fatalf("migrate: %s", out)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 300, 100))); err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("badge.png", b.Bytes())
	write("logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	const path = "/images/media/team/badge/riverside.png"
	if out, ok := sportsdb(t, dir, env, "media", "add", "badge.png", "--path", path); !ok || !strings.Contains(out, path+"\timage/png\t300x100") {
		t.Fatalf("media add: ok=%v %s", ok, out)
	}
	if out, ok := sportsdb(t, dir, env, "media", "add", "logo.svg", "--path", path); ok || !strings.Contains(out, "not a PNG, JPEG, GIF or WebP") {
		t.Fatalf("media add of an SVG: ok=%v %s", ok, out)
	}
	if out, ok := sportsdb(t, dir, env, "media", "add", "badge.png", "--path", "/images/icons/x.png"); ok || !strings.Contains(out, "/images/media/") {
		t.Fatalf("media add outside /images/media/: ok=%v %s", ok, out)
	}
	if out, ok := sportsdb(t, dir, env, "media", "list"); !ok || !strings.Contains(out, path) || !strings.Contains(out, "300x100") {
		t.Fatalf("media list: %s", out)
	}

	addr, _ := startServeCollect(t, dir, env)
	resp, err := http.Get("http://" + addr + path + "/tiny")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if cfg, err := png.DecodeConfig(bytes.NewReader(body)); resp.StatusCode != 200 || err != nil || cfg.Width != 50 {
		t.Fatalf("served copy: %d %v %+v", resp.StatusCode, err, cfg)
	}

	if out, ok := sportsdb(t, dir, env, "media", "remove", path); !ok {
		t.Fatalf("media remove: %s", out)
	}
	if out, ok := sportsdb(t, dir, env, "media", "remove", path); ok || !strings.Contains(out, "no image at") {
		t.Fatalf("media remove again: ok=%v %s", ok, out)
	}
}
