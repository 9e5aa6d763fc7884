package mirror

import (
	"context"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

// TestKillChild is the crawl the kill test runs in a process of its own, and kills.
func TestKillChild(t *testing.T) {
	db := os.Getenv("MIRROR_CHILD_DB")
	if db == "" {
		t.Skip("run by TestKilledAndResumed")
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = Run(context.Background(), Options{From: os.Getenv("MIRROR_CHILD_FROM"), Key: os.Getenv("MIRROR_CHILD_KEY"),
		Store: st, Leagues: []string{testLeague}, Seasons: 1, Rate: 100000, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
}

// TestKilledAndResumed kills a crawl with SIGKILL at random points, runs it again to the
// end, and compares with a crawl that was never killed: nothing lost, and no request that
// succeeded asked again (but the few in flight at each kill).
func TestKilledAndResumed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	up := apitest.New(t, apitest.Options{Demo: true})
	p := newProxy(t, up.Server, clock.System{}, up.PremiumKey)
	db := filepath.Join(t.TempDir(), "mirror.db")

	var mu sync.Mutex
	var child *exec.Cmd
	killAt := -1
	p.faults = func(n int, _ string) fault {
		mu.Lock()
		defer mu.Unlock()
		if n == killAt && child != nil {
			child.Process.Kill()
		}
		return pass
	}
	run := func(kill int) error {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MIRROR_CHILD_DB="+db, "MIRROR_CHILD_FROM="+p.srv.URL, "MIRROR_CHILD_KEY="+up.PremiumKey)
		mu.Lock()
		err := cmd.Start()
		child, killAt = cmd, kill
		mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		return cmd.Wait()
	}
	const kills = 4
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 19))
	for range kills {
		at := len(p.log()) + 1 + rng.IntN(60)
		if err := run(at); err == nil {
			t.Fatalf("the crawl ended before request %d: kill earlier", at)
		}
	}
	if err := run(-1); err != nil {
		t.Fatalf("the last run failed: %v", err)
	}
	repeated := 0
	answered := map[string]int{}
	for _, h := range p.log() {
		if h.status == http.StatusOK {
			answered[h.url]++
			if answered[h.url] > 1 {
				repeated++
			}
		}
	}
	t.Logf("%d requests, %d answered twice", len(p.log()), repeated)
	// At most the requests in flight when each kill came (4 workers) are asked again.
	if repeated > kills*4 {
		t.Errorf("%d successful requests repeated after %d kills", repeated, kills)
	}

	killed, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer killed.Close()
	clean := apitest.New(t, apitest.Options{})
	opts := Options{From: p.srv.URL, Key: up.PremiumKey, Store: clean.Store, Leagues: []string{testLeague}, Seasons: 1, Rate: 100000}
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, k := range record.Kinds {
		if a, b := dump(t, clean.Store, k), dump(t, killed, k); !equalStrings(a, b) {
			t.Errorf("%s: a crawl never killed stored %d records, the killed one %d (or other values)", k.Name, len(a), len(b))
		}
	}
	if a, b := len(frontier(t, clean.Store)), len(frontier(t, killed)); a != b {
		t.Errorf("frontier: %d entries never killed, %d killed", a, b)
	}
}

// dump lists a kind's records as text, sorted.
func dump(t *testing.T, st store.Store, k *record.Kind) []string {
	var out []string
	err := st.Scan(context.Background(), k, func(r record.Record) error {
		s := ""
		for _, f := range k.Fields {
			s += r.Str(f) + "\x00"
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
