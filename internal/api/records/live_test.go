package records_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/api/records"
	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

const (
	eventPath = "/api/v2/json/records/event/9200001"
	livePath  = "/api/v2/json/records/livescore/9200001"
)

// newLiveEnv is newEnv on a manual clock at apitest.FixtureNow.
func newLiveEnv(t *testing.T) (*env, *clock.Manual) {
	t.Helper()
	clk := clock.NewManual(apitest.FixtureNow)
	e := apitest.New(t, apitest.Options{Clock: clk})
	return &env{Env: e, editor: e.AddKey(t, store.Business, store.Editor), admin: e.AddKey(t, store.Free, store.Admin)}, clk
}

// The entry of an in-play event, as the public service's live score answers hold one (its
// slashes escaped as it writes them).
const liveEntry = `{"record":{"idLiveScore":"9200001","idEvent":"9200001","strSport":"Soccer","idLeague":"9100001",` +
	`"strLeague":"Riverside League","intDivision":"4","idHomeTeam":"9000001","idAwayTeam":"9000002",` +
	`"strHomeTeam":"Riverside FC","strAwayTeam":"Hillside United","strHomeTeamBadge":"https:\/\/img.example\/9000001.png",` +
	`"strAwayTeamBadge":"https:\/\/img.example\/9000002.png","intHomeScore":"0","intAwayScore":"0","strStatus":"1H",` +
	`"strProgress":"12","strTimestamp":"2026-10-10T19:45:00","strEventTime":"19:45","dateEvent":"2026-10-10",` +
	`"updated":"2026-10-05 20:05:00"}}`

// An in-play write creates the event's live score entry, in the public shape, seen at once
// in v1 livescore.php, v2 livescore/... and the feed; a score change updates it, with the
// time of the write; full time keeps its final state for two hours, then the sweep deletes
// it, once, however many replicas sweep.
func TestLiveScoreKept(t *testing.T) {
	e, clk := newLiveEnv(t)
	ctx := context.Background()
	// Fill the response cache before the write.
	e.V1(t, e.PremiumKey, "livescore.php?s=Soccer")
	e.V2(t, "livescore/Soccer")
	e.fixture(t, fixtureEvent)
	want(t, "no entry before kick-off", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")

	want(t, "kick-off", e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"1H","intHomeScore":"0","intAwayScore":"0","strProgress":"12"}`), 200, "")
	want(t, "entry", e.Get(t, livePath, "X-API-KEY", e.editor), 200, liveEntry)
	for what, r := range map[string]*apitest.Response{"v1": e.V1(t, e.PremiumKey, "livescore.php?s=Soccer"),
		"v2": e.V2(t, "livescore/Soccer"), "v2 league": e.V2(t, "livescore/9100001")} {
		if !strings.Contains(string(r.Body), `"idLiveScore":"9200001","idEvent":"9200001"`) || !strings.Contains(string(r.Body), `"strProgress":"12"`) {
			t.Errorf("%s live scores: %s", what, r.Body)
		}
	}

	clk.Advance(time.Minute)
	want(t, "goal", e.send(t, "PATCH", eventPath, e.editor, `{"intHomeScore":"1","strProgress":"27"}`), 200, "")
	got := recordOf(t, e.Get(t, livePath, "X-API-KEY", e.editor).Body)
	wantFields(t, "after the goal", got, map[string]any{"intHomeScore": "1", "strProgress": "27", "updated": "2026-10-05 20:06:00"})
	if r := e.V1(t, e.PremiumKey, "livescore.php?s=Soccer"); !strings.Contains(string(r.Body), `"intHomeScore":"1","intAwayScore":"0","strStatus":"1H","strProgress":"27"`) {
		t.Errorf("v1 after the goal: %s", r.Body)
	}
	// Without strProgress, the entry keeps its minute.
	want(t, "half time", e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"HT"}`), 200, "")
	wantFields(t, "half time", recordOf(t, e.Get(t, livePath, "X-API-KEY", e.editor).Body), map[string]any{"strStatus": "HT", "strProgress": "27"})

	clk.Advance(time.Hour)
	want(t, "full time", e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"FT","intAwayScore":"2","strProgress":"90+4"}`), 200, "")
	final := e.Get(t, livePath, "X-API-KEY", e.editor).Body
	wantFields(t, "full time", recordOf(t, final), map[string]any{"strStatus": "FT", "intAwayScore": "2", "strProgress": "90+4", "updated": "2026-10-05 21:06:00"})

	clk.Advance(records.LiveKept - time.Second)
	replica := e.Replica(t)
	for _, st := range []store.Store{e.Store, replica.Store} {
		if n, err := records.Sweep(ctx, st, clk.Now()); err != nil || n != 0 {
			t.Fatalf("sweep before two hours: %d %v", n, err)
		}
	}
	want(t, "kept two hours", e.Get(t, livePath, "X-API-KEY", e.editor), 200, string(final))

	clk.Advance(time.Second)
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, st := range []store.Store{e.Store, replica.Store} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := records.Sweep(ctx, st, clk.Now())
			if err != nil {
				t.Errorf("sweep: %v", err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != 1 {
		t.Fatalf("the replicas deleted %v entries, want 1 in all", counts)
	}
	want(t, "gone", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")
	if r := e.V1(t, e.PremiumKey, "livescore.php?s=Soccer"); string(r.Body) != `{"livescore":null}` {
		t.Errorf("v1 after the sweep: %s", r.Body)
	}
	feed := string(e.V2(t, "changes?kinds=livescore").Body)
	if strings.Count(feed, `"kind":"livescore","id":"9200001","op":"upsert"`) != 4 || strings.Count(feed, `"op":"delete"`) != 1 {
		t.Errorf("feed: %s", feed)
	}
	// The event itself stays.
	want(t, "event", e.Get(t, eventPath, "X-API-KEY", e.editor), 200, "")
}

// An entry goes with the event back to not started, and with the event deleted; an entry
// imported with the same id but of another event is not the server's and is left alone;
// a finished event that was never in play gets none.
func TestLiveScoreLeftAlone(t *testing.T) {
	e, _ := newLiveEnv(t)
	e.fixture(t, `{"idLeague":"9100001","idHomeTeam":"9000001","idAwayTeam":"9000002","strStatus":"FT"}`)
	want(t, "finished, never in play", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")
	e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"2H"}`)
	want(t, "in play", e.Get(t, livePath, "X-API-KEY", e.editor), 200, "")
	e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"NS"}`)
	want(t, "back to not started", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")
	e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"Q1"}`)
	want(t, "event deleted", e.send(t, "DELETE", eventPath, e.editor, ""), 204, "")
	want(t, "entry deleted with it", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")

	other := `{"idEvent":"1","strSport":"Soccer","strStatus":"FT","updated":"2026-10-01 10:00:00"}`
	want(t, "imported entry", e.send(t, "PUT", livePath, e.editor, other), 201, "")
	want(t, "event again", e.send(t, "PUT", eventPath, e.editor, `{"idLeague":"9100001","idHomeTeam":"9000001","idAwayTeam":"9000002","strStatus":"1H"}`), 201, "")
	if n, err := records.Sweep(context.Background(), e.Store, apitest.FixtureNow); err != nil || n != 0 {
		t.Fatalf("sweep of an entry that is not the server's: %d %v", n, err)
	}
	wantFields(t, "imported entry", recordOf(t, e.Get(t, livePath, "X-API-KEY", e.editor).Body), map[string]any{"idEvent": "1", "strStatus": "FT"})
}

