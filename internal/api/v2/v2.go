// Package v2 answers the v2 read API (/api/v2/json/{group}/...): premium keys, the key in
// the X-API-KEY header or as the segment before the group, one response key per group,
// {"Message":"No data found"} when there is nothing. The endpoints are the rows of routes;
// README.md lists them.
package v2

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// API serves v2 requests.
type API struct {
	deps   api.Deps
	routes []compiled
	// groups are the first segments of the table's paths: they tell a v2 path from a key.
	groups map[string]bool
}

// compiled is a route ready to match request paths.
type compiled struct {
	endpoint
	group    string
	segments []string // literal segments, or "" where a parameter goes
	params   []param  // aligned with segments
	literals int
	view     *record.View
}

// New returns the v2 API and registers its default caps in d.Caps.
func New(d api.Deps) *API {
	a := &API{deps: d, groups: map[string]bool{}}
	for _, r := range routes {
		c := compile(r)
		d.Caps.Default(c.Route, c.Cap)
		a.routes = append(a.routes, c)
		a.groups[c.group] = true
	}
	return a
}

func compile(r endpoint) compiled {
	c := compiled{endpoint: r, view: r.Kind.View(r.View)}
	var lit []string
	for _, s := range strings.Split(r.Path, "/") {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			c.segments = append(c.segments, "")
			c.params = append(c.params, param(s[1:len(s)-1]))
			continue
		}
		c.segments = append(c.segments, s)
		c.params = append(c.params, "")
		c.literals++
		lit = append(lit, s)
	}
	c.group = c.segments[0]
	c.Key = c.group
	c.PremiumOnly = true
	if c.Route == "" {
		c.Route = "v2/" + strings.Join(lit, "/")
	}
	return c
}

// Match recognises v2 paths: /api/v2/json/{group}/... (key in X-API-KEY) and
// /api/v2/json/{key}/{group}/... A path in a known group that no route matches is still
// v2's, so its key is checked before the 404.
func (a *API) Match(version string, segs []string) (api.Target, bool) {
	if version != "v2" || len(segs) == 0 || segs[0] == "" {
		return api.Target{}, false
	}
	t := api.Target{Route: api.OtherRoute, Row: api.NoRow, PremiumOnly: true}
	switch {
	case a.groups[segs[0]]:
		t.HeaderKey, t.Args = true, segs
	case len(segs) >= 2 && a.groups[segs[1]]:
		t.Key, t.Args = segs[0], segs[1:]
	default:
		return api.Target{}, false
	}
	if i, ok := a.match(t.Args); ok {
		t.Row, t.Route, t.Clock, t.Local = i, a.routes[i].Route, a.routes[i].Clock, a.routes[i].Local
	}
	return t, true
}

// Routes lists the route names of the table.
func (a *API) Routes() []string {
	out := make([]string, len(a.routes))
	for i := range a.routes {
		out[i] = a.routes[i].Route
	}
	return out
}

// Serve answers a target Match gave. The server sends only premium and business keys.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier) {
	if !t.Known() {
		respond.NotFound(w)
		return
	}
	rt := &a.routes[t.Row]
	in, ok := rt.args(t.Args)
	if rt.Params != "" {
		in.query = r.URL.Query().Get(rt.Params)
	}
	if !ok {
		respond.NoData(w)
		return
	}
	ans, limit, err := a.answer(r.Context(), rt, in, tier)
	if err != nil {
		respond.Error(w, r, fmt.Errorf("%s: %w", rt.Route, err))
		return
	}
	if err := write(w, rt, ans, limit); err != nil {
		respond.Error(w, r, fmt.Errorf("%s: %w", rt.Route, err))
	}
}

// answer runs a row for a key of the tier, and says the row's cap for that tier.
func (a *API) answer(ctx context.Context, rt *compiled, in args, tier store.Tier) (api.Answer, int, error) {
	limit := a.deps.Caps.Limit(rt.CapName(), tier)
	ans, err := api.Compute(ctx,
		func(ctx context.Context) *api.Request { return a.deps.NewRequest(ctx, tier, rt.Kind, limit, rt.Order) },
		func(req *api.Request) (api.Answer, error) { return rt.Answer(req, in) })
	return ans, limit, err
}

// Records answers a path of the table (its segments after /api/v2/json/, the key left out)
// for a key of the tier with the records the row would write, capped as it caps them: for a
// dialect that writes the same data in its own shape (internal/api/sportarr). ok is false
// for a path no row names; a parameter that can match nothing is no records.
func (a *API) Records(ctx context.Context, tier store.Tier, segs ...string) (recs []record.Record, ok bool, err error) {
	i, ok := a.match(segs)
	if !ok {
		return nil, false, nil
	}
	rt := &a.routes[i]
	in, valid := rt.args(segs)
	if !valid {
		return nil, true, nil
	}
	ans, limit, err := a.answer(ctx, rt, in, tier)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", rt.Route, err)
	}
	if len(ans.Recs) > limit {
		ans.Recs = ans.Recs[:limit]
	}
	return ans.Recs, true, nil
}

// match finds the route of a path. A literal segment beats a parameter (livescore/all is
// not the sport "all"). A trailing slash is an empty parameter where the route has one
// there (lookup/team/ is no data), and is ignored otherwise (all/countries/).
func (a *API) match(segs []string) (int, bool) {
	i, ok := a.matchExact(segs)
	if n := len(segs); !ok && n > 1 && segs[n-1] == "" {
		return a.matchExact(segs[:n-1])
	}
	return i, ok
}

func (a *API) matchExact(segs []string) (int, bool) {
	best := -1
	for i := range a.routes {
		c := &a.routes[i]
		if len(c.segments) != len(segs) || (best >= 0 && a.routes[best].literals >= c.literals) {
			continue
		}
		if c.matches(segs) {
			best = i
		}
	}
	return best, best >= 0
}

func (c *compiled) matches(segs []string) bool {
	for i, s := range c.segments {
		if s != "" && s != segs[i] {
			return false
		}
	}
	return true
}

// args reads the parameters of a matched path; ok is false when one cannot match anything.
// The path may carry the trailing slash match ignored.
func (c *compiled) args(segs []string) (args, bool) {
	var out args
	ok := true
	for i, p := range c.params {
		if p != "" && !out.set(p, segs[i]) {
			ok = false
		}
	}
	return out, ok
}

// write is the one place that decides the body: {"<group>":[...]} with records, else
// {"Message":"No data found"}. Search results carry ids as JSON numbers. The error, of a
// stored record that does not decode, comes before anything is written.
func write(w http.ResponseWriter, rt *compiled, ans api.Answer, limit int) error {
	recs := ans.Recs
	if len(recs) > limit {
		recs = recs[:limit]
	}
	if len(recs) == 0 {
		respond.NoData(w)
		return nil
	}
	numericIDs := rt.numericIDs()
	size := 64 + len(rt.group) + rt.view.ListSize(recs)
	b := make([]byte, 0, size+size/32)
	b = append(b, `{"`...)
	b = append(b, rt.group...)
	b = append(b, `":[`...)
	for i, rec := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		if ans.Wrap != nil {
			b = append(b, ans.Wrap(i)...)
		}
		var err error
		if b, err = record.AppendView(b, rec, rt.view, numericIDs); err != nil {
			return err
		}
		if ans.Wrap != nil {
			b = append(b, '}')
		}
	}
	b = append(b, "]}"...)
	respond.JSON(w, b)
	return nil
}
