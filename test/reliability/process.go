package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// logBuf collects what a server writes on stdout and stderr: the access log and every other
// line, searched afterwards for keys and panics.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
	f   *os.File // a copy on disk, kept with -keep
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_, _ = l.f.Write(p)
	}
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// server is one running `sportsdb serve`.
type server struct {
	cmd  *exec.Cmd
	addr string // 127.0.0.1:port
	base string // http://127.0.0.1:port
	log  *logBuf
	done chan struct{}
	err  error // the exit, once done is closed
}

var listening = regexp.MustCompile(`sportsdb listening on http://(127\.0\.0\.1:\d+)`)

// cleanEnv is the suite's environment without SPORTSDB_ settings, so a developer's own
// configuration never changes what a check sees.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SPORTSDB_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// startServer runs `sportsdb serve` on a free loopback port with the given flags and waits
// until it listens. The server is stopped (SIGKILL at the latest) when ctx ends.
func startServer(ctx context.Context, cfg *config, name string, args ...string) (*server, error) {
	lf, err := os.Create(filepath.Join(cfg.work, name+".log"))
	if err != nil {
		return nil, fmt.Errorf("server log: %w", err)
	}
	s := &server{log: &logBuf{f: lf}, done: make(chan struct{})}
	full := append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)
	s.cmd = exec.Command(cfg.bin, full...)
	s.cmd.Env = cleanEnv()
	s.cmd.Dir = cfg.work // nothing a server writes lands in the checkout
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		lf.Close()
		return nil, fmt.Errorf("start sportsdb serve: %w", err)
	}
	cfg.mu.Lock()
	cfg.servers = append(cfg.servers, s)
	cfg.mu.Unlock()
	go func() {
		s.err = s.cmd.Wait()
		lf.Close()
		close(s.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.kill()
		case <-s.done:
		}
	}()
	deadline := time.After(30 * time.Second)
	for {
		if m := listening.FindStringSubmatch(s.log.String()); m != nil {
			s.addr, s.base = m[1], "http://"+m[1]
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("sportsdb serve %s exited before listening (%v): %s", strings.Join(args, " "), s.err, clipText(s.log.String(), 800))
		case <-deadline:
			s.kill()
			return nil, fmt.Errorf("sportsdb serve did not listen within 30s: %s", clipText(s.log.String(), 800))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// stop sends SIGTERM and waits up to 15 s for the exit, then kills.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.kill()
	}
}

// exited reports whether the process has ended.
func (s *server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// rssKiB is the resident memory of a process, from /proc.
func rssKiB(pid int) (int, error) { return procKiB(pid, "VmRSS") }

// cliResult is the outcome of one sportsdb command.
type cliResult struct {
	stdout, stderr string
	code           int // -1 when killed by a signal
}

// sportsdb runs one command of the binary to its end.
func sportsdb(ctx context.Context, cfg *config, args ...string) (cliResult, error) {
	cmd := exec.CommandContext(ctx, cfg.bin, args...)
	cmd.Env = cleanEnv()
	cmd.Dir = cfg.work
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := cliResult{stdout: out.String(), stderr: errb.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	default:
		return res, fmt.Errorf("run sportsdb %s: %w", strings.Join(args, " "), err)
	}
	return res, nil
}

// mustCLI runs a command that has to succeed and returns its standard output.
func mustCLI(ctx context.Context, cfg *config, args ...string) (string, error) {
	res, err := sportsdb(ctx, cfg, args...)
	if err != nil {
		return "", err
	}
	if res.code != 0 {
		return "", fmt.Errorf("sportsdb %s: exit %d: %s", strings.Join(args, " "), res.code, clipText(res.stderr, 600))
	}
	return res.stdout, nil
}

// addKey creates a key of a tier and returns it.
func addKey(ctx context.Context, cfg *config, db, tier string) (string, error) {
	out, err := mustCLI(ctx, cfg, "keys", "add", "--tier", tier, "--label", "reliability", "--db", db)
	if err != nil {
		return "", err
	}
	key := strings.TrimSpace(out)
	cfg.secret(key, tier+" key")
	return key, nil
}

// knowsFlag reports whether `sportsdb serve` has a flag, from its -h text.
func knowsFlag(ctx context.Context, cfg *config, name string) bool {
	res, err := sportsdb(ctx, cfg, "serve", "-h")
	if err != nil {
		return false
	}
	return strings.Contains(res.stderr+res.stdout, "-"+name+" ") || strings.Contains(res.stderr+res.stdout, "-"+name+"\n")
}

// fixture is a database with the demo dataset and a key of each tier.
type fixture struct {
	db                      string
	premium, free, business string
}

// demoDB makes a SQLite database with the demo dataset (through gen, so no key is printed
// anywhere a log search would find it) and a premium, a free and a business key.
func demoDB(ctx context.Context, cfg *config, name string) (*fixture, error) {
	db := filepath.Join(cfg.work, name+".db")
	return seedFixture(ctx, cfg, db)
}

// seedFixture fills a database (SQLite path or PostgreSQL URL) with the demo dataset and keys.
func seedFixture(ctx context.Context, cfg *config, db string) (*fixture, error) {
	if _, err := mustCLI(ctx, cfg, "gen", "--scale", "demo", "--db", db); err != nil {
		return nil, err
	}
	f := &fixture{db: db}
	for _, k := range []struct {
		tier string
		dst  *string
	}{{"premium", &f.premium}, {"free", &f.free}, {"business", &f.business}} {
		key, err := addKey(ctx, cfg, db, k.tier)
		if err != nil {
			return nil, err
		}
		*k.dst = key
	}
	return f, nil
}
