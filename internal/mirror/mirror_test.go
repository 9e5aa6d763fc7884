package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// testLeague is the demo league the crawl tests mirror: a small one (PGA Tour: six players,
// individual events with results).
const testLeague = "4425"

func mirrorOpts(env *apitest.Env, p *proxy, clk Clock) Options {
	return Options{From: p.srv.URL, Key: env.PremiumKey, Leagues: []string{testLeague}, Seasons: 1,
		Clock: clk, Workers: 1, Retries: 4, Backoff: time.Second}
}

// frontier lists every entry of a store's frontier.
func frontier(t *testing.T, st store.Store) []store.FrontierEntry {
	t.Helper()
	es, err := st.(store.Frontier).FrontierDue(context.Background(), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// sameAnswers asks both servers every request the mirror answered from the upstream and
// compares the bodies byte for byte.
func sameAnswers(t *testing.T, up, mirror *apitest.Env) int {
	t.Helper()
	n := 0
	for _, e := range frontier(t, mirror.Store) {
		if e.Status != "ok" {
			continue
		}
		get := func(env *apitest.Env) *apitest.Response {
			if rest, ok := strings.CutPrefix(e.URL, "v1/"); ok {
				return env.V1(t, env.PremiumKey, rest)
			}
			return env.V2(t, strings.TrimPrefix(e.URL, "v2/"))
		}
		a, b := get(up), get(mirror)
		if a.Status != b.Status || !bytes.Equal(sortedRecords(t, a.Body), sortedRecords(t, b.Body)) {
			t.Errorf("%s: upstream answers %d %.300s\nmirror answers %d %.300s", e.URL, a.Status, a.Body, b.Status, b.Body)
		}
		n++
	}
	return n
}

// sortedRecords is a body with the records of each key in a fixed order. Where the API
// answers in the store's insertion order, the mirror's order is the crawl's: the same
// records, perhaps in another order (see docs/MIRROR.md).
func sortedRecords(t *testing.T, body []byte) []byte {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return body
	}
	for k, v := range top {
		var recs []json.RawMessage
		if json.Unmarshal(v, &recs) != nil {
			continue
		}
		sort.Slice(recs, func(i, j int) bool { return string(recs[i]) < string(recs[j]) })
		top[k], _ = json.Marshal(recs)
	}
	out, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMirrorCopiesALeague(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	clk := newFakeClock()
	p := newProxy(t, up.Server, clk, up.PremiumKey)
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	var progress strings.Builder
	opts.Store, opts.Progress = down.Store, &progress
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// Not a terminal: the summary line alone.
	if want := sum.String() + "\n"; progress.String() != want || !strings.HasPrefix(want, "mirrored ") {
		t.Errorf("progress %q, want %q", progress.String(), want)
	}
	if sum.Records == 0 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if n := sameAnswers(t, up, down); n < 20 {
		t.Errorf("only %d answers compared", n)
	}
	heldByUpstream(t, up.Store, down.Store)
	// Its changes name the mirror in the change feed.
	changes, _, err := down.Store.Changes(context.Background(), store.FromOldest, nil, 1000)
	if err != nil || len(changes) == 0 {
		t.Fatalf("changes: %d, %v", len(changes), err)
	}
	for _, c := range changes {
		if c.By != By {
			t.Fatalf("change %d of %s %s: by %q, want %q", c.Cursor, c.Kind.Name, c.ID, c.By, By)
		}
	}
}

// A premium crawl reads lineups through v2, whose view leaves out the players' thumbs and
// renders: the mirror must answer both versions' lineups as the upstream does.
func TestMirrorKeepsWholeLineups(t *testing.T) {
	const league = "4331" // a soccer league of the demo whose played games have lineups
	up := apitest.New(t, apitest.Options{Demo: true})
	clk := newFakeClock()
	p := newProxy(t, up.Server, clk, up.PremiumKey)
	down := apitest.New(t, apitest.Options{})
	opts := mirrorOpts(up, p, clk)
	opts.Store, opts.Leagues = down.Store, []string{league}
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	events := map[string]bool{}
	err := down.Store.Scan(context.Background(), record.Lineup, func(r record.Record) error {
		events[r.Str("idEvent")] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 {
		t.Fatal("no lineup mirrored")
	}
	for id := range events {
		for _, get := range []func(*apitest.Env) *apitest.Response{
			func(env *apitest.Env) *apitest.Response { return env.V1(t, env.PremiumKey, "lookuplineup.php?id="+id) },
			func(env *apitest.Env) *apitest.Response { return env.V2(t, "lookup/event_lineup/"+id) },
		} {
			if a, b := get(up), get(down); a.Status != b.Status || !bytes.Equal(a.Body, b.Body) {
				t.Errorf("event %s: upstream answers %d %.300s\nmirror answers %d %.300s", id, a.Status, a.Body, b.Status, b.Body)
			}
		}
	}
}
