package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Route names of the image tree, for metrics and logs.
const (
	RouteImage  = "image"
	RouteCopy   = "image_copy"
	RouteUpload = "image_upload"
)

// Routes are every route name Handler.Route gives.
var Routes = []string{RouteImage, RouteCopy, RouteUpload}

// Prefix starts every image path; UploadPrefix every path an editor may upload to.
const (
	Prefix       = "/images/"
	UploadPrefix = "/images/media/"
)

// CacheControl is sent with every image: a path's bytes change only when an editor
// replaces them, and the ETag tells a cache that asks.
const CacheControl = "public, max-age=31536000, immutable"

var (
	errCannotWrite = respond.WithCode(http.StatusForbidden, "This key cannot write", nil)
	errTooLarge    = respond.WithCode(http.StatusRequestEntityTooLarge,
		fmt.Sprintf("Image too large: at most %d MB and %d megapixels", MaxBytes>>20, MaxPixels/1_000_000), nil)
)

// Handler serves the image tree (docs/PICTURES.md): GET and HEAD for anyone, PUT of an
// original for a key that may write. It answers 404 until Bind hands it a store that
// keeps images.
type Handler struct {
	clock clock.Clock
	hold  func(ctx context.Context, body int)
	lib   atomic.Pointer[Library]
}

// NewHandler returns a handler whose originals are dated on clk. hold, when not nil, is
// called before a whole image is written with the number of its bytes, so that the server
// can send the headers and the bytes in one write (server.HoldAnswer).
func NewHandler(clk clock.Clock, hold func(ctx context.Context, body int)) *Handler {
	return &Handler{clock: clk, hold: hold}
}

// Bind serves the images st keeps (nothing when it keeps none), and returns the library
// it reads through, nil when none.
func (h *Handler) Bind(st store.Store, o Options) *Library {
	is, ok := st.(store.Images)
	if !ok {
		return nil
	}
	o.Clock = h.clock
	l := New(is, o)
	h.lib.Store(l)
	return l
}

// Route names an escaped path of the image tree, ok false for any other path. Every path
// under Prefix is the tree's: a bad one is answered 400 there, not left to others.
func (h *Handler) Route(method, rawPath string) (string, bool) {
	if !strings.HasPrefix(rawPath, Prefix) {
		return "", false
	}
	switch {
	case method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions:
		return RouteUpload, true
	case isCopy(rawPath):
		return RouteCopy, true
	}
	return RouteImage, true
}

func isCopy(rawPath string) bool {
	_, last, _ := cutLast(rawPath)
	_, ok := Copies[last]
	return ok
}

func cutLast(p string) (string, string, bool) {
	i := strings.LastIndexByte(p, '/')
	return p[:max(i, 0)], p[i+1:], i >= 0
}

// Preflight is what a browser's preflight of an upload allows.
func (h *Handler) Preflight() (methods, headers string) {
	return "GET, HEAD, PUT", "X-API-KEY, Content-Type"
}

