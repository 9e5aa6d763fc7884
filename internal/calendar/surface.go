package calendar

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// Surface serves calendar subscriptions, /calendar/{key}/{team|league}/{id}.ics, as the
// server mounts a keyed surface: it reads the path, and answers for a key of a tier once
// the server has checked and counted the key. The server keeps the answer in its response
// cache, so a calendar is computed once per change of data (or, for a free key's upcoming
// events, of the clock), and a client's If-None-Match is answered before anything is read.
type Surface struct {
	st  store.Records
	clk clock.Clock
}

// NewSurface serves the calendars of st, whose upcoming events are those after clk's now.
func NewSurface(st store.Records, clk clock.Clock) *Surface {
	if clk == nil {
		clk = clock.System{}
	}
	return &Surface{st: st, clk: clk}
}

// Prefix is where calendars live.
func (*Surface) Prefix() string { return "/calendar/" }

// Routes are the route names of the scopes.
func (*Surface) Routes() []string {
	names := make([]string, len(Scopes))
	for i, sc := range Scopes {
		names[i] = "calendar/" + string(sc)
	}
	return names
}

// Match reads a calendar path; ok is false for a path that is no calendar (404 before the
// key is checked). The id is kept as sent: it is checked after the key, like every id.
func (*Surface) Match(rawPath string) (t api.Target, ok bool) {
	parts := strings.Split(rawPath, "/")
	if len(parts) != 5 || parts[0] != "" || parts[1] != "calendar" {
		return t, false
	}
	key, err := url.PathUnescape(parts[2])
	if err != nil || key == "" || len(key) > api.MaxSegment {
		return t, false
	}
	scope := Scope(parts[3])
	id, isICS := strings.CutSuffix(parts[4], ".ics")
	if (scope != Team && scope != League) || !isICS || len(id) > api.MaxSegment {
		return t, false
	}
	return api.Target{Route: "calendar/" + string(scope), Key: key, Args: []string{id}}, true
}

// LogPath is a calendar path with its key segment replaced.
func (*Surface) LogPath(rawPath string) string { return api.KeyedLogPath(rawPath) }

// Serve writes the calendar of a matched target for a key of the tier: a free key's holds
// the next FreeEvents events, a paying key's the whole season.
func (s *Surface) Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier) {
	id, ok := api.ParseID(t.Args[0])
	if !ok {
		respond.Error(w, r, respond.ErrNotFound)
		return
	}
	req := Request{Scope: Scope(strings.TrimPrefix(t.Route, "calendar/")), ID: id,
		Season: r.URL.Query().Get("season"), Upcoming: tier == store.Free}
	if req.Upcoming {
		// Read through the watch: the answer is then kept only as long as the cache keeps
		// answers that read the clock.
		req.Now = clock.Read(r.Context(), s.clk)
	}
	feed, err := Load(r.Context(), s.st, req)
	switch {
	case errors.Is(err, store.ErrNotFound):
		respond.Error(w, r, respond.ErrNotFound)
		return
	case err != nil:
		respond.Error(w, r, fmt.Errorf("calendar: %w", err))
		return
	}
	respond.KeyedDocument(w, "text/calendar; charset=utf-8", feed.ICS())
}
