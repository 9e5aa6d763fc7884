//go:build unix

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// importChildEnv names the database a re-executed test binary imports one record into.
const importChildEnv = "SPORTSDB_TEST_IMPORT_CHILD"

// TestImportChild is the other process of TestReadsBesideImportsByOtherProcesses: it opens
// the file and imports one record the way `sportsdb import` does, then exits.
func TestImportChild(t *testing.T) {
	db := os.Getenv(importChildEnv)
	if db == "" {
		t.Skip("run as a child process only")
	}
	if !walIndexHeld(t, db) {
		// Said to the parent, which goes on to count the reads that fail because of it.
		fmt.Println(notHeld)
	}
	if os.Getenv(checkOnlyEnv) != "" {
		return
	}
	ctx := context.Background()
	st, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	file := filepath.Join(filepath.Dir(db), "one-"+strconv.Itoa(os.Getpid())+".ndjson")
	line := fmt.Sprintf(`{"idTeam":"%d","strTeam":"Imported %d","idLeague":"4328"}`+"\n", os.Getpid(), os.Getpid())
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(file)
	if _, err := ingest.Import(ctx, st, []string{file}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
}

// checkOnlyEnv makes the child only look at the lock (walIndexHeld), without importing.
const checkOnlyEnv = "SPORTSDB_TEST_CHECK_ONLY"

// notHeld is what a child prints when no process held the WAL index open as it started.
const notHeld = "WAL index not held open by the server"

// walIndexHeld says whether a process holds SQLite's "WAL index open" lock on the database's
// -shm file: a read lock on its DMS byte, which SQLite takes on opening the file and keeps
// while a connection of the process has it open. Asked from a process with no connection.
func walIndexHeld(t *testing.T, db string) bool {
	t.Helper()
	f, err := os.Open(db + "-shm")
	if errors.Is(err, os.ErrNotExist) {
		return false // the last connection to close removes it
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const dmsByte = 128 // UNIX_SHM_DMS in SQLite's os_unix.c
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: dmsByte, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		t.Fatal(err)
	}
	return lk.Type != syscall.F_UNLCK
}

// Imports by another process are the documented way to load data into a running server:
// reads of the server's store beside them never fail. Each import opens the file anew,
// so it meets the server's hold on the WAL index; readers touch that index all the time.
func TestReadsBesideImportsByOtherProcesses(t *testing.T) {
	if os.Getenv(importChildEnv) != "" {
		t.Skip("in a child process")
	}
	if testing.Short() {
		t.Skip("starts other processes")
	}
	path := filepath.Join(t.TempDir(), "served.db")
	ctx := context.Background()
	s := openAt(t, path)
	if err := s.Write(ctx, func(tx store.Tx) error { return upsertTeams(ctx, tx, 0, 200, "4328") }); err != nil {
		t.Fatal(err)
	}
	first, err := s.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// A process under the race detector starts slowly: fewer imports, each beside more reads.
	imports := 30
	if raceEnabled {
		imports = 12
	}
	var (
		stop   atomic.Bool
		reads  atomic.Int64
		failed atomic.Int64
		mu     sync.Mutex
		errs   []error
		wg     sync.WaitGroup
		unheld int
	)
	fail := func(err error) {
		failed.Add(1)
		mu.Lock()
		if len(errs) < 5 {
			errs = append(errs, err)
		}
		mu.Unlock()
	}
	for g := range 3 {
		wg.Go(func() {
			for i := g; !stop.Load(); i++ {
				if err := serveOnce(ctx, s, i); err != nil {
					fail(err)
				}
				reads.Add(1)
			}
		})
	}
	for i := range imports {
		out, err := runChild(path)
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("import %d: %v\n%s", i, err, out)
		}
		if strings.Contains(string(out), notHeld) {
			unheld++
		}
	}
	stop.Store(true)
	wg.Wait()

	// Without the server's hold, each import takes itself for the first process on the file
	// and rebuilds the -shm file under the server's readers.
	if unheld > 0 {
		t.Errorf("%d of %d imports found no process holding the WAL index open while the server's store was open", unheld, imports)
	}
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of %d reads failed beside %d imports by other processes; first: %v", n, reads.Load(), imports, errors.Join(errs...))
	}
	last, err := s.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last == first {
		t.Fatal("the data version did not move: the imports did not land")
	}
	n, err := s.Count(ctx, record.Team)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(200+imports) {
		t.Fatalf("%d teams after %d imports of one team into 200, want %d", n, imports, 200+imports)
	}
	t.Logf("%d reads beside %d imports", reads.Load(), imports)
}

// serveOnce reads what an API request reads: the data version, then a search and a lookup.
func serveOnce(ctx context.Context, s *Store, i int) error {
	if _, err := s.DataVersion(ctx); err != nil {
		return err
	}
	q := store.Query{Kind: record.Team, Where: []store.Cond{{Field: "strTeam", Norm: record.Name, Op: store.Eq, Value: "Team " + strconv.Itoa(i%200)}}}
	if _, err := s.Find(ctx, q); err != nil {
		return err
	}
	if _, err := s.Get(ctx, record.Team, strconv.Itoa(i%200)); err != nil {
		return err
	}
	return nil
}

// runChild runs TestImportChild in another process on the database at path.
func runChild(path string, env ...string) ([]byte, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestImportChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), importChildEnv+"="+path), env...)
	return cmd.CombinedOutput()
}

// Two stores of one process on one file share the process's locks on the -shm file: closing
// one leaves the other's in place, and the last one lets them go.
func TestClosingOneStoreKeepsTheOthersLocks(t *testing.T) {
	if os.Getenv(importChildEnv) != "" {
		t.Skip("in a child process")
	}
	path := filepath.Join(t.TempDir(), "two.db")
	ctx := context.Background()
	held := func() bool {
		t.Helper()
		out, err := runChild(path, checkOnlyEnv+"=1")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return !strings.Contains(string(out), notHeld)
	}
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.DataVersion(ctx); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	if !held() {
		t.Fatal("two stores open: no process holds the WAL index open")
	}
	if err := stores[0].Close(); err != nil {
		t.Fatal(err)
	}
	if !held() {
		t.Fatal("one store closed, one open: no process holds the WAL index open")
	}
	if _, err := stores[1].DataVersion(ctx); err != nil {
		t.Fatal(err)
	}
	if err := stores[1].Close(); err != nil {
		t.Fatal(err)
	}
	if held() {
		t.Fatal("both stores closed: the WAL index is still held open")
	}
}
