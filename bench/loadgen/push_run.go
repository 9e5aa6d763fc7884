package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"sportsdb/internal/mqtt"
)

// pushRun is what one run of the push workload measured. Times are from the import's
// commit (its summary line) to the receiver's or subscriber's arrival, in milliseconds,
// over every (change, healthy receiver) pair; a pair not delivered within the settle time
// counts as delivered when it ended, and as missed.
type pushRun struct {
	Workload string `json:"workload"`
	Server   string `json:"server"`
	Webhooks int    `json:"webhooks"`
	Healthy  int    `json:"healthy"`
	Imports  int    `json:"imports"`
	Changes  int    `json:"changes"`
	// Span is the run's time, from its first import to the last delivery awaited, in s.
	Span             float64 `json:"span_s"`
	Delivered        int64   `json:"delivered"`
	Failures         int64   `json:"failures"`
	DeliveriesPerSec float64 `json:"deliveries_per_s"`
	HealthyP50       float64 `json:"healthy_p50_ms"`
	HealthyP99       float64 `json:"healthy_p99_ms"`
	HealthyMax       float64 `json:"healthy_max_ms"`
	HealthyMissed    int     `json:"healthy_missed"`
	MQTTPublished    int64   `json:"mqtt_published"`
	MQTTPerSec       float64 `json:"mqtt_per_s"`
	MQTTP50          float64 `json:"mqtt_p50_ms"`
	MQTTP99          float64 `json:"mqtt_p99_ms"`
	MQTTMax          float64 `json:"mqtt_max_ms"`
	MQTTMissed       int     `json:"mqtt_missed"`
	// ServerCores is the server's CPU over the span; CPUPerDelivery its CPU in µs per
	// webhook attempt and MQTT message (the imports' other work in the server included).
	ServerCores    float64 `json:"server_cores"`
	CPUPerDelivery float64 `json:"server_cpu_us_per_delivery"`
	LoadgenCores   float64 `json:"loadgen_cores"`
	LoadStart      string  `json:"load_start"`
	LoadEnd        string  `json:"load_end"`
}

func (r pushRun) line() string {
	s := fmt.Sprintf("%d webhooks, %d imports of %d changes in %.1fs: %.0f deliveries/s (%d failed attempts), healthy p50 %.0f ms p99 %.0f ms max %.0f ms (%d missed)",
		r.Webhooks, r.Imports, r.Changes, r.Span, r.DeliveriesPerSec, r.Failures, r.HealthyP50, r.HealthyP99, r.HealthyMax, r.HealthyMissed)
	if r.MQTTPublished > 0 {
		s += fmt.Sprintf("; MQTT %.0f messages/s, p50 %.0f ms p99 %.0f ms max %.0f ms (%d missed)", r.MQTTPerSec, r.MQTTP50, r.MQTTP99, r.MQTTMax, r.MQTTMissed)
	}
	return s + fmt.Sprintf("; server %.2f cores, %.0f µs a delivery; loadgen %.2f cores; load %s to %s",
		r.ServerCores, r.CPUPerDelivery, r.LoadgenCores, r.LoadStart, r.LoadEnd)
}

