package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Every change after the registration reaches the receiver in cursor order, signed so that
// the verifier of the specification accepts it, with the record as the v2 lookup writes it;
// a delete carries no record.
func TestDeliversEveryChangeInOrderSigned(t *testing.T) {
	st := openStore(t)
	write(t, st, team("1", "Before", "4328")) // before the registration: not sent
	rcv := newReceiver(t)
	h := register(t, st, rcv.URL+"/hook?token=x", Definition{})
	d := start(t, st, testOptions(clock.System{}, true))
	write(t, st, team("133604", "Arsenal", "4328"), team("133602", "Liverpool", "4328"))
	last := int64(0)
	for i, want := range []struct{ id, op string }{{"133604", "upsert"}, {"133602", "upsert"}, {"133604", "delete"}} {
		if i == 2 {
			remove(t, st, record.Team, "133604")
		}
		got := rcv.next(t)
		if err := verify(h.Secret, got.Header, got.Body, time.Now()); err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		m := got.Msg
		if m["kind"] != "team" || m["id"] != want.id || m["op"] != want.op {
			t.Fatalf("delivery %d: %s, want team %s %s", i, got.Body, want.id, want.op)
		}
		var c int64
		fmt.Sscan(m["cursor"].(string), &c)
		if c <= last {
			t.Fatalf("cursor %d after %d", c, last)
		}
		last = c
		if got.Header.Get("webhook-id") != fmt.Sprintf("msg_%s_%d", h.ID, c) || got.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", got.Header)
		}
		_, hasRecord := m["record"]
		if hasRecord != (want.op == "upsert") {
			t.Errorf("delivery %d: record present %v for %s", i, hasRecord, want.op)
		}
		if want.op == "upsert" && !strings.Contains(string(got.Body), `"record":{"idTeam":"`+want.id+`"`) {
			t.Errorf("delivery %d: record not as the v2 lookup writes it: %s", i, got.Body)
		}
		if e := d.next(t); e.Err != "" || e.Status != http.StatusNoContent {
			t.Errorf("attempt %+v", e)
		}
	}
	rcv.none(t)
	got, err := st.Webhook(context.Background(), h.ID)
	if err != nil || got.LastDelivery.IsZero() || got.Failures != 0 || got.LastStatus != 204 {
		t.Errorf("state after deliveries: %+v, %v", got.WebhookState, err)
	}
}

// A failing receiver is retried on the schedule, holding back its later messages, with
// the same webhook-id; after 24 hours the webhook is disabled with the reason; enabled
// again, it resumes with the held message and everything after it, in order.
func TestRetriesForADayThenDisablesAndResumes(t *testing.T) {
	st := openStore(t)
	clk := clock.NewManual(time.Now())
	rcv := newReceiver(t)
	rcv.status.Store(http.StatusServiceUnavailable)
	h := register(t, st, rcv.URL, Definition{})
	o := testOptions(clk, true)
	o.Metrics = NewMetrics()
	d := start(t, st, o)
	first := write(t, st, team("1", "A", "4328"))
	write(t, st, team("2", "B", "4328"))
	id := rcv.next(t).Header.Get("webhook-id")
	e := d.next(t)
	if e.Cursor != first || e.Status != 503 || e.Err != "HTTP 503" {
		t.Fatalf("first attempt %+v", e)
	}
	w, _ := st.Webhook(context.Background(), h.ID)
	if w.Failures != 1 || w.LastStatus != 503 || w.LastError != "HTTP 503" || !w.NextAttempt.Equal(clk.Now().Add(5*time.Second).Truncate(time.Millisecond)) {
		t.Fatalf("state after a failure: %+v (now %s)", w.WebhookState, clk.Now())
	}
	rcv.none(t) // held back: nothing before the next attempt is due
	elapsed := time.Duration(0)
	for n := 1; ; n++ {
		wait := Retry(n)
		clk.Advance(wait)
		elapsed += wait
		got := rcv.next(t)
		if got.Header.Get("webhook-id") != id {
			t.Fatalf("a retry of another message: %s", got.Body)
		}
		e := d.next(t)
		if e.Cursor != first {
			t.Fatalf("attempt %d delivered cursor %d, want %d", n, e.Cursor, first)
		}
		if e.Disabled {
			if elapsed < GiveUp {
				t.Fatalf("disabled after %s", elapsed)
			}
			break
		}
		if elapsed >= GiveUp {
			t.Fatalf("still active after %s", elapsed)
		}
	}
	if n := metricValue(t, o.Metrics, "sportsdb_webhook_disabled_total"); n != 1 {
		t.Errorf("sportsdb_webhook_disabled_total %v, want 1", n)
	}
	if n := metricValue(t, o.Metrics, "sportsdb_webhook_failures_total"); n < 20 {
		t.Errorf("sportsdb_webhook_failures_total %v", n)
	}
	w, _ = st.Webhook(context.Background(), h.ID)
	if w.Status != store.WebhookDisabled || !strings.Contains(w.Reason, "HTTP 503") || !strings.Contains(w.Reason, "24h") {
		t.Fatalf("disabled state %+v", w.WebhookState)
	}
	clk.Advance(time.Hour)
	write(t, st, team("3", "C", "4328"))
	rcv.none(t)
	// Enabled again (as the API's PATCH does): the held message, then the rest, in order.
	rcv.status.Store(http.StatusOK)
	if err := st.SetWebhookState(context.Background(), h.ID, store.WebhookState{Status: store.WebhookActive}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1", "2", "3"} {
		if got := rcv.next(t); got.Msg["id"] != want {
			t.Fatalf("after enabling got %s, want team %s", got.Body, want)
		}
	}
	for e := d.next(t); e.Cursor < write(t, st); e = d.next(t) {
	}
	if n := metricValue(t, o.Metrics, "sportsdb_webhook_delivered_total"); n != 3 {
		t.Errorf("sportsdb_webhook_delivered_total %v, want 3", n)
	}
	if n := metricValue(t, o.Metrics, "sportsdb_webhooks_delivering"); n != 1 {
		t.Errorf("sportsdb_webhooks_delivering %v, want 1", n)
	}
}

