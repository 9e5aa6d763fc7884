// Package xmltv answers TV guides in XMLTV, the format IPTV players and TV-guide software
// read (DECISIONS.md section 17): /xmltv/{key}/tv.xml?country=...&days=... (the listings
// of a channel country) and /xmltv/{key}/team/{id}.xml (a team's games as one channel).
// Times are UTC with their offset, channel ids come from record ids (the same on every run
// and replica), icons are the records' images, and the body depends only on the records,
// the tier and the clock, so its ETag holds across replicas.
package xmltv

import (
	"crypto/sha256"
	"encoding/hex"
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

// Gate checks a request's key and counts the request against the key's rate limit; when it
// refuses, it has answered and ok is false.
type Gate func(w http.ResponseWriter, r *http.Request, key string) (tier store.Tier, ok bool)

// Config is what the handler reads.
type Config struct {
	Store store.Records
	Clock clock.Clock // nil: the system clock
	Gate  Gate
}

type handler struct{ cfg Config }

// New returns the handler of the paths under Prefix.
func New(cfg Config) http.Handler {
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	return &handler{cfg: cfg}
}

// target is a guide's path, read.
type target struct {
	key   string
	route string
	id    string // the team's id as sent (RouteTeam)
}

// parsePath reads a guide path (escaped, as sent); ok is false for a path that is no guide.
func parsePath(rawPath string) (t target, ok bool) {
	parts := strings.Split(rawPath, "/")
	if len(parts) < 4 || parts[0] != "" || "/"+parts[1]+"/" != Prefix {
		return t, false
	}
	key, err := url.PathUnescape(parts[2])
	if err != nil || key == "" || len(key) > maxSegment {
		return t, false
	}
	t.key = key
	switch {
	case len(parts) == 4 && parts[3] == "tv.xml":
		t.route = RouteCountry
	case len(parts) == 5 && parts[3] == "team" && strings.HasSuffix(parts[4], ".xml") && len(parts[4]) <= maxSegment:
		t.route, t.id = RouteTeam, strings.TrimSuffix(parts[4], ".xml")
	default:
		return t, false
	}
	return t, true
}

// RouteOf is the route name of a guide path, "" when it is none.
func RouteOf(rawPath string) string {
	t, _ := parsePath(rawPath)
	return t.route
}

// LogPath is a guide path with its key replaced, for an access log.
func LogPath(rawPath string) string {
	parts := strings.SplitN(rawPath, "/", 4)
	if len(parts) >= 3 && parts[2] != "" {
		parts[2] = "{key}"
	}
	return strings.Join(parts, "/")
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t, ok := parsePath(r.URL.EscapedPath())
	if !ok {
		respond.NotFound(w)
		return
	}
	tier, ok := h.cfg.Gate(w, r, t.key)
	if !ok {
		return
	}
	days, ok := readDays(r.URL.Query())
	if !ok {
		respond.Message(w, http.StatusBadRequest, fmt.Sprintf("days must be a whole number from 1 to %d", MaxDays))
		return
	}
	req := request{tier: tier, days: days, now: clock.Read(r.Context(), h.cfg.Clock).UTC()}
	var (
		g   *guide
		err error
	)
	switch t.route {
	case RouteCountry:
		country := strings.TrimSpace(r.URL.Query().Get("country"))
		if country == "" || len(country) > maxSegment || !api.Printable(country) {
			respond.Message(w, http.StatusBadRequest, "country is required: the channels' country, like United Kingdom")
			return
		}
		g, err = countryGuide(r.Context(), h.cfg.Store, country, req)
	case RouteTeam:
		id, valid := api.ParseID(t.id)
		if !valid {
			respond.NotFound(w)
			return
		}
		g, err = teamGuide(r.Context(), h.cfg.Store, id, req)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		respond.NotFound(w)
		return
	case err != nil:
		respond.Error(w, r, fmt.Errorf("%s: %w", t.route, err))
		return
	}
	write(w, r, g.xml())
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

// write sends the guide with its ETag, or 304 when the client has it already.
func write(w http.ResponseWriter, r *http.Request, body []byte) {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	// The URL holds a key: no shared cache may keep the answer.
	h.Set("Cache-Control", "private, max-age=300")
	if matches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/xml; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// matches says whether an If-None-Match header names etag (weakly, as RFC 9110 compares).
func matches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
