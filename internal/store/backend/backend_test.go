package backend

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A DSN of another scheme is refused by name, not opened as a file called "mysql:".
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		dsn  string
		want string // "" for accepted
	}{
		{"sportsdb.db", ""},
		{"data/x.db", ""},
		{"postgres://u@h/db", ""},
		{"postgresql://u@h/db", ""},
		{"mysql://u@h/db", `unknown database scheme "mysql"`},
		{"sqlite://x.db", `unknown database scheme "sqlite"`},
		{"", "want a SQLite file path or a postgres:// URL"},
	} {
		err := Check(c.dsn)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.dsn, err, c.want)
		}
	}
}

// SQLite's "unable to open database file" is explained: a missing directory is named.
func TestOpenExplains(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(context.Background(), filepath.Join(dir, "missing", "x.db"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing")+": no such directory") || strings.Contains(err.Error(), "(14)") {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := Open(context.Background(), "mysql://u@h/db"); err == nil || !strings.Contains(err.Error(), "unknown database scheme") {
		t.Errorf("mysql: %v", err)
	}
	if ok, err := Exists(filepath.Join(dir, "none.db")); ok || err != nil {
		t.Errorf("Exists of a missing file: %v %v", ok, err)
	}
}
