package mirror

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/store/sqlite"
)

// announcing is the real clock, saying on stdout when it waits long: the child's sign that
// it waits for its budget.
type announcing struct{ SystemClock }

func (a announcing) Sleep(ctx context.Context, d time.Duration) error {
	if d >= 5*time.Second {
		fmt.Println("waiting for the budget")
	}
	return a.SystemClock.Sleep(ctx, d)
}

// TestBudgetKillChild is the mirror TestBudgetSurvivesKill runs in a process of its own.
func TestBudgetKillChild(t *testing.T) {
	db := os.Getenv("MIRROR_BUDGET_DB")
	if db == "" {
		t.Skip("run by TestBudgetSurvivesKill")
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	Run(context.Background(), Options{From: os.Getenv("MIRROR_BUDGET_FROM"), Key: os.Getenv("MIRROR_BUDGET_KEY"),
		Store: st, Leagues: []string{testLeague}, Rate: budgetKillRate, Clock: announcing{}})
}

const budgetKillRate = 20

// TestBudgetSurvivesKill runs `mirror --rate 20` as a child, kills it with SIGKILL after a
// few requests and starts it again at once, three times, then lets the fourth run go until
// it waits for its budget: the upstream's own count of any 60 s is at most 20.
func TestBudgetSurvivesKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	up := apitest.New(t, apitest.Options{Demo: true})
	p := newProxy(t, up.Server, clock.System{}, up.PremiumKey)
	db := filepath.Join(t.TempDir(), "mirror.db")
	var mu sync.Mutex
	var child *exec.Cmd
	killAt := -1
	p.arrive = func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if n == killAt && child != nil {
			child.Process.Kill()
		}
	}
	for run := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBudgetKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MIRROR_BUDGET_DB="+db, "MIRROR_BUDGET_FROM="+p.srv.URL, "MIRROR_BUDGET_KEY="+up.PremiumKey)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		child, killAt = cmd, -1
		if run < 3 {
			killAt = len(p.log()) + 7
		}
		err = cmd.Start()
		mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		// Killed at its 7th request, or waiting for the budget (then killed here).
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "waiting for the budget") {
				cmd.Process.Kill()
				break
			}
		}
		cmd.Wait()
	}
	hits := p.log()
	most := 0
	for i := range hits {
		n := 0
		for j := i; j < len(hits) && hits[j].at.Sub(hits[i].at) < 60*time.Second; j++ {
			n++
		}
		most = max(most, n)
	}
	t.Logf("%d requests, at most %d in 60 s", len(hits), most)
	if most > budgetKillRate {
		t.Errorf("the upstream saw %d requests within 60 s from a mirror of --rate %d killed three times", most, budgetKillRate)
	}
}

// TestMemoryChild is the read-through TestMemoryUnderHostileBodies measures.
func TestMemoryChild(t *testing.T) {
	from := os.Getenv("MIRROR_MEMORY_FROM")
	if from == "" {
		t.Skip("run by TestMemoryUnderHostileBodies")
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := NewFetcher(FetcherOptions{From: from, Key: hostileKey, Store: st, Rate: 100000, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() { f.Ensure(context.Background(), "v1", "lookupteam.php?id="+strconv.Itoa(i)) })
	}
	wg.Wait()
	fmt.Println("done")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// TestMemoryUnderHostileBodies sends 16 concurrent read-throughs answered with 200 MB bodies
// and gzip bombs: the child's peak RSS (VmHWM of /proc/<pid>/status) stays bounded, since the
// bytes in flight are, not only each answer's.
func TestMemoryUnderHostileBodies(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc")
	}
	chunk := []byte(strings.Repeat("a", 1<<20))
	// A gzip bomb of members: the 1 MiB member compressed once and sent 200 times, as
	// decompressors read one member after another.
	member := func(b []byte) string {
		var out strings.Builder
		zw := gzip.NewWriter(&out)
		zw.Write(b)
		zw.Close()
		return out.String()
	}
	bomb := []byte(member([]byte(`{"teams":[{"idTeam":"1","strTeam":"`)) + strings.Repeat(member(chunk), 200) + member([]byte(`"}]}`)))
	up := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.URL.Query().Get("id"))
		if id%2 == 0 {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
			return
		}
		w.Write([]byte(`{"teams":[{"idTeam":"1","strTeam":"`))
		for range 200 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MIRROR_MEMORY_FROM="+up.srv.URL)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "done" {
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var peakKB int
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			peakKB, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	t.Logf("peak RSS %d MB for 16 concurrent hostile answers", peakKB>>10)
	// The race detector's shadow memory grows with the memory it watches.
	bound := 400 << 10
	if raceEnabled {
		bound *= 4
	}
	if peakKB == 0 || peakKB > bound {
		t.Errorf("peak RSS %d kB: want under %d MB", peakKB, bound>>10)
	}
}
