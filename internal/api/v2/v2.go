// Package v2 answers the v2 read API (/api/v2/json/{group}/...): premium keys, the key in
// the X-API-KEY header, one response key per group, {"Message":"No data found"} when there
// is nothing. The endpoints are the rows of routes; README.md lists them.
package v2

import (
	"fmt"
	"net/http"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// API serves v2 requests.
type API struct {
	deps   api.Deps
	routes []compiled
}

// compiled is a route ready to match request paths.
type compiled struct {
	route
	group    string
	segments []string // literal segments, or "" where a parameter goes
	params   []param  // aligned with segments
	literals int
	view     *record.View
}

// New returns the v2 API and registers its default caps in d.Caps.
func New(d api.Deps) *API {
	a := &API{deps: d}
	for _, r := range routes {
		c := compile(r)
		d.Caps.Default(c.capName, caps.Cap{Free: c.cap, Premium: c.cap})
		a.routes = append(a.routes, c)
	}
	return a
}

func compile(r route) compiled {
	c := compiled{route: r, view: r.kind.View(r.view)}
	for _, s := range strings.Split(r.path, "/") {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			c.segments = append(c.segments, "")
			c.params = append(c.params, param(s[1:len(s)-1]))
			continue
		}
		c.segments = append(c.segments, s)
		c.params = append(c.params, "")
		c.literals++
	}
	c.group = c.segments[0]
	if c.capName == "" {
		var lit []string
		for _, s := range c.segments {
			if s != "" {
				lit = append(lit, s)
			}
		}
		c.capName = "v2/" + strings.Join(lit, "/")
	}
	return c
}

// Serve answers one v2 request. segments is the path after /api/v2/json/, split on "/" and
// percent-decoded. The server sends only premium and business keys.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, segments []string, tier store.Tier) {
	if tier == store.Free {
		respond.PremiumNeeded(w)
		return
	}
	rt, in, ok := a.match(segments)
	if !ok {
		respond.NotFound(w)
		return
	}
	if respond.RouteOf(r) == "" {
		r = respond.WithRoute(r, rt.capName)
	}
	if !in.ok {
		respond.NoData(w)
		return
	}
	limit := a.deps.Caps.Limit(rt.capName, tier)
	recs, err := rt.find(r.Context(), env{st: a.deps.Store, clk: a.deps.Clock}, in, limit)
	if err != nil {
		respond.Error(w, r, fmt.Errorf("%s: %w", rt.capName, err))
		return
	}
	write(w, rt, recs, limit)
}

// match finds the route of a path. A literal segment beats a parameter (livescore/all is
// not the sport "all"). A trailing slash is an empty parameter where the route has one
// there (lookup/team/ is no data), and is ignored otherwise (all/countries/).
func (a *API) match(segs []string) (*compiled, args, bool) {
	c, out, ok := a.matchExact(segs)
	if n := len(segs); !ok && n > 1 && segs[n-1] == "" {
		return a.matchExact(segs[:n-1])
	}
	return c, out, ok
}

func (a *API) matchExact(segs []string) (*compiled, args, bool) {
	var best *compiled
	for i := range a.routes {
		c := &a.routes[i]
		if len(c.segments) != len(segs) || (best != nil && best.literals >= c.literals) {
			continue
		}
		if c.matches(segs) {
			best = c
		}
	}
	if best == nil {
		return nil, args{}, false
	}
	out := args{ok: true}
	for i, p := range best.params {
		if p != "" && !out.set(p, segs[i]) {
			out.ok = false
		}
	}
	return best, out, true
}

func (c *compiled) matches(segs []string) bool {
	for i, s := range c.segments {
		if s != "" && s != segs[i] {
			return false
		}
	}
	return true
}

// write is the one place that decides the body: {"<group>":[...]} with records, else
// {"Message":"No data found"}. Search results carry ids as JSON numbers.
func write(w http.ResponseWriter, rt *compiled, recs []record.Record, limit int) {
	if len(recs) > limit {
		recs = recs[:limit]
	}
	if len(recs) == 0 {
		respond.NoData(w)
		return
	}
	numericIDs := rt.group == "search"
	b := make([]byte, 0, 256*len(recs))
	b = append(b, `{"`...)
	b = append(b, rt.group...)
	b = append(b, `":[`...)
	for i, rec := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = record.AppendView(b, rec, rt.view, numericIDs)
	}
	b = append(b, "]}"...)
	respond.JSON(w, b)
}
