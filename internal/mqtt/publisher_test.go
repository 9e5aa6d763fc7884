package mqtt

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/testsupport"
)

func team(id, name string) record.Record {
	return rec(record.Team, "idTeam", id, "strTeam", name, "strSport", "Soccer", "idLeague", "4328")
}

func liveScore(id, event, sport, home, away string) record.Record {
	return rec(record.LiveScore, "idLiveScore", id, "idEvent", event, "strSport", sport,
		"idHomeTeam", "133604", "idAwayTeam", "133602", "strHomeTeam", "Arsenal", "strAwayTeam", "Liverpool",
		"intHomeScore", home, "intAwayScore", away, "strStatus", "2H", "strProgress", "67")
}

// Every change reaches a subscriber in cursor order, retained, as the v2 lookup writes the
// record; a live score also under its sport and event; a delete clears both topics.
func TestPublishesEveryChangeInOrder(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	sub := subscribe(t, b, prefix+"/#")
	pub := start(t, st, testOptions(b, prefix, clock.System{}))
	pub.waitStored(t, 0) // the snapshot of an empty store

	var recs []record.Record
	for i := range 30 {
		recs = append(recs, team(fmt.Sprint(1000+i), fmt.Sprintf("Team %d", i)))
	}
	write(t, st, recs...)
	for i := range 30 {
		id := fmt.Sprint(1000 + i)
		m := sub.next(t)
		if want := prefix + "/team/" + id; m.Topic != want {
			t.Fatalf("message %d on %s, want %s", i, m.Topic, want)
		}
		if want := payload(t, st, record.Team, id); m.Payload != want {
			t.Fatalf("team %s: payload %s, want %s", id, m.Payload, want)
		}
	}

	write(t, st, liveScore("9001", "441613", "American Football", "2", "1"))
	byID, bySport := sub.next(t), sub.next(t)
	want := payload(t, st, record.LiveScore, "9001")
	if byID.Topic != prefix+"/livescore/9001" || byID.Payload != want {
		t.Fatalf("live score: %+v, want it on %s", byID, prefix+"/livescore/9001")
	}
	if bySport.Topic != prefix+"/livescore/american_football/441613" || bySport.Payload != want {
		t.Fatalf("live score by sport: %+v", bySport)
	}

	remove(t, st, record.LiveScore, "9001")
	for _, topic := range []string{prefix + "/livescore/9001", prefix + "/livescore/american_football/441613"} {
		if m := sub.next(t); m.Topic != topic || m.Payload != "" {
			t.Fatalf("delete: %+v, want an empty payload on %s", m, topic)
		}
	}
}

// A subscriber that comes later finds the current state retained: the records the store held
// before the first start (the snapshot), later changes, and no deleted record.
func TestLateSubscriberFindsTheState(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	write(t, st, team("1", "Arsenal"), team("2", "Chelsea"), team("3", "Fulham"))
	pub := start(t, st, testOptions(b, prefix, clock.System{}))
	pub.waitStored(t, latest(t, st))
	write(t, st, team("2", "Chelsea FC"), liveScore("7", "70", "Soccer", "0", "0"))
	pub.waitStored(t, remove(t, st, record.Team, "3"))

	sub := subscribe(t, b, prefix+"/#")
	got := sub.retained(t, prefix+"/zz-sentinel")
	want := map[string]string{
		prefix + "/status":              online,
		prefix + "/team/1":              payload(t, st, record.Team, "1"),
		prefix + "/team/2":              payload(t, st, record.Team, "2"),
		prefix + "/livescore/7":         payload(t, st, record.LiveScore, "7"),
		prefix + "/livescore/soccer/70": payload(t, st, record.LiveScore, "7"),
	}
	if !strings.Contains(want[prefix+"/team/2"], "Chelsea FC") {
		t.Fatalf("team 2 not updated: %s", want[prefix+"/team/2"])
	}
	for topic, p := range want {
		if got[topic] != p {
			t.Errorf("%s: retained %q, want %q", topic, got[topic], p)
		}
	}
	for topic := range got {
		if _, ok := want[topic]; !ok {
			t.Errorf("%s retained, want nothing (deleted or never published)", topic)
		}
	}
}

