// Command reliability is sportsdb's reliability suite: it builds (or takes) a sportsdb binary
// and tests it from outside, as a client and an operator would: hostile requests on every
// surface, hostile import files, SIGKILL during import on SQLite and PostgreSQL, SIGKILL of a
// server delivering webhooks and publishing to MQTT, a soak with
// imports beside load, PostgreSQL and Redis cut behind a TCP proxy of its own, SIGTERM under
// load, and the client-address and rate-limit rules. Every check passes or fails; the run ends
// with its figures and a line "N passed, N failed", and exits non-zero when any check failed.
//
//	go run ./test/reliability -short     # what CI runs, well under 5 minutes
//	go run ./test/reliability            # the long form (5-minute soak, more kills)
//
// Everything listens on 127.0.0.1. PostgreSQL, Redis and an MQTT broker come from
// SPORTSDB_TEST_POSTGRES, SPORTSDB_TEST_REDIS and SPORTSDB_TEST_MQTT; without them their
// checks are skipped, except under CI=true, where their absence is a failure.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// config is what one run is given.
type config struct {
	bin      string // the sportsdb binary under test
	work     string // a directory of the run's own, removed at the end
	short    bool
	pg       string // SPORTSDB_TEST_POSTGRES, "" when absent
	redis    string // SPORTSDB_TEST_REDIS, "" when absent
	mqtt     string // SPORTSDB_TEST_MQTT, "" when absent
	ci       bool
	only     string // run only the checks whose name holds this
	keepWork bool
	soak     time.Duration // overrides the soak's length when set
	workers  int           // overrides the number of load workers when set
	rng      *rand.Rand
	env      *sharedEnv // the hostile-request server, started by the first check that needs it
	envErr   error

	mu      sync.Mutex
	servers []*server         // every server started, whose logs the last check searches
	secrets map[string]string // every key the suite sent, and what it is
}

// secret records a key the suite sends, so the last check can search every log for it.
func (cfg *config) secret(key, what string) {
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	cfg.secrets[key] = what
}

func main() {
	os.Exit(run())
}

func run() int {
	short := flag.Bool("short", os.Getenv("SHORT") == "1", "the short form CI runs (also SHORT=1)")
	bin := flag.String("bin", "", "sportsdb binary to test (default: built from ./cmd/sportsdb)")
	only := flag.String("run", "", "run only the checks whose name contains this")
	keep := flag.Bool("keep", false, "keep the work directory (databases, server logs) for inspection")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the random choices (kill points, names)")
	soak := flag.Duration("soak", 0, "length of the soak (default 30s short, 5m long)")
	workers := flag.Int("workers", 0, "load workers of the soak (default 16)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	work, err := os.MkdirTemp("", "sportsdb-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		return 2
	}
	cfg := &config{work: work, short: *short, pg: os.Getenv("SPORTSDB_TEST_POSTGRES"),
		redis: os.Getenv("SPORTSDB_TEST_REDIS"), mqtt: os.Getenv("SPORTSDB_TEST_MQTT"), ci: os.Getenv("CI") == "true", only: *only,
		keepWork: *keep, secrets: map[string]string{}, rng: rand.New(rand.NewPCG(*seed, 15))}
	defer func() {
		cfg.closeShared()
		cfg.mu.Lock()
		for _, s := range cfg.servers {
			if !s.exited() {
				s.kill()
			}
		}
		cfg.mu.Unlock()
		if cfg.keepWork {
			fmt.Println("work directory kept:", work)
			return
		}
		os.RemoveAll(work)
	}()
	cfg.bin, cfg.soak, cfg.workers = *bin, *soak, *workers
	if cfg.bin == "" {
		if cfg.bin, err = build(ctx, work); err != nil {
			fmt.Fprintln(os.Stderr, "reliability:", err)
			return 2
		}
	}
	// Commands run in the work directory, so a relative -bin is made absolute first.
	if cfg.bin, err = filepath.Abs(cfg.bin); err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		return 2
	}
	form := "long"
	if cfg.short {
		form = "short"
	}
	fmt.Printf("sportsdb reliability suite, %s form, seed %d, binary %s\n", form, *seed, cfg.bin)
	r := newReport()
	for _, c := range checks() {
		if cfg.only != "" && !strings.Contains(c.name, cfg.only) {
			continue
		}
		r.run(ctx, cfg, c)
	}
	return r.finish()
}

