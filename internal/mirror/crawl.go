package mirror

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

// crawler runs one crawl.
type crawler struct {
	opt   Options
	c     *client
	st    store.Store
	fr    store.Frontier
	plan  *plan
	prog  *progress
	start time.Time

	freeKey bool
	// images copies the images the records name; nil without Options.Media.
	images *images

	requests, records, messages, refused, failed atomic.Int64
	// lastFailure is the error of the last request whose retries ran out.
	lastFailure atomic.Value
}

func newCrawler(opts Options) (*crawler, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	fr, ok := opts.Store.(store.Frontier)
	if !ok {
		return nil, errors.New("mirror: this store keeps no crawl frontier")
	}
	var leagues map[string]bool
	if len(opts.Leagues) > 0 {
		leagues = map[string]bool{}
		for _, l := range opts.Leagues {
			leagues[l] = true
		}
	}
	c, err := newClient(opts)
	if err != nil {
		return nil, err
	}
	c.retries, c.backoff = opts.Retries, opts.Backoff
	cr := &crawler{opt: opts, c: c, st: opts.Store, fr: fr,
		plan: &plan{leagues: leagues, seasons: opts.Seasons,
			teamSport: (&sportFormats{st: opts.Store, known: map[string]bool{}}).teamSport}}
	if opts.Media {
		st, ok := opts.Store.(store.Images)
		if !ok {
			return nil, errors.New("mirror: this store keeps no images")
		}
		cr.images = &images{store: st, lib: media.New(st, media.Options{Clock: opts.Clock}), hosts: ImageHosts(opts.From), http: opts.HTTP, limiter: opts.Limiter,
			rate: opts.MediaRate, clock: opts.Clock, log: opts.Logger}
		cr.plan.imageHosts = cr.images.hosts
	}
	return cr, nil
}

// errAllFailed is a run in which the upstream answered no request.
var errAllFailed = errors.New("the upstream answered no request")

// probeURL tells the key's reach: a premium key on an upstream that answers v2 gets sports
// here; a free key gets "Premium API key required".
const probeURL = "v2/all/sports"

func (cr *crawler) run(ctx context.Context) (Summary, error) {
	cr.start = cr.opt.Clock.Now()
	cr.prog = newProgress(cr.opt.Progress, cr.opt.Clock)
	if err := cr.probe(ctx); err != nil {
		return cr.summary(ctx), err
	}
	if cr.opt.Rate == 0 && cr.freeKey {
		cr.c.rate = FreeRate
	}
	err := cr.st.Write(ctx, func(tx store.Tx) error {
		ftx, err := frontierTx(tx)
		if err != nil {
			return err
		}
		return ftx.FrontierAdd(ctx, cr.plan.seeds(cr.opt.Leagues))
	})
	if err != nil {
		return cr.summary(ctx), fmt.Errorf("mirror: queue the start: %w", err)
	}
	if cr.images != nil {
		if err := cr.queueStored(ctx); err != nil {
			return cr.summary(ctx), err
		}
	}
	err = cr.loop(ctx)
	sum := cr.summary(context.WithoutCancel(ctx))
	cr.prog.done(sum.String())
	if err == nil && sum.Requests == 0 && sum.Failed > 0 {
		err = fmt.Errorf("mirror: all %d requests failed, nothing was mirrored; the last: %v: %w", sum.Failed, cr.lastFailure.Load(), errAllFailed)
	}
	switch {
	case err == nil, cr.opt.Follow && errors.Is(err, context.Canceled):
		return sum, nil
	case errors.Is(err, context.Canceled):
		return sum, fmt.Errorf("mirror: interrupted with %d requests queued; the same command continues: %w", sum.Queued, err)
	}
	return sum, err
}

func frontierTx(tx store.Tx) (store.FrontierTx, error) {
	if rt, ok := tx.(*recordingTx); ok {
		tx = rt.Tx
	}
	ftx, ok := tx.(store.FrontierTx)
	if !ok {
		return nil, errors.New("mirror: this store's transactions keep no crawl frontier")
	}
	return ftx, nil
}

// probe asks (once per freshness) whether the key reaches v2, and so how far it reaches.
func (cr *crawler) probe(ctx context.Context) error {
	e, err := cr.fr.FrontierGet(ctx, probeURL)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("mirror: %w", err)
	}
	if err != nil || e.Fetched.IsZero() {
		if err := cr.fetch(ctx, store.FrontierEntry{URL: probeURL, Priority: prioSeed}); err != nil {
			return err
		}
		if e, err = cr.fr.FrontierGet(ctx, probeURL); err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
	}
	if e.Status == "failed" {
		return fmt.Errorf("mirror: the upstream does not answer (%s), nothing was mirrored: %w", e.Note, errAllFailed)
	}
	cr.plan.v2 = e.Status == "ok"
	cr.freeKey = strings.Contains(e.Note, "Premium API key required")
	return nil
}