// Serve answers GET and HEAD: the image's bytes with their type, an ETag of their hash,
// ranges and conditional requests (http.ServeContent), and a year of caching.
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request) {
	lib := h.lib.Load()
	if lib == nil {
		respond.Error(w, r, respond.ErrNotFound)
		return
	}
	path := r.URL.Path
	// A client that holds the image asks with its ETag: answered without its bytes.
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if info, err := lib.Info(r.Context(), path); err == nil && etagMatch(inm, etag(info.Hash)) {
			imageHeaders(w.Header(), info)
			w.Header().Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	img, err := lib.Get(r.Context(), path)
	if err != nil {
		respond.Error(w, r, httpError(err))
		return
	}
	imageHeaders(w.Header(), img)
	if !whole(r) {
		http.ServeContent(w, r, "", img.Created, bytes.NewReader(img.Data))
		return
	}
	// The whole image, as ServeContent would send it, in one write where the server can.
	hd := w.Header()
	hd.Set("Accept-Ranges", "bytes")
	hd.Set("Content-Length", strconv.Itoa(len(img.Data)))
	if !img.Created.IsZero() {
		hd.Set("Last-Modified", img.Created.UTC().Format(http.TimeFormat))
	}
	if r.Method == http.MethodHead {
		return
	}
	if h.hold != nil {
		h.hold(r.Context(), len(img.Data))
	}
	_, _ = w.Write(img.Data)
}

// whole says whether a GET or HEAD asks for the whole image with no condition left to
// weigh (an If-None-Match that matched was answered before): no range, no dates.
func whole(r *http.Request) bool {
	for _, h := range []string{"Range", "If-Range", "If-Match", "If-Unmodified-Since", "If-Modified-Since"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	return true
}

func imageHeaders(h http.Header, img store.Image) {
	h.Set("Content-Type", img.Type)
	h.Set("ETag", etag(img.Hash))
	h.Set("Cache-Control", CacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
}

func etag(hash string) string { return `"` + hash + `"` }

// etagMatch says whether an If-None-Match list names tag (weak or strong, or "*").
func etagMatch(list, tag string) bool {
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == tag || v == "*" {
			return true
		}
	}
	return false
}

// Write answers an upload (PUT of the raw bytes) by a key; other methods are 405.
func (h *Handler) Write(w http.ResponseWriter, r *http.Request, k store.Key) {
	if err := h.upload(w, r, k); err != nil {
		respond.Error(w, r, httpError(err))
	}
}

func (h *Handler) upload(w http.ResponseWriter, r *http.Request, k store.Key) error {
	if r.Method != http.MethodPut || !strings.HasPrefix(r.URL.Path, UploadPrefix) {
		allow := "GET, HEAD"
		if strings.HasPrefix(r.URL.Path, UploadPrefix) {
			allow += ", PUT"
		}
		w.Header().Set("Allow", allow)
		return respond.ErrMethodNotAllowed
	}
	if !k.Role.CanWrite() {
		return errCannotWrite
	}
	lib := h.lib.Load()
	if lib == nil {
		return respond.WithCode(http.StatusNotImplemented, "This server keeps no images", nil)
	}
	if r.ContentLength > MaxBytes {
		return ErrTooLarge
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return ErrTooLarge
	}
	if err != nil {
		return respond.WithCode(http.StatusBadRequest, "The body could not be read", err)
	}
	_, err = lib.st.ImageInfo(r.Context(), r.URL.Path)
	created := errors.Is(err, store.ErrNotFound)
	img, err := lib.Put(r.Context(), r.URL.Path, data, "")
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	w.Header().Set("ETag", etag(img.Hash))
	respond.Status(w, status, infoBody(img))
	return nil
}

// infoBody is what an upload answers: where the image is and what it is.
func infoBody(img store.Image) []byte {
	b := record.AppendString([]byte(`{"path":`), img.Path)
	b = record.AppendString(append(b, `,"type":`...), img.Type)
	b = append(b, `,"width":`+strconv.Itoa(img.Width)+`,"height":`+strconv.Itoa(img.Height)+
		`,"size":`+strconv.FormatInt(img.Size, 10)...)
	b = record.AppendString(append(b, `,"hash":`...), img.Hash)
	return append(b, '}')
}

// httpError is the answer of a library error: the media sentinels with their message, a
// missing image 404, the rest as any other failure.
func httpError(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return respond.ErrNotFound
	case errors.Is(err, ErrTooLarge):
		if msg := err.Error(); msg != ErrTooLarge.Error() {
			return respond.WithCode(http.StatusRequestEntityTooLarge, capital(msg), nil)
		}
		return errTooLarge
	case errors.Is(err, ErrUnsupported):
		return respond.WithCode(http.StatusUnsupportedMediaType, "Not a PNG, JPEG, GIF or WebP image", nil)
	case errors.Is(err, ErrMalformed), errors.Is(err, ErrBadPath):
		return respond.WithCode(http.StatusBadRequest, capital(err.Error()), nil)
	case errors.Is(err, context.DeadlineExceeded):
		return respond.Internal(err)
	}
	return err
}

// capital starts a message with a capital, as the API's messages do.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Routes lists every route name Route gives.
func (h *Handler) Routes() []string { return Routes }
