package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The push workload (bench/push.sh): webhooks to local receivers and an MQTT subscriber
// while the live workload's changer imports live scores and events every tick. A first run
// has healthy receivers only; a second adds slow and failing ones beside the same healthy
// ones, whose commit-to-delivery times the two runs compare. A change has reached a
// receiver at its first message of the record with the import's marker (intHomeScore) or a
// later one: a delivery carries the record as it is when sent.

// Workload names of the two runs.
const (
	pushHealthy = "push: healthy receivers only"
	pushMixed   = "push: healthy, slow and failing receivers"
)

// Receiver roles: a healthy one answers 204 at once, a slow one after a delay, a failing
// one 503.
const (
	roleHealthy = "healthy"
	roleSlow    = "slow"
	roleFailing = "failing"
)

// pushConfig is one `loadgen push`.
type pushConfig struct {
	base      string   // http://addr
	keys      []string // premium keys, each registering at most webhooksPerKey
	healthy   int
	slow      int
	failing   int
	slowDelay time.Duration
	dur       time.Duration
	settle    time.Duration
	mqtt      string // broker URL, "" for none
	prefix    string // the server's --mqtt-prefix
}

// webhooksPerKey is how many webhooks a key may register.
const webhooksPerKey = 10

func pushCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen push", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c pushConfig
	addr := fs.String("addr", "", "server address, host:port (served with --webhook-allow-private)")
	keysFile := fs.String("premium", "", "file of premium keys, one per line: the first reads the live scores, each registers up to 10 webhooks")
	db := fs.String("db", "", "the server's database, which the imports write to")
	bin := fs.String("sportsdb", "sportsdb", "the sportsdb binary that imports")
	dir := fs.String("dir", "", "folder for the import files")
	out := fs.String("out", "", "results file to append the JSON lines to")
	label := fs.String("label", "sqlite", "store name in the results")
	tick := fs.Duration("tick", 2*time.Second, "time between imports")
	scores := fs.Int("scores", 20, "live scores changed by each import")
	events := fs.Int("events", 3, "events changed by each import")
	fs.IntVar(&c.healthy, "healthy", 160, "healthy receivers (both runs)")
	fs.IntVar(&c.slow, "slow", 20, "slow receivers (second run)")
	fs.IntVar(&c.failing, "failing", 20, "failing receivers (second run)")
	fs.DurationVar(&c.slowDelay, "slow-delay", 2*time.Second, "how long a slow receiver takes to answer 204")
	fs.DurationVar(&c.dur, "d", 30*time.Second, "how long each run imports")
	fs.DurationVar(&c.settle, "settle", 30*time.Second, "how long the last changes are awaited after the imports (a change not delivered by then counts as delivered then, and missed)")
	fs.StringVar(&c.mqtt, "mqtt", "", "MQTT broker the server publishes to, mqtt://host:port (none: no MQTT)")
	fs.StringVar(&c.prefix, "mqtt-prefix", "sportsdb", "the server's --mqtt-prefix")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *keysFile == "" || *db == "" || *dir == "" {
		return errors.New("push: -addr, -premium, -db and -dir are required")
	}
	if c.healthy < 1 || c.slow < 0 || c.failing < 0 || c.dur > 10*time.Minute || c.settle > 5*time.Minute || *tick < 100*time.Millisecond {
		return errors.New("push: want a healthy receiver, -d within 10m, -settle within 5m, a tick of at least 100ms")
	}
	var err error
	if c.keys, err = readKeys(*keysFile); err != nil {
		return err
	}
	if need := (c.healthy + c.slow + c.failing + webhooksPerKey - 1) / webhooksPerKey; len(c.keys) < need {
		return fmt.Errorf("push: %d webhooks need %d premium keys, %s has %d", c.healthy+c.slow+c.failing, need, *keysFile, len(c.keys))
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return fmt.Errorf("push: %w", err)
	}
	c.base = "http://" + *addr
	p := &poller{base: c.base, key: c.keys[0], client: &http.Client{Timeout: 10 * time.Second}}
	targets, err := p.liveTargets(ctx, nil, *scores, *events)
	if err != nil {
		return err
	}
	ch := &changer{bin: *bin, db: *db, dir: *dir, tick: *tick, targets: targets, events: *events}
	return runPushes(ctx, c, ch, *label, *out, stdout, stderr)
}