// runPush imports every tick for c.dur with the webhooks of rs registered, waits for the
// last changes to reach every healthy receiver and the subscriber, and measures.
func runPush(ctx context.Context, c pushConfig, ch *changer, rs []*receiver, sub *mqttSub) (pushRun, error) {
	run := pushRun{Webhooks: len(rs), LoadStart: loadAverage()}
	var healthy []*receiver
	for _, r := range rs {
		r.take()
		if r.role == roleHealthy {
			healthy = append(healthy, r)
		}
	}
	run.Healthy = len(healthy)
	if sub != nil {
		sub.take()
	}
	metrics := []string{c.base + "/metrics"}
	before, err := cacheCounts(ctx, metrics)
	if err != nil {
		return run, err
	}
	var mu sync.Mutex
	var changes []*writeRec
	ch.imported = func(score string, events []string, it *importTimes) {
		seq, _ := strconv.ParseInt(score, 10, 64)
		commit := it.commit
		if commit.IsZero() {
			commit = it.start // no summary line: count from the start, the longer time
		}
		mu.Lock()
		defer mu.Unlock()
		run.Imports++
		for _, id := range ch.targets.scores {
			changes = append(changes, &writeRec{kind: "livescore", id: id, seq: seq, answd: commit})
		}
		for _, id := range events {
			changes = append(changes, &writeRec{kind: "event", id: id, seq: seq, answd: commit})
		}
	}
	cpu0, start := ownCPU(), time.Now()
	stop := make(chan struct{})
	timer := time.AfterFunc(c.dur, func() { close(stop) })
	defer timer.Stop()
	if err := ch.run(ctx, stop); err != nil {
		return run, err
	}
	mu.Lock()
	defer mu.Unlock()
	deadline := time.Now().Add(c.settle)
	for ctx.Err() == nil && time.Now().Before(deadline) && !allReached(changes, healthy, sub) {
		time.Sleep(100 * time.Millisecond)
	}
	stopAt := time.Now()
	after, err := cacheCounts(ctx, metrics)
	if err != nil {
		return run, err
	}
	run.Span = round(stopAt.Sub(start).Seconds(), 1)
	run.LoadEnd, run.LoadgenCores = loadAverage(), round((ownCPU()-cpu0).Seconds()/stopAt.Sub(start).Seconds(), 2)
	run.Changes = len(changes) / max(1, run.Imports)
	delta := func(k string) int64 { return after[k] - before[k] }
	run.Delivered, run.Failures, run.MQTTPublished = delta(webhookDelivered), delta(webhookFailures), delta(mqttPublished)
	run.DeliveriesPerSec = round(float64(run.Delivered)/run.Span, 1)
	run.MQTTPerSec = round(float64(run.MQTTPublished)/run.Span, 1)
	run.ServerCores = round(float64(delta(cpuKey))/1e6/run.Span, 2)
	if n := run.Delivered + run.Failures + run.MQTTPublished; n > 0 {
		run.CPUPerDelivery = round(float64(delta(cpuKey))/float64(n), 1)
	}
	var seen [][]sighting
	for _, r := range healthy {
		s, _ := r.take()
		seen = append(seen, s)
	}
	lat, missed := pushLatencies(changes, seen, stopAt)
	run.HealthyMissed = missed
	if len(lat) > 0 {
		run.HealthyP50, run.HealthyP99, run.HealthyMax = ms(percentile(lat, 50)), ms(percentile(lat, 99)), ms(lat[len(lat)-1])
	}
	if sub != nil {
		lat, missed := pushLatencies(changes, [][]sighting{sub.take()}, stopAt)
		run.MQTTMissed = missed
		if len(lat) > 0 {
			run.MQTTP50, run.MQTTP99, run.MQTTMax = ms(percentile(lat, 50)), ms(percentile(lat, 99)), ms(lat[len(lat)-1])
		}
	}
	return run, nil
}

// allReached says whether every change has reached every healthy receiver and the subscriber.
func allReached(changes []*writeRec, healthy []*receiver, sub *mqttSub) bool {
	var seen [][]sighting
	for _, r := range healthy {
		seen = append(seen, r.peek())
	}
	if sub != nil {
		seen = append(seen, sub.sightings())
	}
	for _, at := range arrivalsEach(changes, seen) {
		if slices.ContainsFunc(at, time.Time.IsZero) {
			return false
		}
	}
	return true
}

// pushLatencies are the sorted times from each change's commit (its answd) to its arrival
// at each receiver, a pair never reached counting until stopAt, and how many pairs were not.
func pushLatencies(changes []*writeRec, seen [][]sighting, stopAt time.Time) ([]time.Duration, int) {
	var out []time.Duration
	missed := 0
	for i, at := range arrivalsEach(changes, seen) {
		for _, t := range at {
			if t.IsZero() {
				missed++
				t = stopAt
			}
			out = append(out, max(0, t.Sub(changes[i].answd)))
		}
	}
	slices.Sort(out)
	return out, missed
}

// mqttSub is a subscriber to the live scores' and events' topics of one prefix.
type mqttSub struct {
	c      paho.Client
	prefix string
	mu     sync.Mutex
	seen   []sighting
}

// subscribeMQTT connects to broker (mqtt://[user:pass@]host[:port], or mqtts://) and subscribes at QoS 1
// to {prefix}/livescore/+ and {prefix}/event/+.
func subscribeMQTT(broker, prefix string) (*mqttSub, error) {
	b, err := mqtt.ParseBroker(broker)
	if err != nil {
		return nil, fmt.Errorf("push: -mqtt: %w", err)
	}
	opts := b.ClientOptions(fmt.Sprintf("sportsdb-bench-push-%d", os.Getpid()))
	s := &mqttSub{prefix: prefix}
	s.c = paho.NewClient(opts)
	if t := s.c.Connect(); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		return nil, fmt.Errorf("push: connect to the MQTT broker: %v", t.Error())
	}
	filters := map[string]byte{prefix + "/livescore/+": 1, prefix + "/event/+": 1}
	if t := s.c.SubscribeMultiple(filters, s.handle); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		s.c.Disconnect(0)
		return nil, fmt.Errorf("push: subscribe: %v", t.Error())
	}
	return s, nil
}

