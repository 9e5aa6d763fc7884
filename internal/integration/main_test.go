package integration

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/testsupport"
)

// demoNow pins the clock of every generated dataset and of the servers that compare answers,
// so "next" and "previous" mean the same on every backend and replica.
var demoNow = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

// run holds what the whole test run logged and every key it handed out, so TestMain can
// assert that no key reached any log.
var run struct {
	mu      sync.Mutex
	logs    []*testsupport.LogBuffer
	secrets []string
	// defaultLogs receives slog.Default, where nothing of a server's should arrive: it logs
	// through the logger it is given.
	defaultLogs testsupport.LogBuffer
	binDir      string
	binOnce     sync.Once
	bin         string
	binErr      error
}

func newLogBuffer() *testsupport.LogBuffer {
	l := &testsupport.LogBuffer{}
	run.mu.Lock()
	run.logs = append(run.logs, l)
	run.mu.Unlock()
	return l
}

func rememberSecret(key string) {
	run.mu.Lock()
	run.secrets = append(run.secrets, key)
	run.mu.Unlock()
}

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(&run.defaultLogs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	code := m.Run()
	for _, dir := range []string{run.binDir, demo.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	if leaks := keysInLogs(); len(leaks) > 0 {
		fmt.Fprintln(os.Stderr, "FAIL: API keys found in the logs of this run:")
		for _, l := range leaks {
			fmt.Fprintln(os.Stderr, "  "+l)
		}
		code = 1
	}
	os.Exit(code)
}

// keysInLogs returns the log lines, of every server and child process of the run, that hold
// a key handed out during the run. Keys are not printed, only where they were found.
func keysInLogs() []string {
	run.mu.Lock()
	defer run.mu.Unlock()
	var leaks []string
	bufs := append([]*testsupport.LogBuffer{&run.defaultLogs}, run.logs...)
	for i, b := range bufs {
		for _, line := range strings.Split(b.String(), "\n") {
			for _, k := range run.secrets {
				if strings.Contains(line, k) {
					leaks = append(leaks, fmt.Sprintf("log %d: a line of %d bytes holds a key", i, len(line)))
				}
			}
		}
	}
	return leaks
}

// moduleRoot is the folder of go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the test folder")
		}
		dir = parent
	}
}

// binary builds cmd/sportsdb once per run and returns its path.
func binary(t testing.TB) string {
	t.Helper()
	run.binOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			run.binErr = err
			return
		}
		dir, err := os.MkdirTemp("", "sportsdb-integration-")
		if err != nil {
			run.binErr = err
			return
		}
		run.binDir = dir
		run.bin = filepath.Join(dir, "sportsdb")
		cmd := exec.Command("go", "build", "-o", run.bin, "./cmd/sportsdb")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			run.binErr = fmt.Errorf("go build ./cmd/sportsdb: %w\n%s", err, out)
		}
	})
	if run.binErr != nil {
		t.Fatal(run.binErr)
	}
	return run.bin
}
