package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/webhooks"
)

// The push checks: a server delivering a webhook (and publishing to MQTT, with
// SPORTSDB_TEST_MQTT) is killed with SIGKILL while a delivery is in flight, and started
// again on the same database. The receiver must get every change once, in cursor order,
// repeating only the message in flight; the broker must hold every record's latest state,
// with publishing resumed from the stored cursor.

// The imports: batch 0 is delivered and published (its MQTT cursor stored) before
// batch 1 is imported; the server is killed while the receiver holds batch 1's
// pushHold-th message unanswered; batch 2 is imported after the restart.
const (
	pushBatch   = 20
	pushBatches = 3
	pushHold    = pushBatch + 5
)

// pushWait bounds every wait of the push checks: the restarted server takes the killed
// one's leases over after their 30 s, then delivers the rest.
const pushWait = 2 * time.Minute

func checkPushKillSQLite(ctx context.Context, cfg *config, t *T) {
	fx, err := demoDB(ctx, cfg, "push-kill")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	pushKill(ctx, cfg, t, fx, "push-kill-sqlite")
}

func checkPushKillPostgres(ctx context.Context, cfg *config, t *T) {
	fx, drop, err := pgFixture(ctx, cfg)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer drop()
	pushKill(ctx, cfg, t, fx, "push-kill-postgres")
}

// pushKill registers a webhook, imports teams, kills the server while the receiver holds a
// delivery, restarts it, imports more, and checks what the receiver and the broker got.
func pushKill(ctx context.Context, cfg *config, t *T, fx *fixture, name string) {
	rcv, err := startHookReceiver(pushHold)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	defer rcv.close()
	out, err := mustCLI(ctx, cfg, "webhooks", "add", rcv.url, "--kinds", "team", "--owner", fx.premium, "--webhook-allow-private", "--db", fx.db)
	if f := strings.Fields(out); err != nil || len(f) != 2 {
		t.Fail("webhooks add: %v %q", err, out)
		return
	} else {
		rcv.secret = f[1]
	}
	args := []string{"--db", fx.db, "--webhook-allow-private"}
	var sub *mqttWatch
	switch {
	case cfg.mqtt != "":
		prefix := fmt.Sprintf("sportsdb-reliability-%d-%s", os.Getpid(), randLower(cfg, 8))
		if sub, err = watchMQTT(cfg.mqtt, prefix); err != nil {
			t.Fail("%v", err)
			return
		}
		defer sub.close()
		args = append(args, "--mqtt", cfg.mqtt, "--mqtt-prefix", prefix)
	case cfg.ci:
		t.Fail("SPORTSDB_TEST_MQTT is not set: the MQTT half of the check cannot run")
	default:
		t.Figure("MQTT", "not checked (no SPORTSDB_TEST_MQTT)")
	}
	srv, err := startReadyServer(ctx, cfg, name, args...)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	// The first publication of the whole store ends with its cursor stored; killed before
	// that, it starts over, so the kill waits for it.
	if sub != nil && !waitMetric(ctx, srv, "sportsdb_mqtt_cursor", 1) {
		t.Fail("MQTT: the first publication of the store did not end within %v", pushWait)
		srv.kill()
		return
	}
	imported, err := pushImport(ctx, cfg, srv, fx, 0)
	if err != nil {
		t.Fail("%v", err)
		srv.kill()
		return
	}
	// Batch 0 delivered and, with MQTT, its cursor stored: after the restart the publisher
	// must resume after it.
	if !rcv.waitAll(ctx, imported) {
		t.Fail("the receiver did not get the first %d changes within %v", pushBatch, pushWait)
		srv.kill()
		return
	}
	if sub != nil && (!waitMetric(ctx, srv, "sportsdb_mqtt_cursor", float64(imported[len(imported)-1])) || !sub.waitTeams(ctx, pushNames(0))) {
		t.Fail("MQTT: the first %d changes were not published, and their cursor stored, within %v", pushBatch, pushWait)
		srv.kill()
		return
	}
	if _, err := pushImport(ctx, cfg, srv, fx, 1); err != nil {
		t.Fail("%v", err)
		srv.kill()
		return
	}
	if !waitFor(ctx, rcv.held, pushWait) {
		t.Fail("the receiver did not get %d messages within %v", pushHold, pushWait)
		srv.kill()
		return
	}
	srv.kill()
	close(rcv.release)
	killedAt := 0
	if sub != nil {
		killedAt = sub.count()
	}
	t.Figure("killed with a delivery in flight", "message %d", pushHold)

	srv, err = startReadyServer(ctx, cfg, name+"-restarted", args...)
	if err != nil {
		t.Fail("restart: %v", err)
		return
	}
	defer srv.stop()
	restarted := time.Now()
	want, err := pushImport(ctx, cfg, srv, fx, 2)
	if err != nil {
		t.Fail("%v", err)
		return
	}
	if !rcv.waitAll(ctx, want) {
		t.Fail("the receiver got %d of the %d changes within %v of the restart", len(rcv.distinct()), len(want), pushWait)
	}
	t.Figure("all delivered after the restart", "%.1f s (the killed server's lease lasts 30 s)", time.Since(restarted).Seconds())
	checkDeliveries(t, rcv, want)
	if sub != nil {
		checkPublished(ctx, t, sub, killedAt)
	}
}

