// Package sportarr answers the metadata API that Sportarr (a sports PVR) reads through its
// configurable base URL (docs/CONTRACT.md section 16): its own paths, its {"data":...} envelopes,
// its models' field names and its change feed's names, under /sportarr/{key}/. The calls are
// those of Sportarr's client (src/Services/SportarrApiClient.cs); each answers the records the
// corresponding v1 or v2 row answers (their Records), written as Sportarr's models read them.
// The rows are in routes.go, the models in models.go, the change feed in feed.go.
package sportarr

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/store"
)

// Prefix starts every path of the dialect: /sportarr/{key}/ is the base URL Sportarr is given.
const Prefix = "/sportarr/"

// baseSuffix is what Sportarr's default base URL ends with. Sportarr finds the root of the
// service by removing it from the base URL, so a base URL given with it
// (/sportarr/{key}/api/v2/json) reaches the same rows, and the root's rows (api/metadata/...)
// are reached from either form.
var baseSuffix = []string{"api", "v2", "json"}

// Surface serves the dialect as the server mounts a keyed surface: it reads the path, and
// answers for a key of a tier once the server has checked and counted the key (premium and
// business keys: the answers are v2's data). Answers go through the server's response cache.
type Surface struct {
	v1   *v1.API
	v2   *v2.API
	st   store.Records
	feed store.Feed
	rows []compiled
}

// NewSurface answers from the rows of a1 and a2, the records of st and the change feed of
// feed, each read as the response cache needs them read (respcache.Tracking, TrackingFeed).
func NewSurface(a1 *v1.API, a2 *v2.API, st store.Records, feed store.Feed) *Surface {
	s := &Surface{v1: a1, v2: a2, st: st, feed: feed}
	for _, r := range rows {
		s.rows = append(s.rows, compile(r))
	}
	return s
}

// compiled is a row ready to match paths.
type compiled struct {
	row
	route    string
	segments []string // literal segments, or "" where a parameter goes
}

func compile(r row) compiled {
	c := compiled{row: r}
	var lit []string
	for _, s := range strings.Split(r.Path, "/") {
		if strings.HasPrefix(s, "{") {
			c.segments = append(c.segments, "")
			continue
		}
		c.segments = append(c.segments, s)
		lit = append(lit, s)
	}
	c.route = "sportarr/" + strings.Join(lit, "/")
	return c
}

// Prefix is where the dialect lives.
func (*Surface) Prefix() string { return Prefix }

// Routes lists the route names of the rows.
func (s *Surface) Routes() []string {
	out := make([]string, len(s.rows))
	for i := range s.rows {
		out[i] = s.rows[i].route
	}
	return out
}

// Match reads /sportarr/{key}/[api/v2/json/]PATH (escaped, as sent); ok is false for a path
// no row names (404 before the key is checked). Parameters are kept as sent, decoded: each
// row's answer checks its own.
func (s *Surface) Match(rawPath string) (t api.Target, ok bool) {
	tail, ok := strings.CutPrefix(rawPath, Prefix)
	if !ok {
		return t, false
	}
	segs, ok := api.SplitSegments(tail)
	if !ok || len(segs) < 2 {
		return t, false
	}
	for _, seg := range segs {
		if len(seg) > api.MaxSegment {
			return t, false
		}
	}
	key, rest := segs[0], segs[1:]
	if key == "" {
		return t, false
	}
	if len(rest) > len(baseSuffix) && slices.Equal(rest[:len(baseSuffix)], baseSuffix) {
		rest = rest[len(baseSuffix):]
	}
	for i := range s.rows {
		if args, ok := s.rows[i].match(rest); ok {
			return api.Target{Route: s.rows[i].route, Key: key, PremiumOnly: true, Row: i, Args: args}, true
		}
	}
	return t, false
}

// match says whether a path is the row's, and its parameters.
func (c *compiled) match(segs []string) ([]string, bool) {
	if len(segs) != len(c.segments) {
		return nil, false
	}
	var args []string
	for i, lit := range c.segments {
		switch {
		case lit == "":
			args = append(args, segs[i])
		case lit != segs[i]:
			return nil, false
		}
	}
	return args, true
}

// LogPath is a path of the dialect with its key replaced, for an access log.
func (*Surface) LogPath(rawPath string) string { return api.KeyedLogPath(rawPath) }

// call is one request as a row's answer reads it.
type call struct {
	ctx   context.Context
	r     *http.Request
	tier  store.Tier
	query url.Values
	s     *Surface
}

// Serve answers a matched target for a key of the tier.
func (s *Surface) Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier) {
	rw := &s.rows[t.Row]
	body, err := rw.Answer.fn(&call{ctx: r.Context(), r: r, tier: tier, query: r.URL.Query(), s: s}, t.Args)
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	respond.JSON(w, body)
}

// Doc describes a row for the OpenAPI document.
type Doc struct {
	// Path is from the root, the key written {key}; Params are its {parameters}.
	Path, Route, Summary string
	Params, Query        []string
	// Schema is the JSON schema of its 200 answer; nil when it has none (always 404).
	Schema map[string]any
}

// Docs describe every row, in the table's order.
func Docs() []Doc {
	out := make([]Doc, len(rows))
	for i, r := range rows {
		c := compile(r)
		d := Doc{Path: Prefix + "{key}/" + r.Path, Route: c.route, Summary: r.Doc, Query: r.Query, Schema: r.Answer.schema}
		for _, seg := range strings.Split(r.Path, "/") {
			if name, ok := strings.CutPrefix(seg, "{"); ok {
				d.Params = append(d.Params, strings.TrimSuffix(name, "}"))
			}
		}
		out[i] = d
	}
	return out
}
