package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestDeliverySighting(t *testing.T) {
	for _, c := range []struct {
		body string
		want sighting
		ok   bool
	}{
		{`{"cursor":"18343","kind":"livescore","id":"3051934","op":"upsert","time":"2026-10-05 20:06:00","record":{"idLiveScore":"3051934","idEvent":"441613","intHomeScore":"1007"}}`,
			sighting{kind: "livescore", id: "3051934", seq: 1007}, true},
		{`{"cursor":"9","kind":"event","id":"441613","op":"upsert","time":"2026-10-05 20:06:00","by":"import","record":{"idEvent":"441613","intHomeScore":"1008","intAwayScore":"1"}}`,
			sighting{kind: "event", id: "441613", seq: 1008}, true},
		{`{"cursor":"10","kind":"event","id":"441613","op":"delete","time":"2026-10-05 20:06:00"}`, sighting{}, false},
		{`{"cursor":"11","kind":"event","id":"441613","op":"upsert","time":"2026-10-05 20:06:00","record":null}`, sighting{}, false},
	} {
		got, ok := deliverySighting([]byte(c.body))
		if ok != c.ok || got != c.want {
			t.Errorf("deliverySighting(%s) = %+v, %v; want %+v, %v", c.body, got, ok, c.want, c.ok)
		}
	}
}

// TestPushLatencies: a change reaches a receiver at its record's first message with its
// marker or a later one; one never reached counts until the end, and as missed.
func TestPushLatencies(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	changes := []*writeRec{
		{kind: "livescore", id: "1", seq: 1001, answd: at(0)},
		{kind: "livescore", id: "1", seq: 1002, answd: at(100)},
	}
	seen := [][]sighting{
		{{kind: "livescore", id: "1", seq: 1001, at: at(30)}, {kind: "livescore", id: "1", seq: 1002, at: at(150)}},
		{{kind: "livescore", id: "1", seq: 1002, at: at(120)}}, // sent late, as it was after the second
		{{kind: "event", id: "1", seq: 1002, at: at(10)}},      // another kind: never reached
	}
	lat, missed := pushLatencies(changes, seen, at(1000))
	want := []time.Duration{20, 30, 50, 120, 900, 1000}
	if missed != 2 || len(lat) != len(want) {
		t.Fatalf("latencies %v, %d missed; want %v ms, 2 missed", lat, missed, want)
	}
	for i, w := range want {
		if lat[i] != w*time.Millisecond {
			t.Errorf("latency %d = %v, want %v ms", i, lat[i], w)
		}
	}
}

// TestReceivers: a healthy receiver answers 204 and notes the delivery, a failing one
// answers 503 and notes nothing, a slow one answers 204 after its delay.
func TestReceivers(t *testing.T) {
	body := `{"cursor":"5","kind":"livescore","id":"7","op":"upsert","time":"x","record":{"intHomeScore":"1001"}}`
	for _, c := range []struct {
		role   string
		status int
		noted  int
	}{{roleHealthy, 204, 1}, {roleFailing, 503, 0}, {roleSlow, 204, 1}} {
		r, err := startReceiver(c.role, 50*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		resp, err := http.Post(r.url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		seen, answered := r.take()
		r.close()
		if resp.StatusCode != c.status || len(seen) != c.noted || answered != c.noted {
			t.Errorf("%s: HTTP %d, %d noted, %d answered; want %d, %d", c.role, resp.StatusCode, len(seen), answered, c.status, c.noted)
		}
		if c.role == roleSlow && took < 50*time.Millisecond {
			t.Errorf("slow: answered after %v, before its delay", took)
		}
	}
}

func TestPushTargets(t *testing.T) {
	runs := []pushRun{
		{Workload: pushHealthy, HealthyP99: 400, MQTTPublished: 10, MQTTP99: 80},
		{Workload: pushMixed, HealthyP99: 900, MQTTPublished: 10, MQTTP99: 90, HealthyMissed: 1},
	}
	got := map[string]target{}
	for _, tg := range pushTargets(runs) {
		got[tg.name] = tg
	}
	for name, met := range map[string]string{
		"push: healthy webhooks, commit to delivery p99, receivers alone (ms)":         "yes",
		"push: healthy webhooks, commit to delivery p99, beside slow and failing (ms)": "yes",
		"push: healthy p99 with slow and failing receivers (ms)":                       "no", // 900 > 500
		"push: MQTT, commit to delivery p99, worst run (ms)":                           "yes",
		"push: deliveries missed (healthy and MQTT)":                                   "no",
	} {
		if got[name].met != met {
			t.Errorf("%s: met %q (%+v), want %q", name, got[name].met, got[name], met)
		}
	}
}