// build compiles the binary under test from the module this suite lives in.
func build(ctx context.Context, work string) (string, error) {
	out := filepath.Join(work, "sportsdb")
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/sportsdb")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build sportsdb: %w", err)
	}
	return out, nil
}

// moduleRoot is the directory of go.mod, found upwards from the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory; give -bin")
		}
		dir = parent
	}
}

// checks are every check of the suite, in the order they run: quick ones first.
func checks() []check {
	return []check{
		{name: "hostile/v1", timeout: 2 * time.Minute, fn: checkHostileV1},
		{name: "hostile/v2", timeout: 2 * time.Minute, fn: checkHostileV2},
		{name: "hostile/headers", timeout: 2 * time.Minute, fn: checkHostileHeaders},
		{name: "hostile/raw-protocol", timeout: 2 * time.Minute, fn: checkHostileRaw},
		{name: "hostile/slowloris", timeout: time.Minute, fn: checkSlowloris},
		{name: "metrics/bounded-labels", timeout: time.Minute, fn: checkMetricsBounded},
		{name: "log/no-keys-no-panics", timeout: time.Minute, fn: checkLogNoKeys},
		{name: "guard/forged-forwarded-for", timeout: time.Minute, fn: checkForgedXFF},
		{name: "guard/valid-key-after-wrong-keys", timeout: time.Minute, fn: checkValidAfterWrong},
		{name: "ratelimit/refused-v2-costs-nothing", timeout: time.Minute, fn: checkRefusedFree},
		{name: "import/hostile-files", timeout: 3 * time.Minute, fn: checkHostileImports},
		{name: "import/sigkill-sqlite", timeout: 5 * time.Minute, fn: checkKillSQLite},
		{name: "import/sigkill-postgres", timeout: 5 * time.Minute, fn: checkKillPostgres, needs: needPG},
		{name: "push/sigkill-sqlite", timeout: 5 * time.Minute, fn: checkPushKillSQLite},
		{name: "push/sigkill-postgres", timeout: 5 * time.Minute, fn: checkPushKillPostgres, needs: needPG},
		{name: "soak/imports-beside-load", timeout: 10 * time.Minute, fn: checkSoak},
		{name: "outage/postgres-hang", timeout: 3 * time.Minute, fn: checkPostgresHang, needs: needPG},
		{name: "outage/redis-two-replicas", timeout: 4 * time.Minute, fn: checkRedisOutage, needs: needRedis},
		{name: "sigterm/drain-under-load", timeout: 3 * time.Minute, fn: checkDrain},
		{name: "upstream/redirect-keeps-key", timeout: 2 * time.Minute, fn: checkUpstreamRedirect},
		{name: "upstream/budget-across-sigkill", timeout: 2 * time.Minute, fn: checkUpstreamBudgetKill},
		{name: "upstream/all-failed-first-run", timeout: 2 * time.Minute, fn: checkUpstreamAllFailed},
		{name: "upstream/poisoned-read-through", timeout: 2 * time.Minute, fn: checkUpstreamPoison},
		{name: "upstream/memory-hostile-bodies", timeout: 2 * time.Minute, fn: checkUpstreamMemory},
		{name: "upstream/retry-after", timeout: 2 * time.Minute, fn: checkUpstreamRetryAfter},
		{name: "streams/revoked-key-ends-streams", timeout: time.Minute, fn: checkRevokedStreams},
		{name: "changes/bad-parameters", timeout: time.Minute, fn: checkBadLiveParameters},
		{name: "streams/malformed-paths", timeout: time.Minute, fn: checkMalformedStreamPaths},
		{name: "start/ready-after-warm-up", timeout: time.Minute, fn: checkReadyAfterWarmUp},
		{name: "log/every-server", timeout: time.Minute, fn: checkEveryLog},
	}
}
