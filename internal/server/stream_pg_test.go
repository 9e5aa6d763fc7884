package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
)

// Two replicas on one PostgreSQL database: a change written through either one's store
// reaches the streams of both (LISTEN/NOTIFY, with polling behind it).
func TestStreamAcrossPostgresReplicas(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	var stores []store.Store
	var bases, keys []string
	for range 2 {
		st, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		srv, premium, _ := serveStore(t, st, nil)
		hs := httptest.NewServer(srv)
		t.Cleanup(hs.Close)
		stores, bases, keys = append(stores, st), append(bases, hs.URL), append(keys, premium)
	}
	a := openStream(t, bases[0], "/api/v2/json/stream/livescore/soccer", keys[0])
	b := openStream(t, bases[1], "/api/v2/json/stream/livescore/soccer", keys[1])
	upsert(t, stores[0], liveScore("7", "Soccer", "Arsenal", "1"))
	upsert(t, stores[1], liveScore("7", "Soccer", "Arsenal", "2"))
	for name, c := range map[string]*sseClient{"first replica": a, "second replica": b} {
		first, second := c.nextEvent(t), c.nextEvent(t)
		if first.id >= second.id || first.name != "livescore" || second.name != "livescore" {
			t.Errorf("%s: %+v then %+v, want two livescore events in cursor order", name, first, second)
		}
	}
}

// A scorekeeper's tap on one replica (a PATCH of an in-play event through the records API)
// reaches the live score streams of both replicas and the live score answers of the other,
// whose response cache held the score before it.
func TestScorekeeperTapReachesEveryReplica(t *testing.T) {
	dsn := pgtest.FreshSchema(t)
	var bases, keys []string
	var editor string
	for i := range 2 {
		st, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if i == 0 {
			editor = auth.NewKey()
			k := store.Key{Hash: auth.Hash(editor), Tier: store.Business, Role: store.Editor, Label: "scorekeeper", Created: time.Now()}
			if err := st.AddKey(context.Background(), k); err != nil {
				t.Fatal(err)
			}
		}
		srv, premium, _ := serveStore(t, st, nil)
		hs := httptest.NewServer(srv)
		t.Cleanup(hs.Close)
		bases, keys = append(bases, hs.URL), append(keys, premium)
	}
	event := bases[0] + "/api/v2/json/records/event/9200001"
	send := func(method, body string, want int) {
		t.Helper()
		req, _ := http.NewRequest(method, event, strings.NewReader(body))
		req.Header.Set("X-API-KEY", editor)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("%s: %d %s, want %d", method, resp.StatusCode, got, want)
		}
	}
	send("PUT", `{"strSport":"Soccer","strHomeTeam":"Riverside FC","strAwayTeam":"Hillside Rovers",`+
		`"dateEvent":"2026-11-29","strTime":"10:30:00","strStatus":"1H","intHomeScore":"0","intAwayScore":"0"}`, 201)
	livescore := "/api/v1/json/" + keys[1] + "/livescore.php?s=Soccer"
	if body := getBody(t, bases[1]+livescore); !strings.Contains(body, `"intHomeScore":"0"`) {
		t.Fatalf("second replica before the tap: %s", body)
	}
	streams := []*sseClient{
		openStream(t, bases[0], "/api/v2/json/stream/livescore/soccer", keys[0]),
		openStream(t, bases[1], "/api/v2/json/stream/livescore/soccer", keys[1]),
	}
	send("PATCH", `{"intHomeScore":"1","strProgress":"23"}`, 200)
	for i, c := range streams {
		ev := c.nextEvent(t)
		if ev.name != "livescore" || !strings.Contains(ev.data, `"intHomeScore":"1"`) || !strings.Contains(ev.data, `"strProgress":"23"`) {
			t.Errorf("replica %d's stream: %+v, want the live score 1-0 at 23'", i+1, ev)
		}
	}
	if body := getBody(t, bases[1]+livescore); !strings.Contains(body, `"intHomeScore":"1"`) {
		t.Errorf("second replica after the tap: %s", body)
	}
}

// getBody answers a GET's body, failing the test unless it is a 200.
func getBody(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}
