// Package imageurl points the image addresses of rendered answers at this server
// (docs/CONFIGURATION.md, "Image addresses in answers"). A record keeps the URL the public service gave
// it, "https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png"; an answer names the
// same path on this server instead when the server holds that image (or, reading through to
// an upstream, always: the image is fetched on its first request). The rewrite runs once per
// rendered answer, before the response cache keeps it, so an answer served from the cache
// costs nothing more.
package imageurl

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

// PublicHosts are the hosts the public service's records name their images on.
var PublicHosts = []string{"www.thesportsdb.com", "r2.thesportsdb.com"}

// Options shape a Rewriter.
type Options struct {
	// Images is where held images are looked up; nil holds none.
	Images store.Images
	// Hosts are the hosts whose image URLs may be pointed here (PublicHosts, and the
	// upstream's own host).
	Hosts []string
	// All points every image URL of Hosts here, held or not (serve --upstream: the image is
	// fetched on its first request).
	All bool
	// PublicURL is the base of the addresses, like https://sports.example; "" takes the
	// scheme and host each request came in on.
	PublicURL string
	// TrustProxy takes them from X-Forwarded-Proto and X-Forwarded-Host; TrustedProxies, when
	// set, are the only peers whose headers count.
	TrustProxy     bool
	TrustedProxies []netip.Prefix
	// Now is the clock loads of the set are timed and spaced on (time.Now unless set).
	Now func() time.Time
}

// Rewriter rewrites the image addresses of answers. Its set of held paths is loaded from the
// store when the data version moves (every stored image moves it), and its generation moves
// only when that set changed, so the answers it rewrote stay cached across other changes.
type Rewriter struct {
	o     Options
	hosts [][]byte
	// base is PublicURL as it is written in JSON, and plain.
	base baseForms

	mu sync.Mutex // one load at a time
	// nextLoad is when the set may be loaded again, after a slow load; under mu.
	nextLoad time.Time
	held     atomic.Pointer[heldSet]
}

type heldSet struct {
	version int64
	gen     int64
	paths   map[string]struct{}
	// writes is the store's count of image writes read before paths (store.Images.
	// ImageWrites); -1 before the first load. While it stays the same, so do the paths.
	writes int64
}

type baseForms struct{ plain, escaped []byte }

func formsOf(base string) baseForms {
	return baseForms{plain: []byte(base), escaped: []byte(strings.ReplaceAll(base, "/", `\/`))}
}

// New makes a Rewriter.
func New(o Options) *Rewriter {
	if o.Now == nil {
		o.Now = time.Now
	}
	w := &Rewriter{o: o, base: formsOf(strings.TrimSuffix(o.PublicURL, "/"))}
	for _, h := range o.Hosts {
		w.hosts = append(w.hosts, []byte(strings.ToLower(h)))
	}
	w.held.Store(&heldSet{version: -1, writes: -1})
	return w
}

// Key is the cache key of r's answer, made from key: with the Base its addresses are
// written with when they depend on the request (no PublicURL) and some may be rewritten,
// and key as it is otherwise, so that a server holding no images keys its answers as before.
func (w *Rewriter) Key(r *http.Request, key string) string {
	if w.o.PublicURL != "" || !w.o.All && len(w.held.Load().paths) == 0 {
		return key
	}
	base, _ := Base(r, w.o.TrustProxy, w.o.TrustedProxies)
	return key + keyMark + base
}

const keyMark = "\x00images:"

// At brings the set of held paths up to the data version and returns its generation: an
// answer that named an image address depends on it. A version older than the one loaded is
// answered with the newer set, which holds as much.
//
// The paths are read again only when the store's count of image writes moved since the
// last load: a write of records moves the data version too, and costs one read of the count.
//
// A set that is not up to date is never wrong, only late: the answers computed with it
// carry its generation and are computed again once the set that replaces it differs. So a
// request that finds a load running does not wait for it, and after a slow load the next
// waits nine times as long as it took (a mirror storing images beside the server moves the
// data version at each one).
func (w *Rewriter) At(ctx context.Context, version int64) (int64, error) {
	if w.o.All || w.o.Images == nil {
		return 0, nil
	}
	h := w.held.Load()
	if h.version >= version || !w.mu.TryLock() {
		return h.gen, nil
	}
	defer w.mu.Unlock()
	h = w.held.Load()
	if h.version >= version {
		return h.gen, nil
	}
	// The count is read before the paths: a write after it moves it again, so a set loaded
	// with a write it did not see is loaded anew at the next version.
	writes, err := w.o.Images.ImageWrites(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the count of image writes: %w", err)
	}
	if writes == h.writes {
		w.held.Store(&heldSet{version: version, gen: h.gen, paths: h.paths, writes: writes})
		return h.gen, nil
	}
	if w.o.Now().Before(w.nextLoad) {
		return h.gen, nil
	}
	start := w.o.Now()
	paths := map[string]struct{}{}
	err = w.o.Images.ImagePaths(ctx, func(p string) error {
		paths[p] = struct{}{}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("read the paths of the images held: %w", err)
	}
	if took := w.o.Now().Sub(start); took > slowLoad {
		w.nextLoad = w.o.Now().Add(9 * took)
	}
	gen := h.gen
	if !samePaths(h.paths, paths) {
		gen++
	}
	w.held.Store(&heldSet{version: version, gen: gen, paths: paths, writes: writes})
	return gen, nil
}

// slowLoad is the time from which a load of the set spaces the next one out.
const slowLoad = 10 * time.Millisecond

func samePaths(a, b map[string]struct{}) bool {
	if len(a) != len(b) {
		return false
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			return false
		}
	}
	return true
}

