package mirror

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
)

func newTestFetcher(t *testing.T, p *proxy, key string, down *apitest.Env, clk Clock, rate int) *Fetcher {
	t.Helper()
	f, err := NewFetcher(FetcherOptions{From: p.srv.URL, Key: key, Store: down.Store, Clock: clk, Rate: rate})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// readThroughEnv is an upstream on the demo data behind a proxy, an empty local store and
// a Fetcher of the given budget between them.
func readThroughEnv(t *testing.T, rate int) (up *apitest.Env, clk *fakeClock, p *proxy, down *apitest.Env, f *Fetcher) {
	up = apitest.New(t, apitest.Options{Demo: true})
	clk = newFakeClock()
	p = newProxy(t, up.Server, clk, up.PremiumKey)
	down = apitest.New(t, apitest.Options{})
	return up, clk, p, down, newTestFetcher(t, p, up.PremiumKey, down, clk, rate)
}

func hitsOf(p *proxy, u string) int {
	n := 0
	for _, h := range p.log() {
		if h.url == u {
			n++
		}
	}
	return n
}

func TestReadThroughStoresAndServes(t *testing.T) {
	up, _, p, down, f := readThroughEnv(t, 0)
	ctx := context.Background()
	for _, c := range []struct{ version, path, frontier string }{
		{"v1", "lookupteam.php?id=133604", "v1/lookupteam.php?id=133604"},
		{"v1", "searchteams.php?t=Liverpool", "v1/searchteams.php?t=Liverpool"},
		{"v2", "lookup/player/34161934", "v2/lookup/player/34161934"},
	} {
		if before := ask(t, down, c.version, c.path); bytes.Equal(before.Body, ask(t, up, c.version, c.path).Body) {
			t.Fatalf("%s: the local answer equals the upstream's before read-through", c.path)
		}
		changed, err := f.Ensure(ctx, c.version, c.path)
		if err != nil || !changed {
			t.Fatalf("%s: changed %v, %v", c.path, changed, err)
		}
		a, b := ask(t, up, c.version, c.path), ask(t, down, c.version, c.path)
		if !bytes.Equal(a.Body, b.Body) {
			t.Errorf("%s: upstream %.200s\nlocal %.200s", c.path, a.Body, b.Body)
		}
		if changed, err := f.Ensure(ctx, c.version, c.path); changed || err != nil {
			t.Errorf("%s again: changed %v, %v", c.path, changed, err)
		}
		if n := hitsOf(p, c.frontier); n != 1 {
			t.Errorf("%s: the upstream was asked %d times", c.path, n)
		}
	}
}

// ask requests path as a client with the env's premium key.
func ask(t *testing.T, env *apitest.Env, version, path string) *apitest.Response {
	if version == "v1" {
		return env.V1(t, env.PremiumKey, path)
	}
	return env.V2(t, path)
}

func TestReadThroughOneRequestForConcurrentCallers(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	clk := newFakeClock()
	release := make(chan struct{})
	var once sync.Once
	p := newProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // every caller is waiting before the answer comes
		up.Server.ServeHTTP(w, r)
	}), clk, up.PremiumKey)
	down := apitest.New(t, apitest.Options{})
	f := newTestFetcher(t, p, up.PremiumKey, down, clk, 0)
	const callers = 20
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(callers)
	errs := make(chan error, callers)
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			_, err := f.Ensure(context.Background(), "v1", "lookupleague.php?id=4328")
			errs <- err
		}()
	}
	started.Wait()
	// The callers that have not joined the flight yet still find it or a fresh answer.
	for len(p.log()) == 0 {
		time.Sleep(time.Millisecond)
	}
	once.Do(func() { close(release) })
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := len(p.log()); n != 1 {
		t.Errorf("%d callers made %d upstream requests; want 1", callers, n)
	}
}

func TestReadThroughBudgetAndOutage(t *testing.T) {
	up, clk, p, _, f := readThroughEnv(t, 2)
	ctx := context.Background()
	for _, id := range []string{"133604", "133602"} {
		if _, err := f.Ensure(ctx, "v1", "lookupteam.php?id="+id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.Ensure(ctx, "v1", "lookupteam.php?id=134700"); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("third request within the budget of 2: %v; want ErrBudgetSpent", err)
	}
	if n := len(p.log()); n != 2 {
		t.Errorf("the upstream saw %d requests; want 2", n)
	}
	// A minute later a slot is free, but the upstream is down: an error, nothing stored.
	clk.Advance(time.Minute)
	p.faults = func(int, string) fault { return reset }
	changed, err := f.Ensure(ctx, "v1", "lookupteam.php?id=134700")
	if err == nil || changed {
		t.Errorf("upstream down: changed %v, %v; want an error", changed, err)
	}
	if err != nil && strings.Contains(err.Error(), up.PremiumKey) {
		t.Errorf("the error shows the key: %v", err)
	}
}

func TestReadThroughRefreshesLiveScores(t *testing.T) {
	_, clk, p, _, f := readThroughEnv(t, 0)
	ctx := context.Background()
	const u = "v2/livescore/all"
	for _, step := range []struct {
		advance time.Duration
		hits    int
	}{{0, 1}, {10 * time.Second, 1}, {25 * time.Second, 2}, {5 * time.Second, 2}, {30 * time.Second, 3}} {
		clk.Advance(step.advance)
		if _, err := f.Ensure(ctx, "v2", "livescore/all"); err != nil {
			t.Fatal(err)
		}
		if n := hitsOf(p, u); n != step.hits {
			t.Errorf("after %s more: %d upstream requests; want %d", step.advance, n, step.hits)
		}
	}
}