// A publisher started again resumes from its stored cursor: every change committed while it
// was stopped arrives, and none it had published and stored comes again.
func TestResumesFromTheStoredCursor(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	sub := subscribe(t, b, prefix+"/#")
	first := start(t, st, testOptions(b, prefix, clock.System{}))
	first.waitStored(t, 0)
	first.waitStored(t, write(t, st, team("1", "A"), team("2", "B")))
	for range 2 {
		sub.next(t)
	}
	first.stop()

	write(t, st, team("3", "C"), team("4", "D"), team("1", "A2"))
	second := start(t, st, testOptions(b, prefix, clock.System{}))
	second.waitStored(t, latest(t, st))
	for _, id := range []string{"3", "4", "1"} {
		m := sub.next(t)
		if m.Topic != prefix+"/team/"+id || m.Payload != payload(t, st, record.Team, id) {
			t.Fatalf("after the restart: %+v, want team %s as stored", m, id)
		}
	}
	// Nothing more: a marker published now is the next message.
	if err := await(context.Background(), sub.c.Publish(prefix+"/zz-marker", 1, false, "x"), waitFor); err != nil {
		t.Fatal(err)
	}
	if m := sub.next(t); m.Topic != prefix+"/zz-marker" {
		t.Fatalf("after the restart, %+v came again", m)
	}
}

// With two replicas one publishes; when its lease runs out (it died without giving it
// back), the other takes over from the stored cursor.
func TestTakesOverAnExpiredLease(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	ctx := context.Background()
	leases := clock.NewManual(t0)
	if ok, err := st.TakePushLease(ctx, pushName, "dead", leases.Now(), 30*time.Second); err != nil || !ok {
		t.Fatalf("lease of the dead replica: %v, %v", ok, err)
	}
	if err := st.SavePushCursor(ctx, pushName, "dead", write(t, st, team("1", "A"))); err != nil {
		t.Fatal(err)
	}
	sub := subscribe(t, b, prefix+"/#")
	refused := make(chan struct{}, 1)
	cursor := write(t, st, team("2", "B"))
	pub := start(t, refusals{st, refused}, testOptions(b, prefix, leases))
	for range 2 { // refused, and so tried again, rather than gone on without it
		select {
		case <-refused:
		case <-time.After(waitFor):
			t.Fatal("the replica did not try the lease again")
		}
	}
	select {
	case m := <-sub.ch:
		t.Fatalf("published while another replica held the lease: %+v", m)
	case <-pub.stored:
		t.Fatal("stored a cursor while another replica held the lease")
	default:
	}
	leases.Advance(30 * time.Second)
	pub.waitStored(t, cursor)
	if m := sub.next(t); m.Topic != prefix+"/team/2" {
		t.Fatalf("after the takeover: %+v, want team 2 (team 1 was published)", m)
	}
	if err := st.SavePushCursor(ctx, pushName, "dead", cursor+1); err == nil {
		t.Fatal("the dead replica could still store a cursor")
	}
}

// A publisher whose lease went a whole TTL unrenewed (a stalled process, a database away)
// stops, even though the store would renew it then: another replica may have published and
// let it go meanwhile. It takes the lease again and goes on from the stored cursor.
func TestStartsAgainAfterItsLeaseLapsed(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	leases := clock.NewManual(t0)
	o := testOptions(b, prefix, leases)
	o.LeaseTTL = 150 * time.Millisecond // renewed every 50 ms, on the lease clock's time
	logs := make(chan string, 100)
	o.Log = newLineLogger(logs)
	pub := start(t, st, o)
	pub.waitStored(t, 0)
	leases.Advance(o.LeaseTTL)
	waitLog(t, logs, "lease lost")
	pub.waitStored(t, write(t, st, team("1", "A")))
}