// Rewrite returns body, the answer to r kept under key, with the addresses of the images
// this server serves pointed at it, and whether the answer depends on the set of held images
// (it names an image address of Hosts while not every such address is pointed here). A
// request whose host cannot be written into an answer gets body unchanged, and so does one
// whose key was made without the Base (Key) while the set was still empty: its
// answer may be served to requests on another host.
func (w *Rewriter) Rewrite(r *http.Request, key string, body []byte) ([]byte, bool) {
	held := w.held.Load()
	if !w.o.All && len(held.paths) == 0 {
		// Nothing is held: no address changes, and none is looked for. The answer still
		// depends on the set, which the first image stored changes.
		return body, true
	}
	base := w.base
	if w.o.PublicURL == "" {
		b, ok := Base(r, w.o.TrustProxy, w.o.TrustedProxies)
		if !ok || !strings.HasSuffix(key, keyMark+b) {
			return body, !w.o.All
		}
		base = formsOf(b)
	}
	return w.rewrite(body, base, held.paths)
}

// For is the rewrite of the bodies sent to r outside the response cache (the change feed,
// streams: one body per change), with r's address worked out once: nil when r's host
// cannot be written into an answer. It reads the set of held paths as it is at each call.
// form names what the rewrite writes besides that set (the address it points images at):
// two rewrites of one Rewriter with the same form make the same body of a record at the
// same moment.
func (w *Rewriter) For(r *http.Request) (rewrite func([]byte) []byte, form string) {
	base := w.base
	if w.o.PublicURL == "" {
		b, ok := Base(r, w.o.TrustProxy, w.o.TrustedProxies)
		if !ok {
			return nil, ""
		}
		base = formsOf(b)
	}
	return func(body []byte) []byte { return w.withSet(body, base) }, string(base.plain)
}

// Published is the rewrite of the records sent where no request says an address (webhook
// deliveries, MQTT messages): on PublicURL, or nil without one. It brings the set of held
// paths up to the data version first (at most one load at a time, as At).
func (w *Rewriter) Published(dataVersion func(context.Context) (int64, error)) func(context.Context, []byte) []byte {
	if w.o.PublicURL == "" {
		return nil
	}
	return func(ctx context.Context, body []byte) []byte {
		if v, err := dataVersion(ctx); err == nil {
			_, _ = w.At(ctx, v) // a set that cannot be read now leaves the last one
		}
		return w.withSet(body, w.base)
	}
}

// withSet rewrites body on base with the set of held paths as it is now.
func (w *Rewriter) withSet(body []byte, base baseForms) []byte {
	held := w.held.Load()
	if !w.o.All && len(held.paths) == 0 {
		return body
	}
	out, _ := w.rewrite(body, base, held.paths)
	return out
}

// rewrite is Rewrite's scan. Only the scheme and host of an address change; its path is
// left as it was written.
func (w *Rewriter) rewrite(body []byte, base baseForms, held map[string]struct{}) ([]byte, bool) {
	var out, buf []byte
	named := false
	last := 0 // body[:last] is in out
	for i := 0; ; {
		j := bytes.Index(body[i:], httpPrefix)
		if j < 0 {
			break
		}
		start := i + j
		hostEnd, pathEnd, escaped, ok := w.imageURL(body, start)
		if !ok {
			i = start + len(httpPrefix)
			continue
		}
		i = pathEnd
		if !w.o.All {
			named = true
			var ok bool
			buf, ok = holds(held, buf, body[hostEnd:pathEnd], escaped)
			if !ok {
				continue
			}
		}
		if out == nil {
			out = make([]byte, 0, len(body)+len(body)/8)
		}
		out = append(out, body[last:start]...)
		if escaped {
			out = append(out, base.escaped...)
		} else {
			out = append(out, base.plain...)
		}
		last = hostEnd
	}
	if out == nil {
		return body, named
	}
	return append(out, body[last:]...), named
}