// startReadyServer starts a server and waits until /readyz answers 200.
func startReadyServer(ctx context.Context, cfg *config, name string, args ...string) (*server, error) {
	srv, err := startServer(ctx, cfg, name, args...)
	if err != nil {
		return nil, err
	}
	hc := newClient(5 * time.Second)
	deadline := time.Now().Add(pushWait)
	for {
		if a, err := get(ctx, hc, srv.base+"/readyz", ""); err == nil && a.status == http.StatusOK {
			return srv, nil
		}
		if time.Now().After(deadline) || srv.exited() {
			srv.kill()
			return nil, fmt.Errorf("%s: /readyz did not answer 200 within %v", name, pushWait)
		}
		select {
		case <-ctx.Done():
			srv.kill()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitMetric waits until the server's /metrics gives the metric at least least, at most
// pushWait.
func waitMetric(ctx context.Context, srv *server, name string, least float64) bool {
	hc := newClient(5 * time.Second)
	deadline := time.Now().Add(pushWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if a, err := get(ctx, hc, srv.base+"/metrics", ""); err == nil {
			for _, line := range strings.Split(string(a.body), "\n") {
				if v, ok := strings.CutPrefix(line, name+" "); ok {
					if f, err := strconv.ParseFloat(v, 64); err == nil && f >= least {
						return true
					}
				}
			}
		}
		time.Sleep(50 * time.Millisecond) // the next look at /metrics
	}
	return false
}

// waitFor waits until ch is closed, at most d.
func waitFor(ctx context.Context, ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
	case <-ctx.Done():
	}
	return false
}

// pushID0 is the id of the first pushed team; pushID is the id of the i-th.
const pushID0 = 31000000

func pushID(i int) string { return strconv.Itoa(pushID0 + i) }

// pushImport imports the teams of a batch (new teams, named after it) and returns the
// cursors of the pushed teams' changes so far, read from the change feed.
func pushImport(ctx context.Context, cfg *config, srv *server, fx *fixture, batch int) ([]int64, error) {
	var b strings.Builder
	for i := batch * pushBatch; i < (batch+1)*pushBatch; i++ {
		fmt.Fprintln(&b, team(pushID(i), pushName(i)))
	}
	file := filepath.Join(cfg.work, fmt.Sprintf("push-%d.ndjson", batch))
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	if _, err := mustCLI(ctx, cfg, "import", "--db", fx.db, file); err != nil {
		return nil, fmt.Errorf("import batch %d: %w", batch, err)
	}
	a, err := get(ctx, newClient(10*time.Second), srv.base+"/api/v2/json/changes?since=0&kinds=team&limit=1000", fx.premium)
	if err != nil || a.status != http.StatusOK {
		return nil, fmt.Errorf("the change feed: %d %v", a.status, err)
	}
	var feed struct {
		Changes []struct{ Cursor, ID string }
	}
	if err := json.Unmarshal(a.body, &feed); err != nil {
		return nil, fmt.Errorf("the change feed: %w", err)
	}
	var cursors []int64
	for _, c := range feed.Changes {
		if n, err := strconv.Atoi(c.ID); err == nil && n >= pushID0 && n < pushID0+pushBatch*pushBatches {
			cur, err := strconv.ParseInt(c.Cursor, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("the change feed: cursor %q", c.Cursor)
			}
			cursors = append(cursors, cur)
		}
	}
	if len(cursors) != (batch+1)*pushBatch {
		return nil, fmt.Errorf("the change feed holds %d changes of the %d teams imported", len(cursors), (batch+1)*pushBatch)
	}
	return cursors, nil
}

// pushName is the name the imports give the i-th pushed team.
func pushName(i int) string { return fmt.Sprintf("RelPush b%d %d", i/pushBatch, i%pushBatch) }

// checkDeliveries: every change of want delivered, in cursor order, validly signed, and
// nothing twice but the message held at the kill, at most once more.
func checkDeliveries(t *T, rcv *hookReceiver, want []int64) {
	got := rcv.arrivals()
	if d := rcv.distinct(); !slices.Equal(d, want) {
		t.Fail("delivered cursors, first arrivals in order: %v; want %v", d, want)
	}
	held := got[pushHold-1].cursor
	times := map[int64]int{}
	last := int64(0)
	for i, a := range got {
		times[a.cursor]++
		if !a.signed {
			t.Fail("delivery %d (cursor %d) has no valid signature", i+1, a.cursor)
		}
		if a.cursor < last && a.cursor != held {
			t.Fail("delivery %d: cursor %d after %d", i+1, a.cursor, last)
		}
		last = max(last, a.cursor)
	}
	for c, n := range times {
		if n > 1 && (c != held || n > 2) {
			t.Fail("cursor %d delivered %d times (the message in flight at the kill was cursor %d)", c, n, held)
		}
	}
	t.Figure("deliveries", "%d for %d changes; the message in flight came again: %v", len(got), len(want), times[held] == 2)
}

// delivery is one request the receiver got.
type delivery struct {
	cursor int64
	signed bool
}

// hookReceiver is a webhook's receiver that holds its hold-th request unanswered until
// release is closed, and notes every request in arrival order.
type hookReceiver struct {
	url, secret string
	srv         *http.Server
	hold        int
	held        chan struct{} // closed when the hold-th request came
	release     chan struct{}

	mu      sync.Mutex
	got     []delivery
	arrived chan struct{} // a value after each request
}

func startHookReceiver(hold int) (*hookReceiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("receiver: %w", err)
	}
	r := &hookReceiver{url: "http://" + ln.Addr().String() + "/hook", hold: hold, held: make(chan struct{}),
		release: make(chan struct{}), arrived: make(chan struct{}, 1)}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *hookReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		return
	}
	var m struct{ Cursor string }
	_ = json.Unmarshal(body, &m)
	d := delivery{}
	d.cursor, _ = strconv.ParseInt(m.Cursor, 10, 64)
	ts, _ := strconv.ParseInt(req.Header.Get("webhook-timestamp"), 10, 64)
	msgID := req.Header.Get("webhook-id")
	if sig, err := webhooks.Sign(r.secret, msgID, ts, body); err == nil {
		d.signed = sig == req.Header.Get("webhook-signature") && strings.HasSuffix(msgID, "_"+m.Cursor)
	}
	r.mu.Lock()
	r.got = append(r.got, d)
	n := len(r.got)
	r.mu.Unlock()
	select {
	case r.arrived <- struct{}{}:
	default:
	}
	if n == r.hold {
		close(r.held)
		<-r.release // the server is killed meanwhile: this answer reaches no one
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (r *hookReceiver) arrivals() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// distinct are the cursors received, each at its first arrival.
func (r *hookReceiver) distinct() []int64 {
	var out []int64
	for _, d := range r.arrivals() {
		if !slices.Contains(out, d.cursor) {
			out = append(out, d.cursor)
		}
	}
	return out
}

// waitAll waits until every cursor of want has arrived, at most pushWait.
func (r *hookReceiver) waitAll(ctx context.Context, want []int64) bool {
	deadline := time.After(pushWait)
	for {
		d := r.distinct()
		if !slices.ContainsFunc(want, func(c int64) bool { return !slices.Contains(d, c) }) {
			return true
		}
		select {
		case <-r.arrived:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (r *hookReceiver) close() {
	select {
	case <-r.release:
	default:
		close(r.release)
	}
	_ = r.srv.Close()
}
