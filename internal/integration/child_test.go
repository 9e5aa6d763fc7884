package integration

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv is the environment of a child process: this one's, less every SPORTSDB_ setting,
// plus the given ones, so the machine's settings do not leak into a test.
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SPORTSDB_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// cli runs one sportsdb command to its end and returns its standard output. Its standard
// error goes to the test's logs.
func (h *harness) cli(env []string, args ...string) string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(h.t), args...)
	cmd.Env = childEnv(env...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = h.logs
	if err := cmd.Run(); err != nil {
		h.t.Fatalf("sportsdb %s: %v (its output is in the test logs)", args[0], err)
	}
	return stdout.String()
}

// child is a `sportsdb serve` process.
type child struct {
	url string
	cmd *exec.Cmd
}

// serve starts `sportsdb serve` on a free loopback port and waits until it listens. The
// process is stopped (SIGTERM, then SIGKILL) when the test ends.
func (h *harness) serve(env []string, args ...string) *child {
	h.t.Helper()
	cmd := exec.Command(binary(h.t), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = childEnv(env...)
	cmd.Stderr = h.logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		h.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		h.t.Fatalf("start sportsdb serve: %v", err)
	}
	exited := make(chan struct{})
	h.t.Cleanup(func() { stopChild(h.t, cmd, exited) })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "sportsdb listening on "); ok {
				addr <- a
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case a := <-addr:
		return &child{url: a, cmd: cmd}
	case <-exited:
		h.t.Fatalf("sportsdb serve exited before listening (its output is in the test logs)")
	case <-time.After(30 * time.Second):
		h.t.Fatalf("sportsdb serve did not listen within 30 s")
	}
	return nil
}

func stopChild(t testing.TB, cmd *exec.Cmd, exited chan struct{}) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		t.Errorf("sportsdb serve (pid %d) did not stop on SIGTERM; killing it", cmd.Process.Pid)
		_ = cmd.Process.Kill()
		<-exited
	}
}