// loop hands due entries to the workers until none is due (or, following, until ctx ends).
func (cr *crawler) loop(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan store.FrontierEntry)
	finished := make(chan string, cr.opt.Workers)
	var wg sync.WaitGroup
	for range cr.opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range jobs {
				if err := cr.fetch(ctx, e); err != nil {
					cancel(err)
				}
				finished <- e.URL
			}
		}()
	}
	err := cr.dispatch(ctx, jobs, finished)
	close(jobs)
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return err
}

// batchSize is how many due entries are read from the frontier at a time: the crawl's
// memory does not grow with the frontier.
const batchSize = 256

func (cr *crawler) dispatch(ctx context.Context, jobs chan<- store.FrontierEntry, finished <-chan string) error {
	inflight := map[string]bool{}
	var queue []store.FrontierEntry
	for {
		if ctx.Err() != nil {
			for len(inflight) > 0 {
				delete(inflight, <-finished)
			}
			return context.Cause(ctx)
		}
		if len(queue) == 0 {
			var err error
			if queue, err = cr.due(ctx, inflight); err != nil {
				return err
			}
		}
		if len(queue) == 0 {
			if len(inflight) > 0 {
				delete(inflight, <-finished)
				continue
			}
			if !cr.opt.Follow {
				return nil
			}
			if err := cr.idle(ctx); err != nil {
				return err
			}
			continue
		}
		select {
		case jobs <- queue[0]:
			inflight[queue[0].URL] = true
			queue = queue[1:]
		case u := <-finished:
			delete(inflight, u)
		}
	}
}

// due reads the next entries due, leaving out those in flight. Without Follow, only what
// was due when the crawl began, or queued since, is due: each request is made once a run.
func (cr *crawler) due(ctx context.Context, inflight map[string]bool) ([]store.FrontierEntry, error) {
	t := cr.start
	if cr.opt.Follow {
		t = cr.opt.Clock.Now()
	}
	es, err := cr.fr.FrontierDue(ctx, t, batchSize+len(inflight))
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	out := es[:0]
	var later []store.FrontierEntry
	for _, e := range es {
		switch {
		case inflight[e.URL]:
		case cr.images == nil && strings.HasPrefix(e.URL, imagePrefix):
			later = append(later, e)
		default:
			out = append(out, e)
		}
	}
	if len(later) > 0 {
		// Images a run with --media queued: this run fetches none, and leaves them due the
		// next day (a run with --media asks for them then, or queues them afresh as due).
		if err := cr.putOff(ctx, later, t.Add(freshDaily)); err != nil {
			return nil, err
		}
		if len(out) == 0 {
			return cr.due(ctx, inflight)
		}
	}
	return out, nil
}

// putOff makes entries due at t.
func (cr *crawler) putOff(ctx context.Context, es []store.FrontierEntry, t time.Time) error {
	err := cr.st.Write(ctx, func(tx store.Tx) error {
		ftx, err := frontierTx(tx)
		if err != nil {
			return err
		}
		for _, e := range es {
			e.Due = t
			if err := ftx.FrontierSet(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mirror: put off the images: %w", err)
	}
	return nil
}

// idle waits, following, until the next entry is due.
func (cr *crawler) idle(ctx context.Context) error {
	now := cr.opt.Clock.Now()
	st, err := cr.fr.FrontierStats(ctx, now)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	wait := time.Minute
	if !st.Next.IsZero() {
		wait = min(max(st.Next.Sub(now), 10*time.Millisecond), time.Minute)
	}
	return cr.opt.Clock.Sleep(ctx, wait)
}

func (cr *crawler) summary(ctx context.Context) Summary {
	s := Summary{Requests: cr.requests.Load(), Records: cr.records.Load(), Messages: cr.messages.Load(),
		Refused: cr.refused.Load(), Failed: cr.failed.Load(), Elapsed: cr.opt.Clock.Now().Sub(cr.start)}
	if st, err := cr.fr.FrontierStats(ctx, cr.start); err == nil {
		s.Queued = st.Due
	}
	if m := cr.images; m != nil {
		s.Images, s.ImageBytes, s.ImagesHeld = m.stats.fetched.Load(), m.stats.bytes.Load(), m.stats.held.Load()
		s.ImagesLinked, s.ImagesRefused, s.ImagesFailed = m.stats.linked.Load(), m.stats.refused.Load(), m.stats.failed.Load()
		if kept, err := m.store.ImageStats(ctx); err == nil {
			s.Kept = &kept
		}
	}
	return s
}
