package openapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// RendererVersion is the version of swagger-ui-dist (npm) whose files docs/swagger-ui holds,
// pinned in test/openapi/package.json; test/openapi/run.sh checks the served copy against it.
const RendererVersion = "5.35.0"

// The renderer's two large files are kept gzipped, for the binary's size
// (docs/PERFORMANCE.md, "Measured decisions in the code").
//
//go:embed docs/index.html docs/docs.js docs/swagger-ui
var assets embed.FS

// Routes are the route names of the paths Handler answers, for metrics and logs.
var Routes = []string{"openapi", "docs"}

// csp lets the page load nothing from another host. Swagger UI sets inline styles.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

// file is one answer of the handler, ready to serve.
type file struct {
	body, gz    []byte // gz, when set, is the body gzipped
	contentType string
	etag        string
	maxAge      time.Duration
}

// Handler answers /openapi.json, /openapi.yaml, /docs and the page's assets.
type Handler struct {
	source func() Source
	once   sync.Once
	files  map[string]*file
	err    error
}

// NewHandler builds the document from source on the first request.
func NewHandler(source func() Source) *Handler { return &Handler{source: source} }

// Route names the handler's path, or ok is false for a path not its own.
func (h *Handler) Route(path string) (route string, ok bool) {
	switch {
	case path == "/openapi.json" || path == "/openapi.yaml":
		return "openapi", true
	case path == "/docs" || strings.HasPrefix(path, "/docs/"):
		return "docs", true
	}
	return "", false
}

// Serve answers a path Route named. notFound answers a path under /docs/ that is no asset;
// fail answers an error (a document that could not be built).
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request, notFound func(), fail func(error)) {
	h.once.Do(h.load)
	if h.err != nil {
		fail(h.err)
		return
	}
	path := r.URL.EscapedPath()
	f, ok := h.files[path]
	if !ok {
		notFound()
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.contentType)
	hd.Set("ETag", f.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(f.maxAge.Seconds())))
	if path == "/docs" {
		hd.Set("Content-Security-Policy", csp)
	}
	body := f.body
	if f.gz != nil {
		hd.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			hd.Set("Content-Encoding", "gzip")
			hd.Set("ETag", strings.TrimSuffix(f.etag, `"`)+`-gz"`)
			body = f.gz
		}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

// load builds the document and reads the embedded assets.
func (h *Handler) load() {
	doc, err := Build(h.source())
	if err != nil {
		h.err = err
		return
	}
	h.files = map[string]*file{
		// JSON is YAML 1.2: the YAML form is the same text, for clients that ask for it.
		"/openapi.json": newFile(doc, nil, "application/json", 0),
		"/openapi.yaml": newFile(doc, nil, "application/yaml", 0),
	}
	for path, name := range map[string]string{
		"/docs": "docs/index.html", "/docs/docs.js": "docs/docs.js",
		"/docs/swagger-ui-bundle.js": "docs/swagger-ui/swagger-ui-bundle.js.gz",
		"/docs/swagger-ui.css":       "docs/swagger-ui/swagger-ui.css.gz",
		"/docs/LICENSE":              "docs/swagger-ui/LICENSE",
		"/docs/NOTICE":               "docs/swagger-ui/NOTICE",
	} {
		f, err := embedded(name)
		if err != nil {
			h.err = err
			return
		}
		h.files[path] = f
	}
}

// embedded reads an asset; a .gz one is kept both ways, for clients that do not take gzip.
func embedded(name string) (*file, error) {
	raw, err := assets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("docs asset %s: %w", name, err)
	}
	base, zipped := strings.CutSuffix(name, ".gz")
	var gz []byte
	if zipped {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("docs asset %s: %w", name, err)
		}
		gz, raw = raw, nil
		if raw, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("docs asset %s: %w", name, err)
		}
	}
	return newFile(raw, gz, contentType(base), time.Hour), nil
}

func contentType(name string) string {
	switch {
	case strings.HasSuffix(name, ".html"):
		return "text/html; charset=utf-8"
	case strings.HasSuffix(name, ".js"):
		return "text/javascript; charset=utf-8"
	case strings.HasSuffix(name, ".css"):
		return "text/css; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

func newFile(body, gz []byte, ctype string, maxAge time.Duration) *file {
	sum := sha256.Sum256(body)
	return &file{body: body, gz: gz, contentType: ctype, maxAge: maxAge,
		etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}