// metricValue is the value of one of the deliverer's metrics.
func metricValue(t *testing.T, m *Metrics, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.Collectors()...)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			if c := mf.Metric[0].GetCounter(); c != nil {
				return c.GetValue()
			}
			return mf.Metric[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// A receiver down for an hour gets everything in order once back; a receiver that never
// answers does not delay another webhook's deliveries.
func TestReceiverDownForAnHourAndAStuckOne(t *testing.T) {
	st := openStore(t)
	clk := clock.NewManual(time.Now())
	down, healthy := newReceiver(t), newReceiver(t)
	down.status.Store(http.StatusBadGateway)
	stuck := make(chan struct{})
	hung := newReceiver(t)
	t.Cleanup(func() { close(stuck) }) // before the receiver closes, which waits for it
	hung.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stuck:
		case <-r.Context().Done():
		}
	})
	register(t, st, hung.URL, Definition{})
	downHook := register(t, st, down.URL, Definition{})
	register(t, st, healthy.URL, Definition{})
	d := start(t, st, testOptions(clk, true))
	for i := 1; i <= 5; i++ {
		write(t, st, team(fmt.Sprint(i), "T", "4328"))
		if got := healthy.next(t); got.Msg["id"] != fmt.Sprint(i) {
			t.Fatalf("the healthy receiver got %s, want team %d", got.Body, i)
		}
	}
	// Each retry comes when the clock reaches it, for more than an hour; the clock moves
	// once the deliverer has stored the failure before it.
	failed := func() {
		t.Helper()
		for e := d.next(t); e.Webhook != downHook.ID; e = d.next(t) {
		}
		down.next(t)
	}
	failed()
	for n, elapsed := 1, time.Duration(0); elapsed < time.Hour; n++ {
		clk.Advance(Retry(n))
		elapsed += Retry(n)
		failed()
	}
	down.status.Store(http.StatusOK)
	clk.Advance(time.Hour)
	for i := 1; i <= 5; i++ {
		got := down.next(t)
		if got.Msg["id"] != fmt.Sprint(i) {
			t.Fatalf("back after an hour, got %s, want team %d", got.Body, i)
		}
	}
}

// A replica that died holding a webhook's lease is taken over once the lease runs out,
// from the cursor it stored after its last 2xx: only what was in flight comes again.
func TestTakeOverFromADeadReplica(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	clk := clock.NewManual(time.Now())
	rcv := newReceiver(t)
	h := register(t, st, rcv.URL, Definition{})
	delivered := write(t, st, team("1", "A", "4328"))
	write(t, st, team("2", "B", "4328"), team("3", "C", "4328"))
	// The dead replica delivered team 1 and stored its cursor; team 2 was in flight.
	if ok, err := st.TakePushLease(ctx, store.WebhookPush(h.ID), "dead", clk.Now(), 30*time.Second); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := st.SavePushCursor(ctx, store.WebhookPush(h.ID), "dead", delivered); err != nil {
		t.Fatal(err)
	}
	start(t, st, testOptions(clk, true))
	held := clk.Now()
	clk.Advance(31 * time.Second)
	// Nothing came while the dead replica's lease held: a delivery then would be signed
	// with the time before the clock moved, and would come first.
	for _, want := range []string{"2", "3"} {
		got := rcv.next(t)
		if got.Msg["id"] != want {
			t.Fatalf("after the takeover got %s, want team %s", got.Body, want)
		}
		if ts := got.Header.Get("webhook-timestamp"); ts == strconv.FormatInt(held.Unix(), 10) {
			t.Fatalf("team %s was delivered while the dead replica's lease held", want)
		}
	}
	rcv.none(t)
}

