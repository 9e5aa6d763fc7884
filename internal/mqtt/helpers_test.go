package mqtt

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
	"sportsdb/internal/store/storetest"
	"sportsdb/internal/testsupport"
)

// waitFor bounds every wait on the broker: a test that gets no message fails, never hangs.
const waitFor = 15 * time.Second

var t0 = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

// testBroker is SPORTSDB_TEST_MQTT; without it the test is skipped, or fails under CI.
func testBroker(t *testing.T) Broker {
	t.Helper()
	b, err := ParseBroker(testsupport.Env(t, "SPORTSDB_TEST_MQTT"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testPrefix is a topic prefix of the test's own, so that runs at once do not meet; what
// the test leaves retained under it is cleared when it ends.
func testPrefix(t *testing.T, b Broker) string {
	var r [4]byte
	_, _ = rand.Read(r[:])
	p := "sportsdbtest/" + node(t.Name()) + "-" + hex.EncodeToString(r[:])
	t.Cleanup(func() { clearRetained(t, b, p+"/#", DiscoveryPrefix+"/sensor/"+node(p)+"/#") })
	return p
}

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	return storetest.Opened(t, func(ctx context.Context) (*sqlite.Store, error) { return sqlite.Open(ctx, path) })
}

func testOptions(b Broker, prefix string, leases clock.Clock) Options {
	return Options{Broker: b, Prefix: prefix, Leases: leases, Data: clock.Fixed(t0),
		Poll: 10 * time.Millisecond, LeaseRetry: 10 * time.Millisecond,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&testsupport.LogBuffer{}, nil))}
}

// running is a publisher started by a test.
type running struct {
	stop   func()
	stored chan int64
}

// start runs a publisher until the test ends or stop is called; stored gets each cursor
// it stores.
func start(t *testing.T, src Source, o Options) *running {
	t.Helper()
	r := &running{stored: make(chan int64, 1024)}
	o.Stored = func(c int64) { r.stored <- c }
	p := New(src, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Run(ctx) }()
	var once sync.Once
	r.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(r.stop)
	return r
}

// waitStored waits until the publisher stored cursor (or a later one).
func (r *running) waitStored(t *testing.T, cursor int64) {
	t.Helper()
	timeout := time.After(waitFor)
	for {
		select {
		case c := <-r.stored:
			if c >= cursor {
				return
			}
		case <-timeout:
			t.Fatalf("the publisher did not store cursor %d", cursor)
		}
	}
}

type message struct {
	Topic    string
	Payload  string
	Retained bool
}

// subscriber collects the messages of its filters, in the order they come.
type subscriber struct {
	c  paho.Client
	ch chan message
}

func subscribe(t *testing.T, b Broker, filters ...string) *subscriber {
	t.Helper()
	s := &subscriber{ch: make(chan message, 10000)}
	var r [4]byte
	_, _ = rand.Read(r[:])
	s.c = paho.NewClient(b.ClientOptions("sportsdbtest-sub-" + hex.EncodeToString(r[:])))
	if err := await(context.Background(), s.c.Connect(), waitFor); err != nil {
		t.Fatalf("connect to the broker: %v", err)
	}
	t.Cleanup(func() { s.c.Disconnect(100) })
	subs := map[string]byte{}
	for _, f := range filters {
		subs[f] = 1
	}
	tok := s.c.SubscribeMultiple(subs, func(_ paho.Client, m paho.Message) {
		s.ch <- message{Topic: m.Topic(), Payload: string(m.Payload()), Retained: m.Retained()}
	})
	if err := await(context.Background(), tok, waitFor); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	return s
}

// next is the next message, the status topic's skipped.
func (s *subscriber) next(t *testing.T) message {
	t.Helper()
	for {
		select {
		case m := <-s.ch:
			if strings.HasSuffix(m.Topic, "/status") {
				continue
			}
			return m
		case <-time.After(waitFor):
			t.Fatal("no message came")
		}
	}
}

// retained reads the retained messages the subscription found, by topic: a sentinel
// published after the subscription comes after every one of them.
func (s *subscriber) retained(t *testing.T, sentinel string) map[string]string {
	t.Helper()
	if err := await(context.Background(), s.c.Publish(sentinel, 1, false, "end"), waitFor); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for {
		select {
		case m := <-s.ch:
			if m.Topic == sentinel {
				return out
			}
			if m.Retained {
				out[m.Topic] = m.Payload
			}
		case <-time.After(waitFor):
			t.Fatal("the sentinel did not come")
		}
	}
}

// clearRetained clears every retained message under the filters.
func clearRetained(t *testing.T, b Broker, filters ...string) {
	sentinel := "sportsdbtest/sentinel/" + node(t.Name())
	s := subscribe(t, b, append(filters, sentinel)...)
	for topic := range s.retained(t, sentinel) {
		_ = await(context.Background(), s.c.Publish(topic, 1, true, []byte{}), waitFor)
	}
}

// payload is a stored record as the v2 lookup writes it.
func payload(t *testing.T, st store.Store, k *record.Kind, id string) string {
	t.Helper()
	r, err := st.Get(context.Background(), k, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.AppendView(nil, r, v2.RecordView(k), false)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The store helpers of every store test.
var (
	rec    = storetest.Rec
	write  = storetest.WriteEach
	remove = storetest.Remove
	latest = storetest.Latest
)
