package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func checkKillSQLite(ctx context.Context, cfg *config, t *T) {
	fx, err := demoDB(ctx, cfg, "kill")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	killDuringImport(ctx, cfg, t, fx, "kill-sqlite")
}

func checkKillPostgres(ctx context.Context, cfg *config, t *T) {
	fx, drop, err := pgFixture(ctx, cfg)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer drop()
	killDuringImport(ctx, cfg, t, fx, "kill-postgres")
}

// killDuringImport imports large files of new teams while a server serves the database, and
// kills the import with SIGKILL at random moments: afterwards the store holds each file
// whole or not at all, and the server answers.
func killDuringImport(ctx context.Context, cfg *config, t *T, fx *fixture, name string) {
	records, kills := 20000, 3
	if !cfg.short {
		records, kills = 100000, 12
	}
	srv, err := startServer(ctx, cfg, name, "--db", fx.db)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer srv.stop()
	// A first run to the end gives the length of an import, for choosing kill moments.
	start := time.Now()
	if _, err := mustCLI(ctx, cfg, "import", "--db", fx.db, bigFile(cfg, 0, records)); err != nil {
		t.Fail("an import without kill failed: %v", err)
		return
	}
	full := time.Since(start)
	if n, err := countKill(ctx, cfg, fx.db, 0); err != nil || n != records {
		t.Fail("after a whole import the store holds %d of %d records (%v)", n, records, err)
	}
	states := map[string]int{}
	for i := 1; i <= kills; i++ {
		at := time.Duration(float64(full) * (0.15 + 0.8*cfg.rng.Float64()))
		finished, err := importAndKill(ctx, cfg, fx.db, bigFile(cfg, i, records), at)
		if err != nil {
			t.Fail("kill %d: %v", i, err)
			return
		}
		n, err := countKill(ctx, cfg, fx.db, i)
		switch {
		case err != nil:
			t.Fail("kill %d: count: %v", i, err)
		case finished:
			states["ended before the kill"]++
		case n == 0:
			states["none"]++
		case n == records:
			states["all"]++
		default:
			states["mixed"]++
			t.Fail("kill %d at %s: the store holds %d of %d records of the killed import", i, at.Round(time.Millisecond), n, records)
		}
		if a, err := rawExchange(srv.addr, request("/api/v1/json/"+fx.premium+"/lookupteam.php?id=133604"), 10*time.Second); err != nil || a.status != 200 {
			t.Fail("after kill %d the server answers %d, %v", i, a.status, err)
		}
	}
	// And the store takes an import after all that.
	if _, err := mustCLI(ctx, cfg, "import", "--db", fx.db, bigFile(cfg, kills+1, 100)); err != nil {
		t.Fail("an import after the kills failed: %v", err)
	}
	t.Figure("records per import", "%d", records)
	t.Figure("a whole import took", "%.2fs", full.Seconds())
	t.Figure("kills", "%d: %v", kills, states)
}

// bigFile writes an NDJSON file of new teams for attempt n, with ids of its own.
func bigFile(cfg *config, n, records int) string {
	p := filepath.Join(cfg.work, fmt.Sprintf("kill-%d.ndjson", n))
	f, err := os.Create(p)
	if err != nil {
		return p // the import names the missing file
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for i := 0; i < records; i++ {
		fmt.Fprintln(w, team(fmt.Sprint(20000000+n*1000000+i), fmt.Sprintf("RelKill a%d n%d", n, i)))
	}
	_ = w.Flush()
	return p
}

// importAndKill starts an import and sends SIGKILL after at; finished says it ended first.
func importAndKill(ctx context.Context, cfg *config, db, file string, at time.Duration) (finished bool, err error) {
	cmd := exec.CommandContext(ctx, cfg.bin, "import", "--db", db, file)
	cmd.Env = cleanEnv()
	cmd.Dir = cfg.work
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("start import: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return true, fmt.Errorf("import ended with %w before the kill", err)
		}
		return true, nil
	case <-time.After(at):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
	return false, nil
}

// countKill counts the teams of attempt n in the store, from an export (what the store
// holds, not what a cache may serve).
func countKill(ctx context.Context, cfg *config, db string, n int) (int, error) {
	dir, err := os.MkdirTemp(cfg.work, "export-")
	if err != nil {
		return 0, fmt.Errorf("export dir: %w", err)
	}
	defer os.RemoveAll(dir)
	if _, err := mustCLI(ctx, cfg, "export", "--db", db, dir); err != nil {
		return 0, err
	}
	f, err := os.Open(filepath.Join(dir, "team.ndjson"))
	if err != nil {
		return 0, fmt.Errorf("exported teams: %w", err)
	}
	defer f.Close()
	marker := fmt.Sprintf(`"RelKill a%d n`, n)
	count := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), marker) {
			count++
		}
	}
	return count, sc.Err()
}
