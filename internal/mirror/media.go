package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"sportsdb/internal/media"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// The pictures the records name (mirror --media, docs/MIRROR.md). Each image is a frontier
// entry of its own, "img/" and its address, queued by the answer whose records name it (and,
// at the start of a run, by every record already stored), so a run killed at any moment goes
// on with the images it had not stored. Images are fetched from the hosts the records name
// them on only, the public service's and the upstream's own, within a budget of their own.

// DefaultMediaRate is the most image requests in any rolling 60 s (--media-rate).
const DefaultMediaRate = 300

// MediaBudgetID is the limiter id of the image budget, which every mirror and read-through
// of the database shares: images need no key, so one budget covers them all.
const MediaBudgetID = "mirror:media"

// imagePrefix starts the frontier URL of an image: "img/https://r2.thesportsdb.com/images/...".
const imagePrefix = "img/"

// prioImage puts images after every request for records: the records are the mirror's
// point, and an image queued twice costs nothing.
const prioImage = 0

// freshImage is when a stored image is looked at again: an address names one picture for
// good (a new picture comes under a new name), so only one that failed is asked again soon.
const freshImage = 30 * 24 * time.Hour

// PublicImageHosts are the hosts the public service's records name their images on.
var PublicImageHosts = []string{"www.thesportsdb.com", "r2.thesportsdb.com"}

// ImageHosts are the hosts images may be fetched from: the public service's, and the
// upstream's own (another sportsdb names the images it holds on itself).
func ImageHosts(upstream string) map[string]bool {
	hosts := map[string]bool{}
	for _, h := range PublicImageHosts {
		hosts[h] = true
	}
	if u, err := url.Parse(upstream); err == nil && u.Host != "" {
		hosts[strings.ToLower(u.Host)] = true
	}
	return hosts
}

// ImagePath is the path an image address is kept under ("/images/media/team/badge/x.png"),
// when it is the address of an image on one of hosts: http or https, no user, query or
// fragment, a path under /images/.
func ImagePath(address string, hosts map[string]bool) (string, bool) {
	if !strings.HasPrefix(address, "http") {
		return "", false
	}
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.RawQuery != "" ||
		u.Fragment != "" || u.Opaque != "" || !hosts[strings.ToLower(u.Host)] {
		return "", false
	}
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/images/") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
		return "", false
	}
	return p, true
}

// imageEntries are the frontier entries of the images records name on hosts.
func imageEntries(recs []record.Record, hosts map[string]bool) []store.FrontierEntry {
	var out []store.FrontierEntry
	for _, r := range recs {
		r, err := r.Decoded() // one parse, not one per field
		if err != nil {
			continue
		}
		for _, f := range r.Kind.Fields {
			if !strings.HasPrefix(f, "str") {
				continue
			}
			if v := r.Str(f); strings.HasPrefix(v, "http") {
				if p, ok := ImagePath(v, hosts); ok {
					v, _ = originalOf(v, p)
					out = append(out, store.FrontierEntry{URL: imagePrefix + v, Priority: prioImage})
				}
			}
		}
	}
	return out
}

// originalOf cuts a copy's name off an image address and its path: a copy ("x.png/tiny",
// as table rows name badges) is made here from its original, which is what is fetched.
func originalOf(address, path string) (string, string) {
	if p, err := media.ParsePath(path); err == nil && p.Copy != "" {
		return strings.TrimSuffix(address, "/"+p.Copy), p.Original
	}
	return address, path
}

// mediaStats count what a run did with images.
type mediaStats struct {
	fetched, bytes, held, linked, refused, failed atomic.Int64
}

// images is a crawl's side that copies images.
type images struct {
	store   store.Images
	lib     *media.Library
	hosts   map[string]bool
	http    *http.Client
	limiter ratelimit.Limiter
	rate    int
	clock   Clock
	log     *slog.Logger
	stats   mediaStats
	// noWait: with the budget spent, a fetch is ErrBudgetSpent at once (read-through, whose
	// client waits) instead of waiting for a slot (the mirror).
	noWait bool
}

