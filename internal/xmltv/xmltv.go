// Package xmltv answers TV guides in XMLTV, the format IPTV players and TV-guide software
// read (docs/CONTRACT.md section 17): /xmltv/{key}/tv.xml?country=...&days=... (the listings
// of a channel country) and /xmltv/{key}/team/{id}.xml (a team's games as one channel).
// Times are UTC with their offset, channel ids come from record ids (the same on every run
// and replica), icons are the records' images, and the body depends only on the records,
// the tier and the clock, so its ETag holds across replicas.
package xmltv

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// Route names, for caps, logs and metrics.
const (
	RouteCountry = "xmltv/country"
	RouteTeam    = "xmltv/team"
)

// Routes are the route names the handler's paths have.
var Routes = []string{RouteCountry, RouteTeam}

// Prefix starts every path the handler answers.
const Prefix = "/xmltv/"

// Days of a guide: DefaultDays unless ?days= says 1 to MaxDays.
const (
	DefaultDays = 7
	MaxDays     = 14
	// FreeProgrammes is how many upcoming programmes a free key's guide holds, as a free
	// key's calendar holds the next 15 events.
	FreeProgrammes = 15
	// maxProgrammes is the server-wide ceiling of records in one answer.
	maxProgrammes = 10000
	maxSegment    = api.MaxSegment
)

// Surface serves the guides as the server mounts a keyed surface: it reads the path, and
// answers for a key of a tier once the server has checked and counted the key. The server
// keeps the answer in its response cache (so a guide is computed once per change of data or
// of the clock) and answers If-None-Match from it.
type Surface struct {
	st  store.Records
	clk clock.Clock
}

// NewSurface serves the guides of st, on clk's day (nil: the system clock).
func NewSurface(st store.Records, clk clock.Clock) *Surface {
	if clk == nil {
		clk = clock.System{}
	}
	return &Surface{st: st, clk: clk}
}

// Prefix is where guides live.
func (*Surface) Prefix() string { return Prefix }

// Routes are the route names of the guides.
func (*Surface) Routes() []string { return Routes }

// Match reads a guide path (escaped, as sent); ok is false for a path that is no guide (404
// before the key is checked). A team's id is kept as sent: it is checked after the key.
func (*Surface) Match(rawPath string) (t api.Target, ok bool) {
	parts := strings.Split(rawPath, "/")
	if len(parts) < 4 || parts[0] != "" || "/"+parts[1]+"/" != Prefix {
		return t, false
	}
	key, err := url.PathUnescape(parts[2])
	if err != nil || key == "" || len(key) > maxSegment {
		return t, false
	}
	switch {
	case len(parts) == 4 && parts[3] == "tv.xml":
		return api.Target{Route: RouteCountry, Key: key}, true
	case len(parts) == 5 && parts[3] == "team" && strings.HasSuffix(parts[4], ".xml") && len(parts[4]) <= maxSegment:
		return api.Target{Route: RouteTeam, Key: key, Args: []string{strings.TrimSuffix(parts[4], ".xml")}}, true
	}
	return t, false
}

// LogPath is a guide path with its key replaced, for an access log.
func (*Surface) LogPath(rawPath string) string { return api.KeyedLogPath(rawPath) }

// Serve writes the guide of a matched target for a key of the tier: a free key's holds the
// next FreeProgrammes programmes, a paying key's every programme of the days.
func (s *Surface) Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier) {
	days, ok := readDays(r.URL.Query())
	if !ok {
		respond.Message(w, http.StatusBadRequest, fmt.Sprintf("days must be a whole number from 1 to %d", MaxDays))
		return
	}
	// Read through the watch: the answer is kept only as long as the cache keeps answers
	// that read the clock.
	req := request{tier: tier, days: days, now: clock.Read(r.Context(), s.clk).UTC()}
	var (
		g   *guide
		err error
	)
	switch t.Route {
	case RouteCountry:
		country := strings.TrimSpace(r.URL.Query().Get("country"))
		if country == "" || len(country) > maxSegment || !api.Printable(country) {
			respond.Message(w, http.StatusBadRequest, "country is required: the channels' country, like United Kingdom")
			return
		}
		g, err = countryGuide(r.Context(), s.st, country, req)
	case RouteTeam:
		id, valid := api.ParseID(t.Args[0])
		if !valid {
			respond.NotFound(w)
			return
		}
		g, err = teamGuide(r.Context(), s.st, id, req)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		respond.NotFound(w)
		return
	case err != nil:
		respond.Error(w, r, fmt.Errorf("%s: %w", t.Route, err))
		return
	}
	respond.KeyedDocument(w, "application/xml; charset=utf-8", g.xml())
}

// readDays reads ?days=, DefaultDays when absent.
func readDays(q url.Values) (int, bool) {
	s := q.Get("days")
	if s == "" {
		return DefaultDays, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 1 && n <= MaxDays
}

// request is what a guide depends on besides the records.
type request struct {
	tier store.Tier
	days int
	now  time.Time
}

// dayList are the days of the guide, from today (UTC).
func (r request) dayList() []string {
	out := make([]string, r.days)
	for i := range out {
		out[i] = r.now.AddDate(0, 0, i).Format(time.DateOnly)
	}
	return out
}