// A restarted deliverer resumes after the last 2xx: nothing lost, nothing repeated.
func TestRestartResumesFromTheStoredCursor(t *testing.T) {
	st := openStore(t)
	rcv := newReceiver(t)
	register(t, st, rcv.URL, Definition{})
	d := start(t, st, testOptions(clock.System{}, true))
	write(t, st, team("1", "A", "4328"))
	rcv.next(t)
	d.next(t)
	d.stop()
	write(t, st, team("2", "B", "4328"))
	start(t, st, testOptions(clock.System{}, true))
	if got := rcv.next(t); got.Msg["id"] != "2" {
		t.Fatalf("after the restart got %s, want team 2", got.Body)
	}
	rcv.none(t)
}

// Filters: kinds, and a league or team met by the record, its event, or (a delete) the
// change's index values.
func TestFilters(t *testing.T) {
	st := openStore(t)
	kinds := []string{"event", "livescore"}
	league, team1 := "4328", "133604"
	byKind, byLeague, byTeam := newReceiver(t), newReceiver(t), newReceiver(t)
	register(t, st, byKind.URL, Definition{Kinds: &kinds})
	register(t, st, byLeague.URL, Definition{League: &league})
	register(t, st, byTeam.URL, Definition{Team: &team1})
	start(t, st, testOptions(clock.System{}, true))
	write(t, st, team("133604", "Arsenal", "4328"), team("9", "Other", "4400"),
		event("100", "4328", "133604", "133602"), event("101", "4400", "9", "10"),
		rec(record.Lineup, "idLineup", "7", "idEvent", "100", "idPlayer", "5", "strPlayer", "P"))
	want := map[*receiver][]string{
		byKind:   {"event 100 upsert", "event 101 upsert"},
		byLeague: {"team 133604 upsert", "event 100 upsert", "lineup 7 upsert"},
		byTeam:   {"team 133604 upsert", "event 100 upsert", "lineup 7 upsert"},
	}
	for r, w := range want {
		for _, s := range w {
			got := r.next(t)
			if g := fmt.Sprintf("%s %s %s", got.Msg["kind"], got.Msg["id"], got.Msg["op"]); g != s {
				t.Fatalf("got %s, want %s", g, s)
			}
		}
	}
	remove(t, st, record.Event, "100")
	for _, r := range []*receiver{byKind, byLeague, byTeam} {
		if got := r.next(t); got.Msg["id"] != "100" || got.Msg["op"] != "delete" {
			t.Fatalf("got %s, want the delete of event 100", got.Body)
		}
	}
	write(t, st, team("11", "Sentinel", "4328"))
	byLeague.next(t)
	byKind.none(t)
	byTeam.none(t)
}

// Enabling a failing webhook (as PATCH and /enable do) retries at once, without waiting
// for the next attempt; a disabled one gets nothing while another webhook is delivered.
func TestEnableRetriesAtOnceAndDisableStops(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	clk := clock.NewManual(time.Now())
	rcv, other := newReceiver(t), newReceiver(t)
	rcv.status.Store(http.StatusInternalServerError)
	h := register(t, st, rcv.URL, Definition{})
	register(t, st, other.URL, Definition{})
	d := start(t, st, testOptions(clk, true))
	write(t, st, team("1", "A", "4328"))
	for e := d.next(t); e.Webhook != h.ID || e.Err == ""; e = d.next(t) {
	}
	rcv.next(t)
	other.next(t)
	rcv.status.Store(http.StatusOK)
	if err := st.SetWebhookState(ctx, h.ID, store.WebhookState{Status: store.WebhookActive}); err != nil {
		t.Fatal(err)
	}
	if got := rcv.next(t); got.Msg["id"] != "1" {
		t.Fatalf("after enabling got %s", got.Body)
	}
	if err := st.SetWebhookState(ctx, h.ID, store.WebhookState{Status: store.WebhookDisabled, Reason: "disabled by a key"}); err != nil {
		t.Fatal(err)
	}
	// Every attempt checks the webhook is still active before it sends, and its state write
	// cannot make it active again: by the time the other webhook has had the next two
	// changes, the disabled one has been woken for both and sent neither.
	write(t, st, team("2", "B", "4328"))
	write(t, st, team("3", "C", "4328"))
	for _, want := range []string{"2", "3"} {
		if got := other.next(t); got.Msg["id"] != want {
			t.Fatalf("the other webhook got %s, want team %s", got.Body, want)
		}
	}
	rcv.none(t)
}