// SweepEvery, as serve runs it, sweeps at once and then at every tick, on the clock it is
// given, until its context ends.
func TestSweepEvery(t *testing.T) {
	e, clk := newLiveEnv(t)
	e.fixture(t, `{"idLeague":"9100001","idHomeTeam":"9000001","idAwayTeam":"9000002","strStatus":"1H"}`)
	e.send(t, "PATCH", eventPath, e.editor, `{"strStatus":"FT"}`)
	ctx, cancel := context.WithCancel(context.Background())
	ticks := make(chan time.Time) // unbuffered: a tick is taken once the sweep before it ended
	done := make(chan struct{})
	go func() {
		defer close(done)
		records.SweepEvery(ctx, e.Store, clk.Now, ticks, func(err error) { t.Errorf("sweep: %v", err) })
	}()
	defer func() { cancel(); <-done }()
	ticks <- time.Time{} // the first sweep, at once, has ended
	want(t, "kept while the clock stands", e.Get(t, livePath, "X-API-KEY", e.editor), 200, "")
	clk.Advance(records.LiveKept)
	ticks <- time.Time{} // a sweep on the moved clock runs
	ticks <- time.Time{} // and has ended
	want(t, "swept two hours after the end", e.Get(t, livePath, "X-API-KEY", e.editor), 404, "")
}

// The entry of an in-play event is carried by the live score stream, as the v2 live score
// endpoint writes it.
func TestLiveScoreStreamed(t *testing.T) {
	e, _ := newLiveEnv(t)
	e.fixture(t, `{"idLeague":"9100001","idHomeTeam":"9000001","idAwayTeam":"9000002","strStatus":"2H","intHomeScore":"2","intAwayScore":"1","strProgress":"61"}`)
	srv := httptest.NewServer(e.Server)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a bound on a hang
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v2/json/stream/livescore/soccer?since=0", nil)
	req.Header.Set("X-API-KEY", e.PremiumKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for event := ""; lines.Scan(); {
		line := lines.Text()
		if strings.HasPrefix(line, "event: ") {
			event = strings.TrimPrefix(line, "event: ")
		}
		if event == "livescore" && strings.HasPrefix(line, "data: ") {
			if !strings.Contains(line, `"idLiveScore":"9200001"`) || !strings.Contains(line, `"intHomeScore":"2","intAwayScore":"1","strStatus":"2H","strProgress":"61"`) {
				t.Fatalf("streamed entry: %s", line)
			}
			return
		}
	}
	t.Fatalf("the stream ended without the entry: %v", lines.Err())
}
