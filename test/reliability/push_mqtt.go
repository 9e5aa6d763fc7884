package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"sportsdb/internal/mqtt"
)

// mqttWatch is a subscriber to the teams' topics of one prefix that notes every message in
// arrival order.
type mqttWatch struct {
	c      paho.Client
	broker string
	prefix string

	mu      sync.Mutex
	msgs    []mqttMsg
	arrived chan struct{} // a value after each message
}

// mqttMsg is one message of a team's topic.
type mqttMsg struct {
	id, payload string
	retained    bool
}

var mqttClients atomic.Int64

// mqttClient connects to broker (mqtt://[user:password@]host[:port]) with a client id of its own.
func mqttClient(broker string) (paho.Client, error) {
	b, err := mqtt.ParseBroker(broker)
	if err != nil {
		return nil, fmt.Errorf("SPORTSDB_TEST_MQTT: %w", err)
	}
	opts := b.ClientOptions(fmt.Sprintf("sportsdb-reliability-%d-%d", os.Getpid(), mqttClients.Add(1)))
	c := paho.NewClient(opts)
	if t := c.Connect(); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		return nil, fmt.Errorf("connect to the MQTT broker: %v", t.Error())
	}
	return c, nil
}

// watchMQTT subscribes at QoS 1 to {prefix}/team/+.
func watchMQTT(broker, prefix string) (*mqttWatch, error) {
	c, err := mqttClient(broker)
	if err != nil {
		return nil, err
	}
	w := &mqttWatch{c: c, broker: broker, prefix: prefix, arrived: make(chan struct{}, 1)}
	if t := c.Subscribe(prefix+"/team/+", 1, w.handle); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		c.Disconnect(0)
		return nil, fmt.Errorf("subscribe: %v", t.Error())
	}
	return w, nil
}

func (w *mqttWatch) handle(_ paho.Client, m paho.Message) {
	w.mu.Lock()
	w.msgs = append(w.msgs, mqttMsg{id: strings.TrimPrefix(m.Topic(), w.prefix+"/team/"), payload: string(m.Payload()), retained: m.Retained()})
	w.mu.Unlock()
	select {
	case w.arrived <- struct{}{}:
	default:
	}
}

func (w *mqttWatch) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.msgs)
}

func (w *mqttWatch) since(n int) []mqttMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]mqttMsg(nil), w.msgs[n:]...)
}

// waitTeams waits until every team of want (id: name) has had a message with that name,
// at most pushWait.
func (w *mqttWatch) waitTeams(ctx context.Context, want map[string]string) bool {
	deadline := time.After(pushWait)
	for {
		if len(missingTeams(w.since(0), want)) == 0 {
			return true
		}
		select {
		case <-w.arrived:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// missingTeams are the teams of want no message of msgs names as want says.
func missingTeams(msgs []mqttMsg, want map[string]string) []string {
	seen := map[string]bool{}
	for _, m := range msgs {
		if name, ok := want[m.id]; ok && strings.Contains(m.payload, `"strTeam":"`+name+`"`) {
			seen[m.id] = true
		}
	}
	var out []string
	for id := range want {
		if !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

// pushNames are the names of the pushed teams of the given batches (every batch when
// none), by id.
func pushNames(batches ...int) map[string]string {
	if len(batches) == 0 {
		for b := range pushBatches {
			batches = append(batches, b)
		}
	}
	out := map[string]string{}
	for _, b := range batches {
		for i := b * pushBatch; i < (b+1)*pushBatch; i++ {
			out[pushID(i)] = pushName(i)
		}
	}
	return out
}

// checkPublished: every pushed team published; no team of the store published after the
// kill (the snapshot ended before batch 0 was published, and was not made again); batch 0
// published once (the publisher resumed after its stored cursor), batch 1, in flight at the
// kill, at most twice, batch 2 once; and a new subscriber gets every pushed team's latest
// state from the broker.
func checkPublished(ctx context.Context, t *T, w *mqttWatch, killedAt int) {
	all := pushNames()
	if !w.waitTeams(ctx, all) {
		t.Fail("MQTT: %d of the %d pushed teams not published within %v", len(missingTeams(w.since(0), all)), len(all), pushWait)
	}
	for _, m := range w.since(killedAt) {
		if _, ours := all[m.id]; !ours {
			t.Fail("MQTT: team %s of the store published again after the restart: not resumed from the stored cursor", m.id)
			break
		}
	}
	times := map[string]int{}
	for _, m := range w.since(0) {
		if _, ours := all[m.id]; ours {
			times[m.id]++
		}
	}
	twice := 0
	for b, most := range []int{1, 2, 1} {
		for id := range pushNames(b) {
			if times[id] > most {
				t.Fail("MQTT: team %s of batch %d published %d times", id, b, times[id])
			}
			if b == 1 && times[id] == 2 {
				twice++
			}
		}
	}
	t.Figure("MQTT: teams of the batch in flight at the kill published twice", "%d of %d", twice, pushBatch)
	fresh, err := watchMQTT(w.broker, w.prefix)
	if err != nil {
		t.Fail("MQTT: %v", err)
		return
	}
	defer fresh.close()
	if !fresh.waitTeams(ctx, all) {
		t.Fail("MQTT: a new subscriber got %d of the %d pushed teams' latest state as retained messages", len(all)-len(missingTeams(fresh.since(0), all)), len(all))
	}
}

// close disconnects and clears the prefix's retained messages from the broker: first
// their topics are gathered (they come at once on subscribing; a quiet second ends them),
// then each is cleared, acknowledged. Two phases, so that the subscription's callback never
// waits on a publication whose acknowledgement it holds up.
func (w *mqttWatch) close() {
	w.c.Disconnect(0)
	c, err := mqttClient(w.broker)
	if err != nil {
		return
	}
	defer c.Disconnect(250)
	var mu sync.Mutex
	var topics []string
	arrived := make(chan struct{}, 1)
	c.Subscribe(w.prefix+"/#", 0, func(_ paho.Client, m paho.Message) {
		if m.Retained() && len(m.Payload()) > 0 {
			mu.Lock()
			topics = append(topics, m.Topic())
			mu.Unlock()
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
	}).WaitTimeout(10 * time.Second)
	end := time.After(time.Minute)
gather:
	for {
		select {
		case <-arrived:
		case <-time.After(time.Second):
			break gather
		case <-end:
			break gather
		}
	}
	c.Unsubscribe(w.prefix + "/#").WaitTimeout(10 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	var cleared []paho.Token
	for _, topic := range topics {
		cleared = append(cleared, c.Publish(topic, 1, true, []byte{}))
	}
	for _, t := range cleared {
		t.WaitTimeout(10 * time.Second)
	}
}
