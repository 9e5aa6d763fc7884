package mirror

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

const hostileKey = "HOSTILEKEY4242"

// hostile is an upstream written to misbehave: answer decides what each request gets; it
// counts the requests it sees and keeps their headers.
type hostile struct {
	srv    *httptest.Server
	answer func(w http.ResponseWriter, r *http.Request)

	mu   sync.Mutex
	seen []*http.Request
}

func newHostile(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *hostile {
	h := &hostile{answer: answer}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.seen = append(h.seen, r)
		h.mu.Unlock()
		h.answer(w, r)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hostile) requests() []*http.Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*http.Request(nil), h.seen...)
}

// textLogger logs to l as text, for the test to read.
func textLogger(l *testsupport.LogBuffer) *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// hostileFetcher reads through to h for a store holding Arsenal (133604), imported.
func hostileFetcher(t *testing.T, h *hostile, clk Clock, rate int) (*Fetcher, store.Store, *testsupport.LogBuffer) {
	t.Helper()
	env := apitest.New(t, apitest.Options{})
	err := env.Store.Write(context.Background(), func(tx store.Tx) error {
		_, err := ingest.Response(context.Background(), tx, []byte(`{"teams":[{"idTeam":"133604","strTeam":"Arsenal","idLeague":"4328"}]}`), "/api/v1/json/3/lookupteam.php?id=133604")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	logs := &testsupport.LogBuffer{}
	f, err := NewFetcher(FetcherOptions{From: h.srv.URL, Key: hostileKey, Store: env.Store, Clock: clk, Rate: rate, Logger: textLogger(logs)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, env.Store, logs
}

func teamName(t *testing.T, st store.Store, id string) string {
	t.Helper()
	r, err := st.Get(context.Background(), record.Team, id)
	if errors.Is(err, store.ErrNotFound) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return r.Str("strTeam")
}

// A redirect off the upstream's origin is not followed, by read-through or the mirror, on
// v1 (the key in the path) or v2 (the key in a header): the other host sees nothing, and
// nothing it would answer is stored. A redirect on the origin is followed without a Referer.
func TestRedirectKeepsTheKeyOnTheOrigin(t *testing.T) {
	other := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"teams":[{"idTeam":"999","strTeam":"Elsewhere"}]}`)
	})
	var up *hostile
	up = newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.Path, "/moved/"):
			fmt.Fprint(w, `{"teams":[{"idTeam":"999","strTeam":"Moved"}]}`)
		case strings.Contains(r.URL.RawQuery, "id=999"):
			http.Redirect(w, r, up.srv.URL+"/moved/"+r.URL.Path, http.StatusFound)
		default:
			http.Redirect(w, r, other.srv.URL+r.URL.Path+"?"+r.URL.RawQuery, http.StatusFound)
		}
	})
	f, st, logs := hostileFetcher(t, up, newFakeClock(), 0)
	for _, c := range []struct{ version, path string }{
		{"v1", "lookupteam.php?id=133605"}, {"v2", "lookup/team/133605"},
	} {
		changed, _ := f.Ensure(context.Background(), c.version, c.path)
		if changed {
			t.Errorf("%s: the redirected answer was stored", c.path)
		}
	}
	if _, err := Run(context.Background(), Options{From: up.srv.URL, Key: hostileKey, Store: st, Clock: newFakeClock(),
		Leagues: []string{"4328"}, Logger: textLogger(logs)}); err != nil {
		t.Logf("mirror: %v", err)
	}
	if n := len(other.requests()); n > 0 {
		t.Fatalf("the other host saw %d requests (key in path or header: %v)", n, other.requests()[0].URL)
	}
	if teamName(t, st, "999") != "" {
		t.Error("an answer of the other host was stored")
	}
	if !strings.Contains(logs.String(), "redirected off its origin") {
		t.Errorf("no log line says the redirect was refused:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), hostileKey) {
		t.Error("the key shows in the log")
	}
	// On the origin: followed, without a Referer.
	if changed, err := f.Ensure(context.Background(), "v1", "lookupteam.php?id=999"); err != nil || !changed {
		t.Fatalf("same-origin redirect: changed %v, %v", changed, err)
	}
	for _, r := range up.requests() {
		if ref := r.Header.Get("Referer"); ref != "" {
			t.Errorf("%s came with Referer %q", r.URL.Path, ref)
		}
	}
}

// Read-through stores only records that answer its request: a lookup answered with another
// record, a search answered with records that do not match, or with more than the
// endpoint's cap, and a record that would rename one the store holds, change nothing.
func TestReadThroughStoresOnlyWhatAnswers(t *testing.T) {
	up := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case strings.HasSuffix(r.URL.Path, "lookupteam.php") && q.Get("id") == "700350101":
			fmt.Fprint(w, `{"teams":[{"idTeam":"133604","strTeam":"POISONED","idLeague":"4328"}]}`)
		case strings.HasSuffix(r.URL.Path, "lookupteam.php") && q.Get("id") == "133604":
			fmt.Fprint(w, `{"teams":[{"idTeam":"133604","strTeam":"POISONED","idLeague":"4328"}]}`)
		case strings.HasSuffix(r.URL.Path, "searchteams.php") && q.Get("t") == "spamteams":
			var b strings.Builder
			b.WriteString(`{"teams":[`)
			for i := range 10000 {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"idTeam":"%d","strTeam":"spamteams %d"}`, 800000000+i, i)
			}
			b.WriteString(`]}`)
			fmt.Fprint(w, b.String())
		case strings.HasSuffix(r.URL.Path, "searchteams.php"):
			fmt.Fprint(w, `{"teams":[{"idTeam":"700000001","strTeam":"Unrelated"},{"idTeam":"700000002","strTeam":"Chelsea"}]}`)
		default:
			fmt.Fprint(w, `{"teams":null}`)
		}
	})
	f, st, logs := hostileFetcher(t, up, newFakeClock(), 100000)
	ctx := context.Background()
	for _, p := range []string{"lookupteam.php?id=700350101", "lookupteam.php?id=133604", "searchteams.php?t=Chelsea", "searchteams.php?t=spamteams"} {
		if _, err := f.Ensure(ctx, "v1", p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if got := teamName(t, st, "133604"); got != "Arsenal" {
		t.Errorf("team 133604 is %q after read-through: a poisoned answer overwrote it", got)
	}
	if got := teamName(t, st, "700000001"); got != "" {
		t.Errorf("a search for Chelsea stored %q", got)
	}
	if got := teamName(t, st, "700000002"); got != "Chelsea" {
		t.Errorf("the record answering the search was not stored (%q)", got)
	}
	n, err := st.Count(ctx, record.Team)
	if err != nil {
		t.Fatal(err)
	}
	if n > 2+100 {
		t.Errorf("%d teams stored: a search stores at most its cap (100)", n)
	}
	for _, want := range []string{"answered from the store as it is", "lookupteam.php?id=700350101", "would rename a stored one", "past its cap"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no log line says %q:\n%.2000s", want, logs.String())
		}
	}
}

// A first run in which every request failed (the upstream down, or answering 500) is a
// failure naming the cause, not a run that mirrored nothing.
func TestFirstRunWhereEveryRequestFailed(t *testing.T) {
	up := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	})
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	for _, c := range []struct{ from, cause string }{{up.srv.URL, "HTTP 500"}, {down.URL, "network"}} {
		env := apitest.New(t, apitest.Options{})
		sum, err := Run(context.Background(), Options{From: c.from, Key: hostileKey, Store: env.Store, Clock: newFakeClock(), Retries: 2})
		if !errors.Is(err, errAllFailed) || !strings.Contains(err.Error(), c.cause) {
			t.Errorf("%s: summary %v, error %v: want a failure naming %q", c.from, sum, err, c.cause)
		}
		if sum.Requests != 0 {
			t.Errorf("%s: %d requests answered", c.from, sum.Requests)
		}
	}
}

