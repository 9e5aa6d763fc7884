package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/calendar"
	"sportsdb/internal/store"
)

// calendarTarget is a calendar subscription URL: /calendar/{key}/{team|league}/{id}.ics.
type calendarTarget struct {
	key   string
	scope calendar.Scope
	id    string // as sent; checked after the key, like every id
}

// parseCalendar reads a calendar path; ok is false for a path that is no calendar (404).
func parseCalendar(rawPath string) (c calendarTarget, ok bool) {
	parts := strings.Split(rawPath, "/")
	if len(parts) != 5 || parts[0] != "" || parts[1] != "calendar" {
		return c, false
	}
	key, err := url.PathUnescape(parts[2])
	if err != nil || key == "" || len(key) > maxSegment {
		return c, false
	}
	scope := calendar.Scope(parts[3])
	id, isICS := strings.CutSuffix(parts[4], ".ics")
	if (scope != calendar.Team && scope != calendar.League) || !isICS || len(id) > maxSegment {
		return c, false
	}
	return calendarTarget{key: key, scope: scope, id: id}, true
}

// calendarLogPath is a calendar path with its key segment replaced, for the access log.
func calendarLogPath(rawPath string) string {
	parts := strings.SplitN(rawPath, "/", 4)
	if len(parts) >= 3 && parts[2] != "" {
		parts[2] = "{key}"
	}
	return clip(strings.Join(parts, "/"))
}

// serveCalendar answers a path under /calendar/. ServeHTTP calls it with the path it logs
// and the route it counts, which it sets first: the logged path loses its key. The key is
// checked and counted as for any API request.
func (s *Server) serveCalendar(w http.ResponseWriter, r *http.Request, addr string, logPath, route *string) {
	*logPath = calendarLogPath(*logPath)
	c, ok := parseCalendar(r.URL.EscapedPath())
	if !ok {
		s.fail(w, r, respond.ErrNotFound)
		return
	}
	*route = "calendar/" + string(c.scope)
	ctx := withLazyDeadline(respond.NewContext(r.Context(), *route, s.cfg.Logger), s.cfg.RequestTimeout)
	defer ctx.stop()
	r = r.WithContext(ctx)
	k, err := s.cfg.Auth.Resolve(ctx, c.key)
	if err != nil {
		s.refuseKey(w, r, addr, err)
		return
	}
	if !s.admit(w, r, k) {
		return
	}
	id, ok := api.ParseID(c.id)
	if !ok {
		s.fail(w, r, respond.ErrNotFound)
		return
	}
	now := time.Now().UTC()
	if s.cfg.Clock != nil {
		now = s.cfg.Clock.Now()
	}
	feed, err := calendar.Load(ctx, s.cfg.Store, calendar.Request{Scope: c.scope, ID: id,
		Season: r.URL.Query().Get("season"), Upcoming: k.Tier == store.Free, Now: now})
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, respond.ErrNotFound)
		return
	case err != nil:
		s.fail(w, r, fmt.Errorf("calendar: %w", err))
		return
	}
	writeCalendar(w, r, feed.ICS())
}

// writeCalendar sends an iCalendar body with its ETag (gzipped when the client accepts it,
// as API answers are), or 304 when the client has it already.
func writeCalendar(w http.ResponseWriter, r *http.Request, body []byte) {
	etag := etagOf(body)
	h := w.Header()
	h.Set("ETag", etag)
	// The URL holds a key: no shared cache may keep the answer.
	h.Set("Cache-Control", "private, max-age=300")
	h.Set("Vary", "Accept-Encoding")
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	if len(body) >= minGzipBytes && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(body) // writes to memory cannot fail
		_ = zw.Close()
		body = buf.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