// A receiver that does not answer within the request timeout is a failure, retried later.
func TestSlowReceiverTimesOut(t *testing.T) {
	st := openStore(t)
	release := make(chan struct{})
	slow := newReceiver(t)
	t.Cleanup(func() { close(release) })
	slow.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	h := register(t, st, slow.URL, Definition{})
	o := testOptions(clock.System{}, true)
	o.RequestTimeout = 50 * time.Millisecond
	d := start(t, st, o)
	write(t, st, team("1", "A", "4328"))
	if e := d.next(t); e.Webhook != h.ID || e.Status != 0 || e.Err != "no answer within 50ms" {
		t.Fatalf("attempt %+v", e)
	}
}

// A revoked key's webhooks deliver nothing more, as its requests and streams get nothing;
// another key's webhook goes on.
func TestRevokedOwnerDeliversNothing(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	api := NewAPI(Guard{AllowPrivate: true}, clock.Fixed(t0))
	receivers := map[string]*receiver{}
	for _, owner := range []string{"revoked-owner-hash", "active-owner-hash"} {
		if err := st.AddKey(ctx, store.Key{Hash: owner, Tier: store.Premium, Created: t0}); err != nil {
			t.Fatal(err)
		}
		rcv := newReceiver(t)
		url := rcv.URL
		if _, err := api.Register(ctx, st, owner, Definition{URL: &url}); err != nil {
			t.Fatal(err)
		}
		receivers[owner] = rcv
	}
	if err := st.RevokeKey(ctx, "revoked-owner-hash", t0); err != nil {
		t.Fatal(err)
	}
	write(t, st, team("1", "A", "4328"))
	d := start(t, st, testOptions(clock.System{}, true))
	if got := receivers["active-owner-hash"].next(t); got.Msg["id"] != "1" {
		t.Fatalf("the active key's webhook got %s, want team 1", got.Body)
	}
	d.stop() // every worker has ended: what the revoked key's webhook got, it has
	receivers["revoked-owner-hash"].none(t)
}

// Receivers that do not finish answering, as many as there are request slots, do not hold
// back a healthy one: a request that has taken SlowAfter gives its slot up. (Without that,
// the healthy receiver would wait for a slow request to end: a minute here, the slow
// receivers sending their headers at once and their body never.)
func TestSlowReceiversDoNotHoldBackTheOthers(t *testing.T) {
	st := openStore(t)
	stuck, started := make(chan struct{}), make(chan struct{}, 10)
	for range 2 {
		r := newReceiver(t)
		r.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			started <- struct{}{}
			select {
			case <-stuck:
			case <-req.Context().Done():
			}
		})
		register(t, st, r.URL, Definition{})
	}
	t.Cleanup(func() { close(stuck) }) // before the receivers close, which wait for them
	o := testOptions(clock.System{}, true)
	o.Concurrency, o.RequestTimeout, o.SlowAfter = 2, time.Minute, 20*time.Millisecond
	start(t, st, o)
	write(t, st, team("1", "A", "4328"))
	for range 2 {
		select {
		case <-started:
		case <-time.After(waitFor):
			t.Fatal("the slow receivers got no request")
		}
	}
	// Both slots were taken by the slow requests, which go on.
	healthy := newReceiver(t)
	register(t, st, healthy.URL, Definition{})
	write(t, st, team("2", "B", "4328"))
	if got := healthy.next(t); got.Msg["id"] != "2" {
		t.Fatalf("the healthy receiver got %s", got.Body)
	}
}

// A change is delivered as soon as the data version shows a commit, not at the next read of
// the webhooks: with that read an hour apart, the change still comes.
func TestACommitWakesTheDeliverer(t *testing.T) {
	st := openStore(t)
	r := newReceiver(t)
	register(t, st, r.URL, Definition{})
	o := testOptions(clock.System{}, true)
	o.Poll, o.VersionPoll = time.Hour, 5*time.Millisecond
	start(t, st, o)
	write(t, st, team("1", "A", "4328"))
	if got := r.next(t); got.Msg["id"] != "1" {
		t.Fatalf("got %s", got.Body)
	}
	write(t, st, team("2", "B", "4328"))
	if got := r.next(t); got.Msg["id"] != "2" {
		t.Fatalf("got %s", got.Body)
	}
}
