package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --caps takes a built-in profile's name or a readable caps file; the default is the
// documented profile, and anything else is refused naming the profiles.
func TestCapsOption(t *testing.T) {
	file := filepath.Join(t.TempDir(), "caps.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		env  Env
		want string
	}{
		{nil, env(), "documented"},
		{[]string{"--caps", "measured"}, env(), "measured"},
		{[]string{"--caps=documented"}, env(), "documented"},
		{nil, env("SPORTSDB_CAPS", "measured"), "measured"},
		{[]string{"--caps", file}, env(), file},
	} {
		cfg, _, err := Load("serve", c.args, c.env)
		if err != nil {
			t.Errorf("%q %v: %v", c.args, c.env, err)
			continue
		}
		if cfg.Caps != c.want {
			t.Errorf("%q %v: caps %q, want %q", c.args, c.env, cfg.Caps, c.want)
		}
	}
	_, _, err := Load("serve", []string{"--caps", "measure"}, env())
	if err == nil || !strings.Contains(err.Error(), "documented, measured") {
		t.Errorf("--caps measure: error %v, want one naming the profiles", err)
	}
}