// refusals is a store that tells refused when a lease is refused.
type refusals struct {
	Source
	refused chan struct{}
}

func (r refusals) TakePushLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	ok, err := r.Source.TakePushLease(ctx, name, holder, now, ttl)
	if err == nil && !ok {
		select {
		case r.refused <- struct{}{}:
		default:
		}
	}
	return ok, err
}

// The availability topic says online while the publisher runs and offline once it stops;
// credentials never reach the log.
func TestAvailabilityAndNoSecretsLogged(t *testing.T) {
	b := testBroker(t)
	b.Username, b.Password = "sportsdb", "hunter2-secret"
	prefix := testPrefix(t, b)
	st := openStore(t)
	logs := &testsupport.LogBuffer{}
	o := testOptions(b, prefix, clock.System{})
	o.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	sub := subscribe(t, b, prefix+"/status")
	pub := start(t, st, o)
	expectStatus(t, sub, online)
	pub.stop()
	expectStatus(t, sub, offline)
	if strings.Contains(logs.String(), "hunter2") {
		t.Fatalf("the password reached the log: %s", logs.String())
	}
}

// A broker that cannot be reached delays publishing only: the publisher keeps trying, and
// counts the failures.
func TestBrokerDownIsRetried(t *testing.T) {
	st := openStore(t)
	o := testOptions(Broker{Addr: "mqtt://127.0.0.1:1"}, "sportsdbtest/down", clock.System{})
	o.Metrics = NewMetrics()
	logs := make(chan string, 100)
	o.Log = newLineLogger(logs)
	pub := start(t, st, o)
	for range 3 {
		waitLog(t, logs, "reconnecting")
	}
	pub.stop()
	if ok, err := st.TakePushLease(context.Background(), pushName, "other", time.Now(), time.Second); err != nil || !ok {
		t.Fatalf("a stopped publisher kept its lease: %v, %v", ok, err)
	}
}

// newLineLogger logs to ch, a line at a time.
func newLineLogger(ch chan string) *slog.Logger {
	return slog.New(slog.NewTextHandler(lineWriter(ch), nil))
}

// waitLog waits for a log line holding want.
func waitLog(t *testing.T, ch chan string, want string) {
	t.Helper()
	for {
		select {
		case line := <-ch:
			if strings.Contains(line, want) {
				return
			}
		case <-time.After(waitFor):
			t.Fatalf("no log line with %q", want)
		}
	}
}

// lineWriter sends each log line to ch, dropping lines when it is full.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	select {
	case w <- string(p):
	default:
	}
	return len(p), nil
}

// A live score entry deleted while no publisher ran is cleared under its sport and event
// too, when the publisher resumes: its topic comes from the broker's retained message.
func TestClearsALiveScoreDeletedWhileStopped(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	first := start(t, st, testOptions(b, prefix, clock.System{}))
	first.waitStored(t, 0)
	first.waitStored(t, write(t, st, liveScore("5", "50", "Ice Hockey", "1", "0")))
	first.stop()

	cursor := remove(t, st, record.LiveScore, "5")
	sub := subscribe(t, b, prefix+"/livescore/#")
	if got := sub.retained(t, prefix+"/livescore/zz-sentinel"); len(got) != 2 {
		t.Fatalf("retained before the restart: %v, want the entry twice", got)
	}
	second := start(t, st, testOptions(b, prefix, clock.System{}))
	second.waitStored(t, cursor)
	cleared := map[string]bool{}
	for range 2 {
		m := sub.next(t)
		if m.Payload != "" {
			t.Fatalf("%+v, want a cleared topic", m)
		}
		cleared[m.Topic] = true
	}
	if !cleared[prefix+"/livescore/5"] || !cleared[prefix+"/livescore/ice_hockey/50"] {
		t.Fatalf("cleared %v, want both topics of the entry", cleared)
	}
}