// queueStored queues the images every stored record names: records a run without --media
// stored, or whose answers are still fresh, are not asked again, so their images would
// never be queued by an answer.
func (cr *crawler) queueStored(ctx context.Context) error {
	for _, k := range record.Kinds {
		var batch []record.Record
		flush := func() error {
			es := imageEntries(batch, cr.images.hosts)
			batch = batch[:0]
			if len(es) == 0 {
				return nil
			}
			return cr.st.Write(ctx, func(tx store.Tx) error {
				ftx, err := frontierTx(tx)
				if err != nil {
					return err
				}
				return ftx.FrontierAdd(ctx, es)
			})
		}
		err := cr.st.Scan(ctx, k, func(r record.Record) error {
			if batch = append(batch, r); len(batch) == batchSize {
				return flush()
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil {
			return fmt.Errorf("mirror: queue the images of the stored %s records: %w", k.Name, err)
		}
	}
	return nil
}

// fetchImage stores the image of one frontier entry: left alone when an image is held under
// its path, linked when its bytes are held under another, refused when it is no picture or
// over the limits, asked again on a later run when the fetch failed.
func (cr *crawler) fetchImage(ctx context.Context, e store.FrontierEntry) error {
	m := cr.images
	address := strings.TrimPrefix(e.URL, imagePrefix)
	path, ok := ImagePath(address, m.hosts)
	if ok {
		// Queued as a copy by an earlier run.
		address, path = originalOf(address, path)
	}
	if !ok {
		// Queued by a run that allowed other hosts; not fetched by this one.
		e.Status, e.Note, e.Fetched = "refused", "not an image address of the hosts allowed", m.clock.Now()
		m.stats.refused.Add(1)
		e.Due = e.Fetched.Add(freshImage)
		return cr.mark(ctx, e)
	}
	_, err := m.store.ImageInfo(ctx, path)
	switch {
	case err == nil:
		m.stats.held.Add(1)
		e.Status, e.Note, e.Fetched, e.Fails = "ok", "held", m.clock.Now(), 0
		e.Due = e.Fetched.Add(freshImage)
		return cr.mark(ctx, e)
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("mirror: image %s: %w", path, err)
	}
	status, note, err := m.copy(ctx, address, path)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	now := m.clock.Now()
	switch {
	case err != nil:
		m.stats.failed.Add(1)
		m.log.Warn("mirror: image failed", "image", address, "error", err)
		return cr.markFailed(ctx, e, now, err)
	case status == "refused":
		m.stats.refused.Add(1)
		m.log.Info("mirror: image refused", "image", address, "reason", note)
	}
	e.Status, e.Note, e.Fetched, e.Fails = status, note, now, 0
	e.Due = now.Add(freshImage)
	if err := cr.mark(ctx, e); err != nil {
		return err
	}
	cr.prog.tick(cr)
	return nil
}

// copy fetches one image and stores it under path: status "ok", or "refused" with why.
func (m *images) copy(ctx context.Context, address, path string) (status, note string, err error) {
	data, free, status, note, err := m.get(ctx, address)
	if err != nil || status != "ok" {
		return status, note, err
	}
	defer free() // the bytes count against the answers in flight until stored
	// Refused from its header before anything else: no picture, or over the limits.
	if _, err := media.Inspect(data); err != nil {
		return "refused", err.Error(), nil
	}
	sum := sha256.Sum256(data)
	_, err = m.store.ImageByHash(ctx, hex.EncodeToString(sum[:]))
	linked := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", "", fmt.Errorf("look the image up by its hash: %w", err)
	}
	// The library checks the whole picture (bytes held under another path were checked
	// when they came in, and are kept once) and stores it.
	if _, err := m.lib.Put(ctx, path, data, address); err != nil {
		if errors.Is(err, media.ErrUnsupported) || errors.Is(err, media.ErrTooLarge) ||
			errors.Is(err, media.ErrMalformed) || errors.Is(err, media.ErrBadPath) {
			return "refused", err.Error(), nil
		}
		return "", "", fmt.Errorf("store the image: %w", err)
	}
	if linked {
		m.stats.linked.Add(1)
		return "ok", "same bytes as another image", nil
	}
	m.stats.fetched.Add(1)
	m.stats.bytes.Add(int64(len(data)))
	return "ok", "", nil
}

// get fetches an image address within the image budget, at most media.MaxBytes, following
// redirects on its own host only. A refusal (an HTTP error, an answer too large) is a
// status; a failure worth trying again later is an error.
func (m *images) get(ctx context.Context, address string) (data []byte, free func(), status, note string, err error) {
	free = func() {}
	u, err := url.Parse(address)
	if err != nil {
		return nil, free, "refused", "not an address", nil
	}
	hc, err := guarded(m.http, u.Scheme+"://"+u.Host, m.log)
	if err != nil {
		return nil, free, "", "", err
	}
	if err := m.wait(ctx); err != nil {
		return nil, free, "", "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, free, "refused", "not an address", nil
	}
	req.Header.Set("User-Agent", "sportsdb-mirror")
	req.Header.Set("Accept", "image/png, image/jpeg, image/gif, image/webp")
	resp, err := hc.Do(req)
	if errors.Is(err, errOffOrigin) {
		return nil, free, "refused", "redirected off its host; not followed", nil
	}
	if err != nil {
		return nil, free, "", "", fmt.Errorf("network: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return nil, free, "", "", fmt.Errorf("HTTP %d", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, free, "refused", "HTTP " + strconv.Itoa(resp.StatusCode), nil
	case resp.ContentLength > media.MaxBytes:
		return nil, free, "refused", fmt.Sprintf("%d bytes, at most %d", resp.ContentLength, media.MaxBytes), nil
	}
	// One byte past the limit tells an image over it.
	body, free, err := readBody(io.LimitReader(resp.Body, media.MaxBytes+1), resp.ContentLength)
	if err != nil {
		return nil, free, "", "", fmt.Errorf("read: %w", err)
	}
	if len(body) > media.MaxBytes {
		free()
		return nil, func() {}, "refused", fmt.Sprintf("more than %d bytes", media.MaxBytes), nil
	}
	return body, free, "ok", "", nil
}

// wait takes one slot of the image budget, sleeping until the window frees one.
func (m *images) wait(ctx context.Context) error {
	if !m.noWait {
		return takeSlot(ctx, m.limiter, m.clock, MediaBudgetID, m.rate, "image budget")
	}
	d, err := m.limiter.Allow(ctx, MediaBudgetID, m.rate)
	switch {
	case err != nil:
		return fmt.Errorf("image budget: %w", err)
	case !d.Allowed:
		return ErrBudgetSpent
	}
	return nil
}
