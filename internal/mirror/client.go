package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"sportsdb/internal/ratelimit"
)

// client asks the upstream, within the rate budget, retrying what retrying can fix.
type client struct {
	base    string // scheme and host, without a trailing slash
	key     string
	http    *http.Client
	clock   Clock
	limiter ratelimit.Limiter
	// budgetID names the budget in the limiter: the mirror and read-through of one key share it.
	budgetID string
	rate     int
	retries  int
	backoff  time.Duration // the first retry's wait; each next one doubles, with jitter
	// sent holds each of this client's slots until 60 s after its answer came (see sentLog).
	sent sentLog
	// paused holds every request back while the upstream asked to wait (Retry-After).
	paused pause
	log    *slog.Logger
}

// newClient is the client of checked options (see Options.defaults).
func newClient(o Options) (*client, error) {
	base := strings.TrimRight(o.From, "/")
	hc, err := guarded(o.HTTP, base, o.Logger)
	if err != nil {
		return nil, err
	}
	rate := o.Rate
	if rate == 0 {
		rate = DefaultRate
	}
	return &client{base: base, key: o.Key, http: hc, clock: o.Clock, limiter: o.Limiter,
		budgetID: BudgetID(o.Key), rate: rate, log: o.Logger}, nil
}

// sentLog holds the client's own requests against its rate until a minute after each was
// answered. The limiter counts a request when its slot is taken, just before it is sent;
// the upstream counts it when it arrives, which may be later (a new connection, a busy
// machine, a slow network), and a request whose slot is reused 60 s after it was taken
// could then reach the upstream within 60 s of the earlier one. A request has arrived by
// the time its answer comes: counted until then and for 60 s after, no 60 s of the
// upstream's sees more than the rate of this client's requests.
type sentLog struct {
	mu       sync.Mutex
	inFlight int
	answered []time.Time // when each answer of the last 60 s came, oldest first
}