// Retry-After is capped (2 minutes) and logged, and read-through holds back for it too.
func TestRetryAfterCappedAndHonoured(t *testing.T) {
	var mu sync.Mutex
	limited := true
	up := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if limited {
			limited = false
			w.Header().Set("Retry-After", "999999")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `{"sports":null}`)
	})
	clk := newFakeClock()
	env := apitest.New(t, apitest.Options{})
	logs := &testsupport.LogBuffer{}
	start := clk.Now()
	if _, err := Run(context.Background(), Options{From: up.srv.URL, Key: hostileKey, Store: env.Store, Clock: clk,
		Logger: textLogger(logs), Leagues: []string{"4328"}}); err != nil {
		t.Fatal(err)
	}
	if waited := clk.Now().Sub(start); waited > maxRetryAfter+time.Minute {
		t.Errorf("the mirror waited %v for Retry-After: 999999", waited)
	}
	if !strings.Contains(logs.String(), "waiting the cap") || !strings.Contains(logs.String(), "asked=277h46m39s") {
		t.Errorf("no log line tells the capped wait:\n%s", logs.String())
	}

	// Read-through: a 429 with Retry-After: 30 holds every read-through back 30 s.
	up2 := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	clk2 := newFakeClock()
	f, _, _ := hostileFetcher(t, up2, clk2, 100000)
	for i := range 10 {
		_, err := f.Ensure(context.Background(), "v1", fmt.Sprintf("lookupteam.php?id=%d", 1000+i))
		if i > 0 && !errors.Is(err, ErrBudgetSpent) {
			t.Errorf("request %d within Retry-After: %v, want ErrBudgetSpent", i, err)
		}
	}
	if n := len(up2.requests()); n != 1 {
		t.Errorf("the upstream saw %d requests within its Retry-After of 30 s, want 1", n)
	}
	clk2.Advance(31 * time.Second)
	f.Ensure(context.Background(), "v1", "lookupteam.php?id=2000")
	if n := len(up2.requests()); n != 2 {
		t.Errorf("after the Retry-After the upstream saw %d requests, want 2", n)
	}
}

// Read-through and a mirror of the same key share one budget through the database, without
// Redis: what one spent, the other waits for.
func TestBudgetSharedThroughTheDatabase(t *testing.T) {
	up := newHostile(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"teams":null}`) })
	clk := newFakeClock()
	f, st, _ := hostileFetcher(t, up, clk, 3)
	for i := range 3 {
		if _, err := f.Ensure(context.Background(), "v1", fmt.Sprintf("lookupteam.php?id=%d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	// Another read-through of the key (another process, a restarted one) finds it spent.
	g, err := NewFetcher(FetcherOptions{From: up.srv.URL, Key: hostileKey, Store: st, Clock: clk, Rate: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.Ensure(context.Background(), "v1", "lookupteam.php?id=9"); !errors.Is(err, ErrBudgetSpent) {
		t.Fatalf("a second read-through of the key: %v, want ErrBudgetSpent", err)
	}
	// A mirror of the key waits for the window before its first request.
	start := clk.Now()
	if _, err := Run(context.Background(), Options{From: up.srv.URL, Key: hostileKey, Store: st, Clock: clk, Rate: 3,
		Leagues: []string{"4328"}}); err != nil {
		t.Fatal(err)
	}
	if waited := clk.Now().Sub(start); waited < 59*time.Second {
		t.Errorf("the mirror did not wait for the budget read-through spent (waited %v)", waited)
	}
}
