//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A folder the user may not write is named with "permission denied", not SQLite's
// "unable to open database file (14)". Running as another user takes root.
func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the binary as another user")
	}
	dir := t.TempDir()
	// The folders the test made below the system's temporary folder are made reachable by
	// the other user and writable by root only; the temporary folder itself is left as it
	// is (world-writable and sticky: made 0755, other users and programs could no longer
	// create their temporary files there).
	top := filepath.Clean(os.TempDir()) + string(filepath.Separator)
	for d := dir; strings.HasPrefix(d, top); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(binary, "gen")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "sportsdb.db: permission denied") || strings.Contains(string(out), "(14)") {
		t.Errorf("gen in a folder of root's: %v\n%s", err, out)
	}
}