// runPushes starts the receivers and the subscriber, waits until a first import reaches the
// subscriber (the server has published its first snapshot by then), and drives both runs.
func runPushes(ctx context.Context, c pushConfig, ch *changer, label, out string, stdout, stderr io.Writer) error {
	var all []*receiver
	defer func() {
		for _, r := range all {
			r.close()
		}
	}()
	for i := range c.healthy + c.slow + c.failing {
		role := roleHealthy
		switch {
		case i >= c.healthy+c.slow:
			role = roleFailing
		case i >= c.healthy:
			role = roleSlow
		}
		r, err := startReceiver(role, c.slowDelay)
		if err != nil {
			return err
		}
		all = append(all, r)
	}
	var sub *mqttSub
	if c.mqtt != "" {
		var err error
		if sub, err = subscribeMQTT(c.mqtt, c.prefix); err != nil {
			return err
		}
		defer sub.close()
		if err := warmUp(ctx, ch, sub); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "push: %d healthy receivers; then %d slow (%s) and %d failing beside them; MQTT %v; load %s\n",
		c.healthy, c.slow, c.slowDelay, c.failing, sub != nil, loadAverage())
	var runs []pushRun
	registered := 0
	for _, workload := range []string{pushHealthy, pushMixed} {
		n := c.healthy
		if workload == pushMixed {
			n = len(all)
		}
		for ; registered < n; registered++ {
			if err := register(ctx, c, c.keys[registered/webhooksPerKey], all[registered]); err != nil {
				return err
			}
		}
		r, err := runPush(ctx, c, ch, all[:n], sub)
		if err != nil {
			return err
		}
		r.Workload, r.Server = workload, label
		fmt.Fprintf(stderr, "%s: %s\n", workload, r.line())
		runs = append(runs, r)
	}
	return writePush(stdout, stderr, out, label, runs)
}

// warmUp imports once and waits until the subscriber has its first live score: the server
// publishes every record first when a database was never published, and that snapshot must
// not count as the runs' load.
func warmUp(ctx context.Context, ch *changer, sub *mqttSub) error {
	var marker int64
	ch.imported = func(score string, _ []string, _ *importTimes) { marker, _ = strconv.ParseInt(score, 10, 64) }
	stop := make(chan struct{})
	close(stop)
	if err := ch.run(ctx, stop); err != nil {
		return err
	}
	want := &writeRec{kind: "livescore", id: ch.targets.scores[0], seq: marker}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if at := arrivalsEach([]*writeRec{want}, [][]sighting{sub.sightings()}); !at[0][0].IsZero() {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("push: the MQTT subscriber did not see the first import within 3m")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// register adds a webhook for r through the API, for live scores and events.
func register(ctx context.Context, c pushConfig, key string, r *receiver) error {
	body, _ := json.Marshal(map[string]any{"url": r.url, "kinds": []string{"livescore", "event"}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v2/json/webhooks", strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	req.Header.Set("X-API-KEY", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("push: register a webhook: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("push: register a webhook: HTTP %d: %s", resp.StatusCode, answer)
	}
	return nil
}

// receiver is one webhook's local endpoint.
type receiver struct {
	role  string
	delay time.Duration
	url   string
	srv   *http.Server

	mu       sync.Mutex
	seen     []sighting
	answered int // 2xx answers
}

// startReceiver listens on a loopback port of its own, as a receiver on a host of its own
// would be reached.
func startReceiver(role string, delay time.Duration) (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("push: receiver: %w", err)
	}
	r := &receiver{role: role, delay: delay, url: "http://" + ln.Addr().String() + "/hook"}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	at := time.Now()
	if err != nil {
		return
	}
	switch r.role {
	case roleFailing:
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case roleSlow:
		select {
		case <-time.After(r.delay):
		case <-req.Context().Done():
			return
		}
	}
	sg, ok := deliverySighting(body)
	r.mu.Lock()
	r.answered++
	if ok {
		sg.at = at
		r.seen = append(r.seen, sg)
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// take returns what the receiver got since the last take, and forgets it.
func (r *receiver) take() ([]sighting, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen, n := r.seen, r.answered
	r.seen, r.answered = nil, 0
	return seen, n
}

// peek returns what the receiver got since the last take.
func (r *receiver) peek() []sighting {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen
}

func (r *receiver) close() { _ = r.srv.Close() }

// deliverySighting reads a delivery's record and marker: the message's kind and id, and its
// record's intHomeScore (the record follows the message's own fields).
func deliverySighting(body []byte) (sighting, bool) {
	sg := sighting{kind: jsonString(body, "kind"), id: jsonString(body, "id")}
	n, err := strconv.ParseInt(jsonString(body, "intHomeScore"), 10, 64)
	if err != nil || sg.kind == "" || !isDigits(sg.id) {
		return sighting{}, false
	}
	sg.seq = n
	return sg, true
}