// handle notes a live score's or event's marker, as it arrives.
func (s *mqttSub) handle(_ paho.Client, m paho.Message) {
	at := time.Now()
	rest, ok := strings.CutPrefix(m.Topic(), s.prefix+"/")
	kind, id, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || !isDigits(id) {
		return
	}
	n, err := strconv.ParseInt(jsonString(bytes.TrimSpace(m.Payload()), "intHomeScore"), 10, 64)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, sighting{kind: kind, id: id, seq: n, at: at})
	s.mu.Unlock()
}

func (s *mqttSub) sightings() []sighting {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

func (s *mqttSub) take() []sighting {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := s.seen
	s.seen = nil
	return seen
}

func (s *mqttSub) close() { s.c.Disconnect(250) }

// writePush prints the runs and the targets as a table on table and as JSON lines on
// stdout, also appended to out.
func writePush(stdout, table io.Writer, out, label string, runs []pushRun) error {
	var buf bytes.Buffer
	for _, r := range runs {
		buf.Write(append(mustJSON(map[string]any{"type": "push", "server": label, "workload": r.Workload, "run": r}), '\n'))
	}
	ts := pushTargets(runs)
	for _, t := range ts {
		buf.Write(append(mustJSON(map[string]any{"type": "target", "server": label, "name": t.name, "wanted": t.wanted, "measured": t.measured, "met": t.met}), '\n'))
	}
	fmt.Fprintln(table, "| target | wanted | measured | met |")
	fmt.Fprintln(table, "|---|---|---|---|")
	for _, t := range ts {
		fmt.Fprintf(table, "| %s | %s | %s | %s |\n", t.name, t.wanted, t.measured, t.met)
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	return appendResults(out, buf.Bytes())
}

// pushTargets: healthy receivers and MQTT within 1 s at p99 in every run, nothing missed,
// and the healthy receivers' p99 not moved by the slow and failing ones (at most a quarter,
// or 100 ms, more: runs on a shared machine differ by that much on their own).
func pushTargets(runs []pushRun) []target {
	find := func(w string) (pushRun, bool) {
		i := slices.IndexFunc(runs, func(r pushRun) bool { return r.Workload == w })
		if i < 0 {
			return pushRun{}, false
		}
		return runs[i], true
	}
	alone, okA := find(pushHealthy)
	mixed, okM := find(pushMixed)
	worst := func(f func(pushRun) float64) float64 {
		v := 0.0
		for _, r := range runs {
			v = max(v, f(r))
		}
		return v
	}
	mqtt := worst(func(r pushRun) float64 { return float64(r.MQTTPublished) }) > 0
	missed := worst(func(r pushRun) float64 { return float64(r.HealthyMissed + r.MQTTMissed) })
	moved := check("push: healthy p99 with slow and failing receivers (ms)", fmt.Sprintf("<= %.0f (alone: %.0f)", max(alone.HealthyP99*1.25, alone.HealthyP99+100), alone.HealthyP99),
		mixed.HealthyP99, okA && okM, "%.0f", atMost(max(alone.HealthyP99*1.25, alone.HealthyP99+100)))
	return []target{
		check("push: healthy webhooks, commit to delivery p99, receivers alone (ms)", "<= 1000", alone.HealthyP99, okA, "%.0f", atMost(1000)),
		check("push: healthy webhooks, commit to delivery p99, beside slow and failing (ms)", "<= 1000", mixed.HealthyP99, okM, "%.0f", atMost(1000)),
		moved,
		check("push: MQTT, commit to delivery p99, worst run (ms)", "<= 1000", worst(func(r pushRun) float64 { return r.MQTTP99 }), mqtt, "%.0f", atMost(1000)),
		check("push: deliveries missed (healthy and MQTT)", "0", missed, len(runs) > 0, "%.0f", atMost(0)),
		reported("push: webhook deliveries/s, beside slow and failing", mixed.DeliveriesPerSec, okM, "%.0f"),
		reported("push: server CPU per delivery, beside slow and failing (µs)", mixed.CPUPerDelivery, okM, "%.0f"),
	}
}
