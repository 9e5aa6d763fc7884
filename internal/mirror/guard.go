package mirror

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// The defences against an upstream that misbehaves: redirects off its origin, answers too
// large for the memory they take together, and waits it asks for that no budget needs.

// errOffOrigin is a redirect to another scheme, host or port than the upstream's: the key
// would go with it, in the v1 path or v2's header, so it is never followed.
var errOffOrigin = errors.New("redirect off the upstream's origin")

// guarded is hc with a redirect policy of the upstream's own: a redirect is followed only
// on the upstream's origin (same scheme, host and port), without a Referer (which would
// carry the v1 key to wherever the answer sends it), at most 5 times.
func guarded(hc *http.Client, base string, log *slog.Logger) (*http.Client, error) {
	origin, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("mirror: upstream %q: %w", base, err)
	}
	g := *hc
	g.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		req.Header.Del("Referer")
		if req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			// Only the origin: the rest of the URL may hold the key (a v1 path echoed back).
			log.Warn("mirror: upstream redirected off its origin; not followed",
				"to", req.URL.Scheme+"://"+req.URL.Host, "upstream", origin.Scheme+"://"+origin.Host)
			return errOffOrigin
		}
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		return nil
	}
	return &g, nil
}

// maxInFlight bounds the bytes of upstream answers held at once by every fetch of the
// process together (the mirror's workers and every read-through), from the first byte read
// until the answer is stored: one answer as large as maxBody fits, several do not.
const maxInFlight = 96 << 20

// readChunk is the first step in which an answer's bytes are counted against maxInFlight.
const readChunk = 256 << 10

// inFlight counts the answer bytes held by the process's fetches.
var inFlight = &byteBudget{limit: maxInFlight}

type byteBudget struct {
	mu    sync.Mutex
	limit int64
	held  int64
}

// take counts n more bytes, or says false when that would pass the limit.
func (b *byteBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+n > b.limit {
		return false
	}
	b.held += n
	return true
}

func (b *byteBudget) give(n int64) {
	b.mu.Lock()
	b.held -= n
	b.mu.Unlock()
}

// errCrowded is an answer that did not fit beside the others in flight: asked again later.
var errCrowded = errors.New("too many answer bytes in flight from the upstream")

// errTooLarge is an answer larger than maxBody.
var errTooLarge = errors.New("body larger than 64 MiB")

// readBody reads an answer of at most maxBody bytes, each counted against inFlight until
// free is called (once the answer is stored or dropped).
func readBody(r io.Reader, contentLength int64) (body []byte, free func(), err error) {
	if contentLength > maxBody {
		return nil, func() {}, errTooLarge
	}
	var held int64
	free = func() {
		inFlight.give(held)
		held = 0
	}
	for {
		if int64(len(body)) >= maxBody+1 {
			free()
			return nil, func() {}, errTooLarge
		}
		if len(body) == cap(body) {
			// Doubling keeps the copies linear; the budget counts what is allocated.
			grow := int64(min(max(cap(body), readChunk), maxBody+1-cap(body)))
			if !inFlight.take(grow) {
				free()
				return nil, func() {}, errCrowded
			}
			held += grow
			grown := make([]byte, len(body), int64(cap(body))+grow)
			copy(grown, body)
			body = grown
		}
		n, rerr := r.Read(body[len(body):min(cap(body), maxBody+1)])
		body = body[:len(body)+n]
		if errors.Is(rerr, io.EOF) {
			return body, free, nil
		}
		if rerr != nil {
			free()
			return nil, func() {}, rerr
		}
	}
}

// maxRetryAfter caps the wait a 429 or 503 asks for: a rolling 60 s budget never needs
// more, and an upstream that asks for days would park the mirror without a word.
const maxRetryAfter = 2 * time.Minute

// pause is a wait the upstream asked for, kept so that every request of the client (the
// mirror's workers, read-through) holds back until it ends.
type pause struct {
	mu    sync.Mutex
	until time.Time
}

// set holds requests back until now+d, capped at maxRetryAfter, and logs it.
func (p *pause) set(now time.Time, d time.Duration, why string, log *slog.Logger) time.Duration {
	wait := min(d, maxRetryAfter)
	if d > maxRetryAfter {
		log.Warn("mirror: upstream asked to wait longer than the cap; waiting the cap",
			"answer", why, "asked", d.String(), "waiting", wait.String())
	} else {
		log.Info("mirror: upstream asked to wait", "answer", why, "waiting", wait.String())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := now.Add(wait); t.After(p.until) {
		p.until = t
	}
	return wait
}

// left is the rest of the wait at now; 0 when none.
func (p *pause) left(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return max(p.until.Sub(now), 0)
}
