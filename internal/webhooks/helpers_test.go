package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
	"sportsdb/internal/store/storetest"
	"sportsdb/internal/testsupport"
)

// waitFor bounds every wait: a test that gets no event fails, never hangs.
const waitFor = 15 * time.Second

var t0 = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	return storetest.Opened(t, func(ctx context.Context) (*sqlite.Store, error) { return sqlite.Open(ctx, path) })
}

func team(id, name, league string) record.Record {
	return rec(record.Team, "idTeam", id, "strTeam", name, "strSport", "Soccer", "idLeague", league)
}

func event(id, league, home, away string) record.Record {
	return rec(record.Event, "idEvent", id, "strEvent", "Home vs Away", "idLeague", league, "idHomeTeam", home, "idAwayTeam", away,
		"dateEvent", "2026-10-05", "strSport", "Soccer")
}

// delivery is one request a receiver got.
type delivery struct {
	Header http.Header
	Body   []byte
	Msg    map[string]any
}

// receiver is a local HTTP server that records what it is sent and answers status.
type receiver struct {
	*httptest.Server
	got    chan delivery
	status atomic.Int64
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{got: make(chan delivery, 1000)}
	r.status.Store(http.StatusNoContent)
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		d := delivery{Header: req.Header.Clone(), Body: body}
		_ = jsonUnmarshal(body, &d.Msg)
		r.got <- d
		w.WriteHeader(int(r.status.Load()))
	}))
	t.Cleanup(r.Close)
	return r
}

// next waits for the receiver's next request.
func (r *receiver) next(t *testing.T) delivery {
	t.Helper()
	select {
	case d := <-r.got:
		return d
	case <-time.After(waitFor):
		t.Fatal("the receiver got nothing")
	}
	return delivery{}
}

// none says the receiver got nothing so far.
func (r *receiver) none(t *testing.T) {
	t.Helper()
	select {
	case d := <-r.got:
		t.Fatalf("the receiver got %s", d.Body)
	default:
	}
}

// running is a deliverer a test started; events get every attempt.
type running struct {
	events chan Event
	stop   func()
}

func testOptions(clk clock.Clock, allowPrivate bool) Options {
	return Options{Guard: Guard{AllowPrivate: allowPrivate}, Clock: clk, Poll: 5 * time.Millisecond,
		LeaseRetry: time.Second, Log: slog.New(slog.NewTextHandler(&testsupport.LogBuffer{}, nil))}
}

func start(t *testing.T, src Source, o Options) *running {
	t.Helper()
	r := &running{events: make(chan Event, 1000)}
	o.Observe = func(e Event) { r.events <- e }
	d := New(src, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	var once sync.Once
	r.stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(r.stop)
	return r
}

// next waits for the deliverer's next attempt.
func (r *running) next(t *testing.T) Event {
	t.Helper()
	select {
	case e := <-r.events:
		return e
	case <-time.After(waitFor):
		t.Fatal("no delivery attempt")
	}
	return Event{}
}

// register stores a webhook of owner "" to url with the given filters, as the API does.
func register(t *testing.T, st Store, url string, d Definition) store.Webhook {
	t.Helper()
	d.URL = &url
	h, err := NewAPI(Guard{AllowPrivate: true}, clock.Fixed(t0)).Register(context.Background(), st, "", d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// verify checks a delivery's signature as the Standard Webhooks specification says a
// receiver must, written from the specification rather than from Sign: the signed content
// is "{webhook-id}.{webhook-timestamp}.{body}", the key the base64 after "whsec_", the
// header space-separated "v1,{base64}" signatures of which one must match, and the
// timestamp within a tolerance of now.
func verify(secret string, h http.Header, body []byte, now time.Time) error {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("missing headers")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("bad timestamp %q", ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("timestamp %s too far from now", ts)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(body)))
	want := mac.Sum(nil)
	for _, s := range strings.Split(sigs, " ") {
		version, sig, ok := strings.Cut(s, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("no signature matches")
}

// The store helpers of every store test.
var (
	rec    = storetest.Rec
	write  = storetest.WriteEach
	remove = storetest.Remove
)
