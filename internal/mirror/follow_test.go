package mirror

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
)

// stoppingClock is a fake clock that ends the crawl once it passes end.
type stoppingClock struct {
	*fakeClock
	end    time.Time
	cancel context.CancelFunc
}

func (c *stoppingClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := c.fakeClock.Sleep(ctx, d); err != nil {
		return err
	}
	if c.Now().After(c.end) {
		c.cancel()
		return context.Canceled
	}
	return nil
}

// TestFollowSchedule follows for a simulated day and a bit: live scores every 30 s while a
// game is in play and hourly when none is, next and previous events hourly, the rest daily.
func TestFollowSchedule(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	live := up.V2(t, "livescore/all").Body // a feed with games in play
	start := apitest.FixtureNow
	liveUntil := start.Add(10 * time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &stoppingClock{fakeClock: newFakeClock(), end: start.Add(26 * time.Hour), cancel: cancel}
	liveURL := "v2/livescore/" + testLeague
	var mu sync.Mutex
	p := newProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/api/v2/json/livescore/"+testLeague && clk.Now().Before(liveUntil) {
			w.Write(live)
			return
		}
		up.Server.ServeHTTP(w, r)
	}), clk, up.PremiumKey)
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Follow, opts.Rate = down.Store, true, 100000
	if _, err := Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	times := map[string][]time.Time{}
	for _, h := range p.log() {
		times[h.url] = append(times[h.url], h.at)
	}
	between := func(u string, i int) time.Duration { return times[u][i].Sub(times[u][i-1]) }

	lv := times[liveURL]
	if len(lv) < 20 {
		t.Fatalf("live scores asked %d times in 26 h", len(lv))
	}
	for i := 1; i < len(lv); i++ {
		want := freshLive
		if !lv[i-1].Before(liveUntil) {
			want = freshHourly // the last answer had no game in play
		}
		if got := between(liveURL, i); got < want || got > want+time.Second {
			t.Errorf("live scores asked again after %s at %s; want %s", got, lv[i].Format(time.TimeOnly), want)
		}
	}
	for u, want := range map[string]time.Duration{
		"v1/eventsnextleague.php?id=" + testLeague: freshHourly,
		"v1/eventspastleague.php?id=" + testLeague: freshHourly,
		"v1/lookupleague.php?id=" + testLeague:     freshDaily,
	} {
		if len(times[u]) < 2 {
			t.Errorf("%s asked %d times in 26 h", u, len(times[u]))
			continue
		}
		for i := 1; i < len(times[u]); i++ {
			if got := between(u, i); got < want || got > want+time.Second {
				t.Errorf("%s asked again after %s; want %s", u, got, want)
			}
		}
	}
}