// take waits until fewer than rate requests are in flight or were answered within 60 s,
// and counts one more in flight.
func (l *sentLog) take(ctx context.Context, clk Clock, rate int) error {
	for {
		now := clk.Now()
		l.mu.Lock()
		i := 0
		for i < len(l.answered) && !now.Before(l.answered[i].Add(ratelimit.Window)) {
			i++
		}
		l.answered = l.answered[i:]
		if l.inFlight+len(l.answered) < rate {
			l.inFlight++
			l.mu.Unlock()
			return nil
		}
		// Every slot in flight: poll for an answer.
		wait := 10 * time.Millisecond
		if len(l.answered) > 0 {
			wait = max(l.answered[0].Add(ratelimit.Window).Sub(now), time.Millisecond)
		}
		l.mu.Unlock()
		if err := clk.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// done ends a request taken: answered (or failed) at at, or, when at is zero, never sent.
func (l *sentLog) done(at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	if !at.IsZero() {
		l.answered = append(l.answered, at)
	}
}

// errBadKey stops everything: the upstream refuses the key itself.
var errBadKey = errors.New("the upstream refuses the key (Invalid API key)")

// answer is the outcome of one request that the upstream did answer.
type answer struct {
	// status is "ok" (body holds records or null), "message" (it holds a message instead)
	// or "refused" (an HTTP error that retrying cannot change: 404, 400).
	status string
	body   []byte
	note   string
	// free gives the body's bytes back to the in-flight budget; nil when none are held.
	free func()
}

// release gives the answer's bytes back once it is stored or dropped.
func (a answer) release() {
	if a.free != nil {
		a.free()
	}
}

// target is the request of a frontier URL ("v1/file.php?q" or "v2/path"), and the same
// with the key masked, for logs, errors and the importer.
func (c *client) target(u string) (req *http.Request, masked string, err error) {
	version, rest, _ := strings.Cut(u, "/")
	var full string
	switch version {
	case "v1":
		full = c.base + "/api/v1/json/" + c.key + "/" + rest
		masked = "/api/v1/json/***/" + rest
	case "v2":
		full = c.base + "/api/v2/json/" + rest
		masked = "/api/v2/json/" + rest
	default:
		return nil, "", fmt.Errorf("frontier URL %q: want v1/ or v2/", u)
	}
	req, err = http.NewRequest(http.MethodGet, full, nil)
	if err != nil {
		return nil, masked, fmt.Errorf("request %s: %w", masked, scrub(err, c.key))
	}
	if version == "v2" {
		req.Header.Set("X-API-KEY", c.key)
	}
	req.Header.Set("User-Agent", "sportsdb-mirror")
	return req, masked, nil
}

// get fetches a frontier URL: it waits for the rate budget, obeys 429 and Retry-After, and
// retries 5xx answers, network errors and broken bodies with backoff and jitter, at most
// c.retries times. The error names the request with the key masked.
func (c *client) get(ctx context.Context, u string) (answer, error) {
	var last error
	for attempt := 0; ; attempt++ {
		if d := c.paused.left(c.clock.Now()); d > 0 {
			if err := c.clock.Sleep(ctx, d); err != nil {
				return answer{}, err
			}
		}
		if err := c.sent.take(ctx, c.clock, c.rate); err != nil {
			return answer{}, err
		}
		if err := c.wait(ctx); err != nil {
			c.sent.done(time.Time{})
			return answer{}, err
		}
		req, masked, err := c.target(u)
		if err != nil {
			c.sent.done(time.Time{})
			return answer{}, err
		}
		a, retryAfter, err := c.once(ctx, req)
		c.sent.done(c.clock.Now())
		if err == nil {
			return a, nil
		}
		if errors.Is(err, errBadKey) || ctx.Err() != nil {
			return answer{}, err
		}
		last = fmt.Errorf("%s: %w", masked, scrub(err, c.key))
		if attempt >= c.retries {
			return answer{}, last
		}
		wait := c.backoffFor(attempt)
		if retryAfter > 0 {
			// Every request of the client waits with this one.
			wait = c.paused.set(c.clock.Now(), retryAfter, masked+": "+err.Error(), c.log)
		}
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return answer{}, err
		}
	}
}

// wait takes one slot of the rolling-window budget, sleeping until the window frees one.
func (c *client) wait(ctx context.Context) error {
	return takeSlot(ctx, c.limiter, c.clock, c.budgetID, c.rate, "rate budget")
}

// takeSlot takes one of rate slots of budget id (named what in an error of the limiter),
// sleeping on clk until the window frees one.
func takeSlot(ctx context.Context, l ratelimit.Limiter, clk Clock, id string, rate int, what string) error {
	for {
		d, err := l.Allow(ctx, id, rate)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if d.Allowed {
			return nil
		}
		if err := clk.Sleep(ctx, max(d.RetryAfter, time.Millisecond)); err != nil {
			return err
		}
	}
}

func (c *client) backoffFor(attempt int) time.Duration {
	d := c.backoff << min(attempt, 10)
	d = min(d, time.Minute)
	// Full jitter on half the wait: replicas that failed together do not retry together.
	return d/2 + rand.N(d/2+1)
}

// retryable is an answer worth asking again; retryAfter is the wait the upstream asked for.
type retryable struct {
	msg string
}

func (e *retryable) Error() string { return e.msg }

// once sends one request. A nil error is a final answer; an error with retryAfter > 0 is a
// 429 to wait out.
func (c *client) once(ctx context.Context, req *http.Request) (answer, time.Duration, error) {
	resp, err := c.http.Do(req.WithContext(ctx))
	if errors.Is(err, errOffOrigin) {
		return answer{status: "refused", note: "redirected off the upstream's origin; not followed"}, 0, nil
	}
	if err != nil {
		return answer{}, 0, &retryable{msg: "network: " + err.Error()}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return answer{}, c.retryAfter(resp.Header), &retryable{msg: "HTTP 429 (rate limited by the upstream)"}
	case resp.StatusCode >= 500:
		return answer{}, c.retryAfter(resp.Header), &retryable{msg: "HTTP " + strconv.Itoa(resp.StatusCode)}
	}
	body, free, err := readBody(resp.Body, resp.ContentLength)
	switch {
	case errors.Is(err, errTooLarge):
		return answer{status: "refused", note: err.Error()}, 0, nil
	case errors.Is(err, errCrowded):
		return answer{}, 0, &retryable{msg: err.Error()}
	case err != nil:
		return answer{}, 0, &retryable{msg: "body cut short: " + err.Error()}
	}
	var a answer
	switch {
	case resp.StatusCode == http.StatusBadRequest && strings.Contains(string(body), "Invalid API key"):
		err = errBadKey
	case resp.StatusCode != http.StatusOK:
		a = answer{status: "refused", note: "HTTP " + strconv.Itoa(resp.StatusCode) + ": " + short(body)}
	default:
		a, _, err = classify(body)
	}
	if err != nil || a.status != "ok" {
		free()
		return a, 0, err
	}
	a.free = free
	return a, 0, nil
}

// noData is the message of v2's answer when nothing is found.
const noData = "Message: No data found"

// maxBody bounds one answer; the largest real ones (a league's season) are a few MiB.
const maxBody = 64 << 20

// classify checks a 200 body: broken JSON (a truncated body) is retried, a message is
// reported and not stored, anything else is records (or null) to store.
func classify(body []byte) (answer, time.Duration, error) {
	if len(strings.TrimSpace(string(body))) == 0 {
		// The public service's answer to a parameter combination it does not allow.
		return answer{status: "message", note: "empty body"}, 0, nil
	}
	if !json.Valid(body) {
		return answer{}, 0, &retryable{msg: "body is not JSON or is cut short: " + short(body)}
	}
	msg := message(body)
	if msg == noData {
		// v2's "nothing found": an answer like v1's {"key":null}, with nothing to store.
		return answer{status: "ok", body: []byte("{}")}, 0, nil
	}
	if msg != "" {
		return answer{status: "message", note: msg}, 0, nil
	}
	return answer{status: "ok", body: body}, 0, nil
}

// message returns the text of a body that holds a message instead of records: {"Message":…},
// the 429 body ({"message":…,"error":429}), or a string where records belong
// ({"seasons":"Invalid League ID passed"}). An answer's keys hold arrays of records or null;
// any other value is a message.
func message(body []byte) string {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return "" // an array of records
	}
	var parts []string
	for k, v := range top {
		t := strings.TrimSpace(string(v))
		if t == "null" || strings.HasPrefix(t, "[") {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = short(v)
		}
		parts = append(parts, k+": "+s)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// retryAfter reads Retry-After in seconds (or an HTTP date); at least a second when set.
func (c *client) retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		return max(time.Duration(s)*time.Second, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(c.clock.Now()), time.Second)
	}
	return 0
}

func short(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// scrub removes the key from an error's text (net/http errors quote the URL).
func scrub(err error, key string) error {
	if err == nil || key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "***"))
}
