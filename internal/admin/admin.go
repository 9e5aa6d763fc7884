// Package admin is the scorekeeper's page, /admin: plain HTML, CSS and JavaScript embedded
// in the binary, that signs in with an editor's key and writes through the records API.
// Nothing is loaded from another host, and the page's Content-Security-Policy says so.
package admin

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

//go:embed page
var assets embed.FS

// Routes are the route names of the paths Handler answers, for metrics and logs.
var Routes = []string{"admin"}

// CSP lets the page load and connect to nothing but its own origin, and run no inline
// script or style.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

// pageFiles are the page's paths and the embedded files they answer, with their types (not
// mime.TypeByExtension, which a system's mime.types can change).
var pageFiles = map[string]struct{ name, contentType string }{
	"/admin":           {"page/index.html", "text/html; charset=utf-8"},
	"/admin/admin.js":  {"page/admin.js", "text/javascript; charset=utf-8"},
	"/admin/admin.css": {"page/admin.css", "text/css; charset=utf-8"},
}

// asset is one file of the page as it is answered.
type asset struct {
	body              []byte
	contentType, etag string
}

// files are the page's assets by path, read and hashed once: the embedded files never change.
var files = func() map[string]asset {
	out := make(map[string]asset, len(pageFiles))
	for path, f := range pageFiles {
		body, err := assets.ReadFile(f.name)
		if err != nil {
			panic("admin: the embedded page lacks " + f.name)
		}
		sum := sha256.Sum256(body)
		out[path] = asset{body: body, contentType: f.contentType, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	}
	return out
}()

// Handler answers /admin and its assets.
type Handler struct{}

// Route names the handler's path, or ok is false for a path not its own.
func (Handler) Route(path string) (route string, ok bool) {
	if path == "/admin" || strings.HasPrefix(path, "/admin/") {
		return "admin", true
	}
	return "", false
}

// Routes lists every route name Route can give.
func (Handler) Routes() []string { return Routes }

// Serve answers a path Route named; notFound answers a path under /admin/ that is no asset.
func (Handler) Serve(w http.ResponseWriter, r *http.Request, notFound func(), fail func(error)) {
	f, ok := files[r.URL.EscapedPath()]
	if !ok {
		notFound()
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.contentType)
	hd.Set("ETag", f.etag)
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", CSP)
	hd.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