var (
	httpPrefix    = []byte("http")
	imagesPlain   = []byte("/images/")
	imagesEscaped = []byte(`\/images\/`)
)

// imageURL reads an address at body[start:] ("http..."): an image URL of one of the hosts,
// written plain or JSON-escaped. hostEnd is where its path begins, pathEnd where it ends.
func (w *Rewriter) imageURL(body []byte, start int) (hostEnd, pathEnd int, escaped, ok bool) {
	p := start + len(httpPrefix)
	if p < len(body) && body[p] == 's' {
		p++
	}
	switch rest := body[p:]; {
	case bytes.HasPrefix(rest, []byte("://")):
		p += 3
	case bytes.HasPrefix(rest, []byte(`:\/\/`)):
		p, escaped = p+5, true
	default:
		return 0, 0, false, false
	}
	slash, images := byte('/'), imagesPlain
	if escaped {
		slash, images = '\\', imagesEscaped
	}
	h := bytes.IndexByte(body[p:min(len(body), p+256)], slash)
	if h < 0 || !w.knownHost(body[p:p+h]) || !bytes.HasPrefix(body[p+h:], images) {
		return 0, 0, false, false
	}
	hostEnd = p + h
	pathEnd = hostEnd + len(images)
	for pathEnd < len(body) && pathByte(body[pathEnd], escaped, body, pathEnd) {
		pathEnd++
	}
	return hostEnd, pathEnd, escaped, true
}

// pathByte says whether body[i] continues a path: a URL's path characters, and in JSON the
// escaped slash's backslash.
func pathByte(c byte, escaped bool, body []byte, i int) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '\\':
		return escaped && i+1 < len(body) && body[i+1] == '/'
	}
	return strings.IndexByte("-._~!$'()*+,;=:@%/", c) >= 0
}

func (w *Rewriter) knownHost(h []byte) bool {
	for _, k := range w.hosts {
		if bytes.EqualFold(h, k) {
			return true
		}
	}
	return false
}

// holds says whether held has the path p (escaped: as JSON writes it), unescaping it into
// buf, which it returns for the next call: a lookup allocates nothing.
func holds(held map[string]struct{}, buf, p []byte, escaped bool) ([]byte, bool) {
	if escaped {
		buf = buf[:0]
		for i := 0; i < len(p); i++ {
			if p[i] == '\\' && i+1 < len(p) && p[i+1] == '/' {
				continue
			}
			buf = append(buf, p[i])
		}
		p = buf
	}
	_, ok := held[string(p)]
	if !ok {
		// A smaller copy ("x.png/tiny", as the public data's table rows name badges) is
		// answered here whenever its original is held: the image routes make it.
		if i := bytes.LastIndexByte(p, '/'); i > 0 {
			if _, copy := media.Copies[string(p[i+1:])]; copy {
				_, ok = held[string(p[:i])]
			}
		}
	}
	return buf, ok
}

// Base is the scheme and host a request came in on, "https://sports.example", as addresses
// in its answer are written; behind a trusted proxy, X-Forwarded-Proto and X-Forwarded-Host
// say them. false: the host is not one that can be written into an answer.
func Base(r *http.Request, trustProxy bool, proxies []netip.Prefix) (string, bool) {
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if trustProxy && trustedPeer(r.RemoteAddr, proxies) {
		if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if h := firstValue(r.Header.Get("X-Forwarded-Host")); h != "" {
			host = h
		}
	}
	if !validHost(host) {
		return "", false
	}
	return scheme + "://" + strings.ToLower(host), true
}

func firstValue(v string) string {
	v, _, _ = strings.Cut(v, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

func trustedPeer(remote string, proxies []netip.Prefix) bool {
	if len(proxies) == 0 {
		return true
	}
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return false
	}
	for _, p := range proxies {
		if p.Contains(ap.Addr().Unmap()) {
			return true
		}
	}
	return false
}

// validHost admits a host[:port] (a name, IPv4 or bracketed IPv6): nothing a client sends
// that could break out of a JSON string or an XML attribute reaches an answer.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-:[]", c) >= 0) {
			return false
		}
	}
	return true
}
