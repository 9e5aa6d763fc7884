// Package mirror copies an upstream TheSportsDB-compatible API (the public service, or
// another sportsdb) into the store, and reads through to it for answers the store lacks.
//
// The crawl's frontier lives in the database (store.Frontier): each answer's records and the
// frontier's change (the answered request marked with its time, the requests its records
// lead to queued) commit in one transaction. A crawl killed at any moment resumes where it
// stopped, repeating no request that succeeded within its freshness. Every request takes a
// slot of a rolling 60-second budget first (internal/ratelimit), so the upstream never sees
// more than the rate in any 60 seconds.
package mirror

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// Clock tells the time and waits; tests pass one that moves only when waited on.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns the current UTC time.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// Sleep waits d or until ctx ends.
func (SystemClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// StartingAt is a real clock that reads t at its start: SPORTSDB_NOW pins what day it
// is for the crawl (which events are near), while waits and the budget still take real time.
func StartingAt(t time.Time) Clock { return &shifted{offset: time.Until(t)} }

type shifted struct {
	SystemClock
	offset time.Duration
}

// Now returns the pinned start plus the real time since.
func (s *shifted) Now() time.Time { return time.Now().Add(s.offset).UTC() }

// Default budgets, per rolling minute: the public service's premium and free limits.
const (
	DefaultRate = ratelimit.PremiumLimit
	FreeRate    = ratelimit.FreeLimit
)

// Options shape a crawl.
type Options struct {
	// From is the upstream's base URL (https://www.thesportsdb.com); Key its API key.
	From, Key string
	Store     store.Store
	// Rate is the most requests in any rolling 60 s; 0 means DefaultRate, or FreeRate when
	// the upstream says the key is free.
	Rate int
	// Leagues limits the crawl to these league ids and what they reference; empty: all.
	Leagues []string
	// Seasons limits each league to its most recent seasons; 0: all it lists.
	Seasons int
	// Follow keeps the mirror running, asking again what has gone stale.
	Follow bool
	// Workers is how many requests may be in flight at once; default 4.
	Workers int
	// Retries bounds the retries of one request (5xx, network errors, broken bodies, 429);
	// default 6. Backoff is the first retry's wait (doubling after); default 1 s.
	Retries int
	Backoff time.Duration
	// Clock defaults to SystemClock; Limiter to one keeping the budget in the Store's
	// database (store.Budget), which a restarted mirror and a server reading through on the
	// same database share, else to an in-memory one on that clock. A Redis limiter shares the
	// budget with read-through and other replicas (see BudgetID).
	Clock   Clock
	Limiter ratelimit.Limiter
	// Redis, when set, keeps the budget in Redis (see RedisPrefix), shared by every mirror
	// and read-through of the key on every machine; Limiter wins when both are set.
	Redis string
	// HTTP defaults to a client with a 60 s timeout.
	HTTP *http.Client
	// Progress receives a live line on a terminal and a summary line at the end.
	Progress io.Writer
	// Logger receives the bodies that were not stored and why; default discards.
	Logger *slog.Logger
	// Metrics, if set, count the upstream requests for Prometheus.
	Metrics *Metrics
	// Media also copies every image the records name (the Store must keep images,
	// store.Images), at most MediaRate image requests in any rolling 60 s (0:
	// DefaultMediaRate), from the hosts ImageHosts allows only.
	Media     bool
	MediaRate int

	closeLimiter func() error
}

// BudgetID is the limiter id of an upstream key's budget: every mirror and read-through of
// one key counts against the same id, and the id does not reveal the key.
func BudgetID(key string) string { return "mirror:" + hashKey(key) }

// Summary tells what a crawl did.
type Summary struct {
	// Requests answered by the upstream (each counted once, retries not included).
	Requests int64
	// Records stored.
	Records int64
	// Messages are bodies that held a message instead of records (not stored), Refused the
	// answers with an HTTP error, Failed the requests whose retries ran out.
	Messages, Refused, Failed int64
	// Queued are the requests still due when the crawl stopped.
	Queued  int64
	Elapsed time.Duration
	// With Media: the images fetched and stored (ImageBytes their bytes), those found held
	// under their path already, those whose bytes were held under another path, those
	// refused (no picture, over the limits, an HTTP error) and those that failed; Kept is
	// what the store holds at the end.
	Images, ImageBytes, ImagesHeld, ImagesLinked, ImagesRefused, ImagesFailed int64
	Kept                                                                      *store.ImageStats
}

func (s Summary) String() string {
	line := fmt.Sprintf("mirrored %d records with %d requests in %s", s.Records, s.Requests, s.Elapsed.Round(time.Second))
	if s.Requests > 0 {
		line += fmt.Sprintf(" (%.2f requests per record)", float64(s.Requests)/float64(max(s.Records, 1)))
	}
	var notes []string
	if s.Messages > 0 {
		notes = append(notes, fmt.Sprintf("%d bodies held a message and were not stored", s.Messages))
	}
	if s.Refused > 0 {
		notes = append(notes, fmt.Sprintf("%d requests refused", s.Refused))
	}
	if s.Failed > 0 {
		notes = append(notes, fmt.Sprintf("%d failed (asked again on the next run)", s.Failed))
	}
	if s.Queued > 0 {
		notes = append(notes, fmt.Sprintf("%d still queued", s.Queued))
	}
	if len(notes) > 0 {
		line += "; " + strings.Join(notes, ", ")
	}
	if s.Kept != nil {
		line += fmt.Sprintf("; images: %d fetched (%s), %d held already, %d linked to the same bytes",
			s.Images, megabytes(s.ImageBytes), s.ImagesHeld, s.ImagesLinked)
		if s.ImagesRefused > 0 {
			line += fmt.Sprintf(", %d refused", s.ImagesRefused)
		}
		if s.ImagesFailed > 0 {
			line += fmt.Sprintf(", %d failed (asked again on the next run)", s.ImagesFailed)
		}
		line += fmt.Sprintf("; the database holds %d images (%s)", s.Kept.Images, megabytes(s.Kept.Bytes))
	}
	return line
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// Run mirrors the upstream into the store until every due request is answered (or, with
// Follow, until ctx ends).
func Run(ctx context.Context, opts Options) (Summary, error) {
	c, err := newCrawler(opts)
	if err != nil {
		return Summary{}, err
	}
	if c.opt.closeLimiter != nil {
		defer c.opt.closeLimiter()
	}
	return c.run(ctx)
}

// RedisPrefix starts the Redis keys of upstream budgets, apart from the server's own limits.
const RedisPrefix = "sportsdb:upstream:"

// Validate checks the options a user gives (all but Store), before anything is opened.
func (o *Options) Validate() error {
	if o.Key == "" {
		return errors.New("mirror: no key (--key)")
	}
	u, err := url.Parse(o.From)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("mirror: --from %q: want an http:// or https:// URL", o.From)
	}
	if o.Rate < 0 {
		return fmt.Errorf("mirror: rate %d: want at least 1 request per minute", o.Rate)
	}
	for _, l := range o.Leagues {
		if l == "" || strings.Trim(l, "0123456789") != "" {
			return fmt.Errorf("mirror: league %q: want a league id (a number)", l)
		}
	}
	if o.Seasons < 0 {
		return fmt.Errorf("mirror: seasons %d: want 0 (all) or more", o.Seasons)
	}
	if o.MediaRate < 0 {
		return fmt.Errorf("mirror: media rate %d: want at least 1 image per minute", o.MediaRate)
	}
	return nil
}

func (o *Options) defaults() error {
	if o.Store == nil {
		return errors.New("mirror: no store")
	}
	if err := o.Validate(); err != nil {
		return err
	}
	if o.Workers <= 0 {
		o.Workers = 4
	}
	if o.Retries <= 0 {
		o.Retries = 6
	}
	if o.MediaRate == 0 {
		o.MediaRate = DefaultMediaRate
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.Clock == nil {
		o.Clock = SystemClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Limiter == nil && o.Redis != "" {
		l, err := ratelimit.NewRedis(o.Redis, nowOnly{o.Clock}, ratelimit.RedisOptions{Prefix: RedisPrefix, Logger: o.Logger})
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		o.Limiter, o.closeLimiter = l, l.Close
	}
	if b, ok := o.Store.(store.Budget); ok && o.Limiter == nil {
		o.Limiter = storeLimiter{b: b, clock: o.Clock}
	}
	if o.Limiter == nil {
		o.Limiter = ratelimit.NewMemory(nowOnly{o.Clock})
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	return nil
}

// nowOnly gives the limiter the mirror's clock.
type nowOnly struct{ c Clock }

func (n nowOnly) Now() time.Time { return n.c.Now() }
